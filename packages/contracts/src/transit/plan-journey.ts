import { z } from 'zod';
import { PLAN_JOURNEY_ERROR_TABLE, type PlanJourneyErrorCode } from '../errors/index.js';
import { InstantSchema, isWellFormedText, wellFormedTextError } from './common.js';

/** Longest `from`/`to` accepted: far above any place name, postcode or stop code TfL resolves. */
export const MAX_PLACE_QUERY_LENGTH = 200;

/** How many journeys and how many suggestions per side planJourney returns at most (seed 000). */
export const MAX_TOP_JOURNEYS = 5;
export const MAX_DISAMBIGUATION_SUGGESTIONS = 5;

function placeQuery(field: 'from' | 'to', what: string) {
  return z
    .string()
    .trim()
    .min(1, `${field} must not be blank`)
    .max(MAX_PLACE_QUERY_LENGTH, `${field} must be at most ${MAX_PLACE_QUERY_LENGTH} characters`)
    .refine(isWellFormedText, wellFormedTextError(field))
    .describe(
      `${what}: place name, postcode, "lat,lon", NaPTAN or ICS stop code, or a suggestion's \`parameterValue\`.`,
    );
}

/** `JourneyPlanRequest` (seed 000). */
export const PlanJourneyInputSchema = z
  .strictObject({
    from: placeQuery('from', 'Start'),
    to: placeQuery('to', 'Destination'),
    needAccessibleRoute: z
      .boolean()
      .optional()
      .describe('True: only step-free routes (step-free access to the platform).'),
  })
  .describe('JourneyPlanRequest: plan a London journey with the TfL Journey Planner.');
export type PlanJourneyInput = z.input<typeof PlanJourneyInputSchema>;
export type JourneyPlanRequest = z.output<typeof PlanJourneyInputSchema>;

export const JourneyLegSummarySchema = z
  .object({
    mode: z.string().describe('TfL mode id of the leg, e.g. tube, bus, walking, overground, elizabeth-line.'),
    line: z
      .string()
      .optional()
      .describe('Line or route name (e.g. "Central", "25"); absent for walking and unnamed legs.'),
    summary: z.string().describe('TfL\'s one-line instruction, e.g. "Central line to Mile End".'),
    from: z.string().describe('Where the leg starts (stop or place name).'),
    to: z.string().describe('Where the leg ends (stop or place name).'),
    departureTime: InstantSchema.describe('When the leg starts: ISO 8601 with the Europe/London offset.'),
    arrivalTime: InstantSchema.describe('When the leg ends: ISO 8601 with the Europe/London offset.'),
    durationMinutes: z.number().int().nonnegative().describe('Leg duration in minutes.'),
    distanceMeters: z
      .number()
      .nonnegative()
      .optional()
      .describe('Leg distance in metres, when TfL gives it.'),
    isDisrupted: z.boolean().describe('True when TfL reports a disruption affecting this leg.'),
  })
  .describe('One leg of a journey option.');
export type JourneyLegSummary = z.infer<typeof JourneyLegSummarySchema>;

export const JourneyOptionSummarySchema = z
  .object({
    durationMinutes: z.number().int().nonnegative().describe('Total journey duration in minutes.'),
    startDateTime: InstantSchema.describe(
      'Departure: ISO 8601 instant with the Europe/London offset (TfL gives London local time).',
    ),
    arrivalDateTime: InstantSchema.describe('Arrival: ISO 8601 instant with the Europe/London offset.'),
    legCount: z.number().int().nonnegative().describe('Number of legs (equals legs.length).'),
    legs: z.array(JourneyLegSummarySchema).describe('The legs in travel order.'),
    farePence: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe(
        'Total adult pay-as-you-go fare in pence, when TfL gives one (its `totalCost`, else the sum of its `fares`).',
      ),
    isDisrupted: z.boolean().describe('True when any leg is disrupted.'),
  })
  .describe('JourneyOptionSummary: one journey option.');
export type JourneyOptionSummary = z.infer<typeof JourneyOptionSummarySchema>;

