// get_line_status: a contract of our own (issue #16) in planJourney's envelope and codes: TfL's status and
// disruptions for lines or whole modes, now or over a range of days (planned works).
import { z } from 'zod';
import type { SwitchyardError } from '../errors/index.js';
import { InstantSchema } from './common.js';
import { TflLineIdSchema } from './london-arrivals.js';
import { LONDON_ENVELOPE_HEAD, londonEnvelopeRule, londonFailureHead } from './london-envelope.js';

/** TfL's own limit on the line ids of one status request ("Max. approx. 20 ids"). */
export const MAX_STATUS_LINES = 20;
/** The longest range of days one question about planned works may cover. */
export const MAX_STATUS_RANGE_DAYS = 31;

/** The TfL modes that have line status. */
export const LINE_STATUS_MODES = [
  'tube',
  'overground',
  'elizabeth-line',
  'dlr',
  'tram',
  'bus',
  'river-bus',
  'cable-car',
  'national-rail',
] as const;
export type LineStatusMode = (typeof LINE_STATUS_MODES)[number];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real day: 2026-02-30 is not one (Date would roll it over to March). */
function isCalendarDay(value: string): boolean {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

const CalendarDateSchema = (field: string) =>
  z
    .string()
    .refine((value) => DATE.test(value) && isCalendarDay(value), {
      message: `${field} must be a date as YYYY-MM-DD (a London calendar day)`,
    })
    .describe('YYYY-MM-DD');

export const GetLineStatusInputSchema = z
  .strictObject({
    lines: z
      .array(TflLineIdSchema)
      .min(1, 'lines must name at least one line (or give modes instead)')
      .max(MAX_STATUS_LINES, `lines may name at most ${MAX_STATUS_LINES} lines`)
      .optional()
      .describe('TfL line ids, e.g. ["victoria","central"].'),
    modes: z
      .array(z.enum(LINE_STATUS_MODES, { error: `modes are ${LINE_STATUS_MODES.join(', ')}` }))
      .min(1, 'modes must name at least one mode (or give lines instead)')
      .optional()
      .describe('Every line of these modes.'),
    from: CalendarDateSchema('from').optional().describe('First day of planned works to show (with lines).'),
    to: CalendarDateSchema('to').optional().describe('Last day, inclusive.'),
  })
  .superRefine((input, ctx) => {
    if ((input.lines === undefined) === (input.modes === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['lines'], message: 'give either lines or modes' });
    }
    if ((input.from === undefined) !== (input.to === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'from and to go together' });
      return;
    }
    if (input.from === undefined || input.to === undefined) return;
    if (input.lines === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['from'],
        message: 'a date range needs lines (TfL has none by mode)',
      });
    }
    const days = (Date.parse(input.to) - Date.parse(input.from)) / 86_400_000 + 1;
    if (days < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must not be before from' });
    if (days > MAX_STATUS_RANGE_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `the range may cover at most ${MAX_STATUS_RANGE_DAYS} days`,
      });
    }
  })
  .describe('get_line_status input.');
export type GetLineStatusInput = z.input<typeof GetLineStatusInputSchema>;
export type GetLineStatusRequest = z.output<typeof GetLineStatusInputSchema>;

export const ValidityPeriodSchema = z
  .object({
    from: InstantSchema.describe('Start (ISO 8601, UTC).'),
    to: InstantSchema.describe('End (ISO 8601, UTC).'),
    isNow: z.boolean().describe('Whether the period includes now.'),
  })
  .describe('When a status applies.');

export const LineStatusEntrySchema = z
  .object({
    severity: z.number().int().describe("TfL's statusSeverity (10 is Good Service)."),
    description: z.string().describe('e.g. Good Service, Minor Delays, Part Closure.'),
    reason: z.string().optional().describe("TfL's explanation, when it gives one."),
    category: z.string().optional().describe('Disruption category, e.g. RealTime, PlannedWork.'),
    closureText: z.string().optional().describe('e.g. partClosure, severeDelays.'),
    validity: z.array(ValidityPeriodSchema).describe('When it applies; empty when TfL gives no period.'),
  })
  .describe('One status of a line.');
export type LineStatusEntry = z.infer<typeof LineStatusEntrySchema>;

export const LineStatusSchema = z
  .object({
    id: z.string().describe('TfL line id.'),
    name: z.string().describe('Line name.'),
    mode: z.string().describe('TfL mode.'),
    disrupted: z.boolean().describe('Whether any status is other than a good or normal service.'),
    statuses: z.array(LineStatusEntrySchema).describe("In TfL's order."),
  })
  .describe('One line.');
export type LineStatus = z.infer<typeof LineStatusSchema>;

/** The planJourney-style envelope: the same fields on success and on every failure (null on failure). */
export const GetLineStatusOutputSchema = z
  .object({
    ...LONDON_ENVELOPE_HEAD,
    lines: z.array(LineStatusSchema).nullable().describe('Disrupted lines first; null on error.'),
    dataFreshness: InstantSchema.nullable().describe('When TfL answered; null on error.'),
    validUntil: InstantSchema.nullable().describe("Until when TfL's caching hints call this current."),
  })
  .superRefine(londonEnvelopeRule('lines'))
  .describe('get_line_status envelope.');
export type GetLineStatusOutput = z.infer<typeof GetLineStatusOutputSchema>;

/** get_line_status' envelope on failure: every field present, the data fields null. */
export function lineStatusErrorEnvelope(error: SwitchyardError): GetLineStatusOutput {
  return {
    ...londonFailureHead(error),
    lines: null,
    dataFreshness: null,
    validUntil: null,
  };
}
