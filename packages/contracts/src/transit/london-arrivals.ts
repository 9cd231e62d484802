// get_london_arrivals: a contract of our own (issue #16) in planJourney's envelope and codes.
import { z } from 'zod';
import type { SwitchyardError } from '../errors/index.js';
import { InstantSchema, WarningSchema } from './common.js';
import { LONDON_ENVELOPE_HEAD, londonEnvelopeRule, londonFailureHead } from './london-envelope.js';

export const MAX_LONDON_ARRIVALS = 50;
export const MAX_ARRIVAL_LINES = 10;

/** A TfL StopPoint id: a NaPTAN code (e.g. 940GZZLUOXC, 490000254W) or a hub id (HUBKGX). */
export const NAPTAN_ID_PATTERN = /^[A-Za-z0-9]{3,30}$/;

/** A TfL line id: lower-case letters, digits and dashes (victoria, hammersmith-city, 25, n29). */
export const TFL_LINE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** One TfL line id as a caller writes it: trimmed and lower-cased, then checked. */
export const TflLineIdSchema = z
  .string()
  .trim()
  .toLowerCase()
  // A refinement, not a regex: the listed schema stays short (the message says what is wanted).
  .refine(
    (id) => TFL_LINE_ID_PATTERN.test(id),
    'each line is a TfL line id such as victoria, hammersmith-city or 25',
  );

export const LondonStopRefSchema = z
  .strictObject({
    type: z
      .enum(['id', 'label'], { error: "stop.type must be 'id' or 'label'" })
      .describe('id: NaPTAN id; label: saved tfl-stop key.'),
    value: z
      .string()
      .trim()
      .min(1, 'stop.value must not be blank (a NaPTAN id such as 940GZZLUOXC, or a saved place key)')
      .max(200, 'stop.value must be at most 200 characters')
      .describe('e.g. 940GZZLUOXC'),
  })
  .superRefine((stop, ctx) => {
    if (stop.type === 'id' && !NAPTAN_ID_PATTERN.test(stop.value)) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'stop.value must be a TfL StopPoint (NaPTAN) id such as 940GZZLUOXC or 490000254W',
      });
    }
  })
  .describe('The London stop.');
export type LondonStopRef = z.infer<typeof LondonStopRefSchema>;

export const ARRIVAL_DIRECTIONS = ['inbound', 'outbound', 'all'] as const;
export type ArrivalDirection = (typeof ARRIVAL_DIRECTIONS)[number];

export const GetLondonArrivalsInputSchema = z
  .strictObject({
    stop: LondonStopRefSchema,
    lines: z
      .array(TflLineIdSchema)
      .min(1, 'lines must name at least one line (or be left out)')
      .max(MAX_ARRIVAL_LINES, `lines may name at most ${MAX_ARRIVAL_LINES} lines`)
      .optional()
      .describe('TfL line ids, e.g. ["victoria"].'),
    direction: z
      .enum(ARRIVAL_DIRECTIONS, { error: 'direction must be inbound, outbound or all' })
      .default('all')
      .describe('Direction of travel.'),
    limit: z
      .number()
      .int('limit must be a whole number')
      .min(1, `limit must be between 1 and ${MAX_LONDON_ARRIVALS}`)
      .max(MAX_LONDON_ARRIVALS, `limit must be between 1 and ${MAX_LONDON_ARRIVALS}`)
      .default(10)
      .describe('Most arrivals returned.'),
  })
  .describe('get_london_arrivals input.');
export type GetLondonArrivalsInput = z.input<typeof GetLondonArrivalsInputSchema>;
export type GetLondonArrivalsRequest = z.output<typeof GetLondonArrivalsInputSchema>;

export const LondonArrivalSchema = z
  .object({
    lineId: z.string().describe('TfL line id, e.g. victoria or 25.'),
    lineName: z.string().describe('Line name, e.g. Victoria or 25.'),
    mode: z.string().describe('TfL mode, e.g. tube, bus, dlr, overground, elizabeth-line.'),
    destination: z.string().describe('Where the vehicle terminates; empty when TfL names none.'),
    towards: z.string().optional().describe("TfL's routing text, e.g. Walthamstow Central."),
    platform: z.string().optional().describe('Platform name (for a bus, the stop letter).'),
    direction: z
      .enum(['inbound', 'outbound'])
      .optional()
      .describe('Direction of travel, when TfL gives one.'),
    expectedArrival: InstantSchema.describe('Expected arrival at the stop (ISO 8601, UTC).'),
    minutesToArrival: z
      .number()
      .int()
      .nonnegative()
      .describe('Whole minutes from this answer to expectedArrival; 0 is due.'),
    currentLocation: z.string().optional().describe('Where the vehicle is now, when TfL says.'),
  })
  .describe('One predicted arrival.');
export type LondonArrival = z.infer<typeof LondonArrivalSchema>;

/** The planJourney-style envelope: the same fields on success and on every failure (null on failure). */
export const GetLondonArrivalsOutputSchema = z
  .object({
    ...LONDON_ENVELOPE_HEAD,
    stopId: z.string().nullable().describe('The NaPTAN id asked for; null on error.'),
    stopName: z.string().nullable().describe("TfL's station name, when any arrival names it."),
    arrivals: z
      .array(LondonArrivalSchema)
      .max(MAX_LONDON_ARRIVALS)
      .nullable()
      .describe('Soonest first, at most `limit`; empty when nothing is predicted; null on error.'),
    dataFreshness: InstantSchema.nullable().describe(
      'When TfL last updated these predictions (latest `timestamp`), else when they were fetched; null on error.',
    ),
    validUntil: InstantSchema.nullable().describe(
      "Until when TfL's caching hints (timeToLive, max-age) call this answer current; null on error.",
    ),
    warnings: z
      .array(WarningSchema)
      .optional()
      .describe('truncated-results when more arrivals existed than `limit`.'),
  })
  .superRefine(londonEnvelopeRule('arrivals'))
  .describe('get_london_arrivals envelope.');
export type GetLondonArrivalsOutput = z.infer<typeof GetLondonArrivalsOutputSchema>;

/** get_london_arrivals' envelope on failure: every field present, the data fields null. */
export function londonArrivalsErrorEnvelope(error: SwitchyardError): GetLondonArrivalsOutput {
  return {
    ...londonFailureHead(error),
    stopId: null,
    stopName: null,
    arrivals: null,
    dataFreshness: null,
    validUntil: null,
  };
}