export const JourneyDisambiguationSuggestionSchema = z
  .object({
    parameterValue: z.string().min(1).describe('Retry token: pass it as `from` or `to` to pick this place.'),
    matchQuality: z
      .number()
      .nullable()
      .describe("TfL's match quality (higher is better, at most 1000); null when TfL gave none."),
    name: z.string().describe('The place name (TfL `commonName`).'),
    placeType: z
      .string()
      .optional()
      .describe('TfL place type, e.g. StopPoint, PointOfInterest, Street, Postcode.'),
    lat: z.number().optional().describe('Latitude of the place, when TfL gives it.'),
    lon: z.number().optional().describe('Longitude of the place, when TfL gives it.'),
  })
  .describe('JourneyDisambiguationSuggestion: a candidate place for an ambiguous `from` or `to`.');
export type JourneyDisambiguationSuggestion = z.infer<typeof JourneyDisambiguationSuggestionSchema>;

export const PLAN_JOURNEY_CODES = [
  'OK',
  ...(Object.keys(PLAN_JOURNEY_ERROR_TABLE.codes) as PlanJourneyErrorCode[]),
] as const;
export const PlanJourneyCodeSchema = z
  .enum(PLAN_JOURNEY_CODES as unknown as ['OK', ...PlanJourneyErrorCode[]])
  .describe(
    'OK, or VALIDATION_ERROR, DISAMBIGUATION_REQUIRED, RATE_LIMIT_EXCEEDED, UPSTREAM_TIMEOUT, UPSTREAM_ERROR, ' +
      'INTERNAL_ERROR.',
  );
export type PlanJourneyCode = z.infer<typeof PlanJourneyCodeSchema>;

const suggestions = (side: string) =>
  z
    .array(JourneyDisambiguationSuggestionSchema)
    .max(MAX_DISAMBIGUATION_SUGGESTIONS)
    .nullable()
    .describe(
      `Candidates for \`${side}\`, best match first (at most ${MAX_DISAMBIGUATION_SUGGESTIONS}), when ` +
        `code=DISAMBIGUATION_REQUIRED and \`${side}\` was ambiguous; otherwise null.`,
    );

/** `JourneyPlanToolResponse` (seed 000): the same six fields on success and on every failure. */
export const PlanJourneyOutputSchema = z
  .object({
    success: z.boolean().describe('Whether the tool execution succeeded.'),
    code: PlanJourneyCodeSchema,
    message: z.string().describe('Human-readable result or error summary.'),
    topJourneys: z
      .array(JourneyOptionSummarySchema)
      .max(MAX_TOP_JOURNEYS)
      .nullable()
      .describe(
        `Up to ${MAX_TOP_JOURNEYS} fastest journeys, shortest duration first (ties: earlier arrival); empty ` +
          'when TfL found no journey; null on error.',
      ),
    fromLocationDisambiguation: suggestions('from'),
    toLocationDisambiguation: suggestions('to'),
  })
  .superRefine((value, ctx) => {
    if (value.success !== (value.code === 'OK')) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'code is OK exactly when success is true' });
    }
    if (value.success !== (value.topJourneys !== null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['topJourneys'],
        message: 'topJourneys is a list on success and null on error',
      });
    }
    if (
      value.code === 'DISAMBIGUATION_REQUIRED' &&
      !value.fromLocationDisambiguation?.length &&
      !value.toLocationDisambiguation?.length
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['code'],
        message: 'DISAMBIGUATION_REQUIRED comes with suggestions for from or to',
      });
    }
    if (value.code !== 'DISAMBIGUATION_REQUIRED') {
      for (const side of ['fromLocationDisambiguation', 'toLocationDisambiguation'] as const) {
        if (value[side] !== null) {
          ctx.addIssue({
            code: 'custom',
            path: [side],
            message: `${side} is only set when code is DISAMBIGUATION_REQUIRED`,
          });
        }
      }
    }
  })
  .describe('JourneyPlanToolResponse: the planJourney envelope.');
export type PlanJourneyOutput = z.infer<typeof PlanJourneyOutputSchema>;
export type JourneyPlanToolResponse = PlanJourneyOutput;
