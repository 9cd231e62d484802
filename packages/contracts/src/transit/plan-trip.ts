import { z } from 'zod';
import {
  CoordinateSchema,
  InstantSchema,
  LanguageSchema,
  sameCoordinates,
  TransitModeSchema,
} from './common.js';
import { DepartureStatusSchema } from './departures.js';
import { SAVED_PLACE_KEY_MAX } from './saved-places.js';
import { AnswerWarningSchema } from './service-alerts.js';

export const MAX_ITINERARIES = 3;
export const MAX_WALKING_DISTANCE_LIMIT = 3000;
/** Seed 003 business rule 2: a delay above this (seconds) is a disruption. */
export const DISRUPTION_DELAY_SECONDS = 300;
/** With accessibility.lowWalkingDistance, an itinerary walking at most this far (metres) is "low walking". */
export const LOW_WALKING_DISTANCE_METERS = 500;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function isInstant(value: string): boolean {
  return ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value));
}

export const CoordsPlaceSchema = z
  .strictObject({
    type: z.literal('coords').describe('The place is given as coordinates.'),
    value: CoordinateSchema,
  })
  .describe('A place given by coordinates.');

export const LabelPlaceSchema = z
  .strictObject({
    type: z.literal('label').describe('A saved place of type location.'),
    value: z
      .string()
      .trim()
      .min(1, 'the label must not be blank')
      .max(SAVED_PLACE_KEY_MAX, `the label must be at most ${SAVED_PLACE_KEY_MAX} characters`)
      .describe('Its key (see save_user_variable).'),
  })
  .describe('A saved location.');

export const PlaceInputSchema = z
  .discriminatedUnion('type', [CoordsPlaceSchema, LabelPlaceSchema], {
    // Undefined falls back to zod's message, which describeIssues turns into "<field> is required".
    error: (issue) => (issue.input === undefined ? undefined : "type must be 'coords' or 'label'"),
  })
  .describe('A place: coordinates or a saved location.');
export type PlaceInput = z.infer<typeof PlaceInputSchema>;

export const WhenSchema = z
  .strictObject({
    type: z
      .enum(['depart', 'arrive'], { error: "when.type must be 'depart' or 'arrive'" })
      .default('depart')
      .describe('depart: leave at `time` or later; arrive: arrive by `time`.'),
    time: z
      .string()
      .refine((value) => value === 'now' || isInstant(value), {
        message:
          'when.time must be "now" or an ISO 8601 date-time with Z or an offset, e.g. 2025-09-15T10:00:00Z',
      })
      .default('now')
      .describe('"now" or an ISO 8601 date-time with Z or an offset.'),
  })
  .superRefine((when, ctx) => {
    if (when.type === 'arrive' && when.time === 'now') {
      ctx.addIssue({
        code: 'custom',
        path: ['time'],
        message: "when.time must be an ISO 8601 date-time when when.type is 'arrive' ('now' is not allowed)",
      });
    }
  })
  .describe('When to travel.');

export const OPTIMIZE_VALUES = ['balanced', 'few_transfers', 'shortest_time'] as const;

export const ConstraintsInputSchema = z
  .strictObject({
    optimize: z
      .enum(OPTIMIZE_VALUES, {
        error: 'constraints.optimize must be one of balanced, few_transfers, shortest_time',
      })
      .default('balanced')
      .describe('What the search optimises for.'),
    maxWalkingDistance: z
      .number()
      .min(1, 'constraints.maxWalkingDistance must be between 1 and 3000 metres')
      .max(MAX_WALKING_DISTANCE_LIMIT, 'constraints.maxWalkingDistance must be between 1 and 3000 metres')
      .default(1500)
      .describe('Most walking per itinerary, in metres.'),
    maxTransfers: z
      .number()
      .int('constraints.maxTransfers must be a whole number')
      .min(0, 'constraints.maxTransfers must be between 0 and 8')
      .max(8, 'constraints.maxTransfers must be between 0 and 8')
      .default(4)
      .describe('Most transfers per itinerary.'),
    accessibility: z
      .strictObject({
        stepFree: z
          .boolean()
          .default(false)
          .describe(
            'Ask for wheelchair-accessible routes; warns when the data cannot confirm accessibility.',
          ),
        lowWalkingDistance: z
          .boolean()
          .default(false)
          .describe('Prefer little walking and annotate each itinerary with whether it is low-walking.'),
      })
      .prefault({})
      .describe('Accessibility preferences.'),
    language: LanguageSchema.default('en'),
  })
  .prefault({})
  .describe('Routing constraints.');

export const PlanTripInputSchema = z
  .strictObject({
    origin: PlaceInputSchema,
    destination: PlaceInputSchema,
    when: WhenSchema.prefault({}),
    constraints: ConstraintsInputSchema,
    limit: z
      .number()
      .int('limit must be a whole number')
      .min(1, 'limit must be between 1 and 3')
      .max(MAX_ITINERARIES, 'limit must be between 1 and 3')
      .default(2)
      .describe('Most itineraries to return, after deduplication.'),
    includeDisruptionAlt: z
      .boolean()
      .default(true)
      .describe(
        'When an itinerary is cancelled or delayed > 300 s, search once more with relaxed constraints.',
      ),
  })
  .superRefine((input, ctx) => {
    if (
      input.origin.type === 'coords' &&
      input.destination.type === 'coords' &&
      sameCoordinates(input.origin.value, input.destination.value)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['destination'],
        message: 'origin and destination must differ (they are within 1 m of each other)',
      });
    }
  })
  .describe('plan_trip input.');
export type PlanTripInput = z.input<typeof PlanTripInputSchema>;
export type PlanTripRequest = z.output<typeof PlanTripInputSchema>;

export const LocationRefSchema = z
  .object({
    coordinate: CoordinateSchema,
    rawSource: z
      .enum(['input', 'variable', 'geocoder'])
      .describe('input: coordinates given directly; variable: a saved place; geocoder: a geocoding lookup.'),
    label: z.string().optional().describe('The saved place key the location came from.'),
    name: z.string().optional().describe('Place name (saved with the place, or from the geocoder).'),
    address: z.string().optional().describe('Address (saved with the place, or the geocoder label).'),
  })
  .describe('LocationRef: a resolved origin or destination.');
export type LocationRef = z.infer<typeof LocationRefSchema>;

export const PlanConstraintsSchema = z
  .object({
    optimize: z.enum(OPTIMIZE_VALUES).describe('The optimisation used.'),
    maxWalkingDistance: z.number().describe('Walking limit in metres.'),
    maxTransfers: z.number().int().describe('Transfer limit.'),
    accessibility: z
      .object({
        stepFree: z.boolean().describe('Wheelchair-accessible routing requested.'),
        lowWalkingDistance: z.boolean().describe('Low-walking annotation requested.'),
      })
      .describe('Accessibility preferences.'),
    language: LanguageSchema,
  })
  .describe('PlanConstraints: the constraints used, defaults applied.');
export type PlanConstraints = z.infer<typeof PlanConstraintsSchema>;

export const ScheduleTypeSchema = z
  .enum(['realtime', 'scheduled', 'mixed'])
  .describe(
    'realtime: every transit leg has realtime data; mixed: some do; scheduled: none (or no transit).',
  );
export type ScheduleType = z.infer<typeof ScheduleTypeSchema>;

export const LegPlaceSchema = z
  .object({
    name: z.string().describe('Stop or place name.'),
    lat: z.number().describe('Latitude.'),
    lon: z.number().describe('Longitude.'),
    stopId: z
      .string()
      .optional()
      .describe('GTFS id of the stop, for transit stops (usable in get_departures).'),
  })
  .describe('Where a leg starts or ends.');

export const ItineraryLegSchema = z
  .object({
    mode: TransitModeSchema,
    transit: z.boolean().describe('True for a public transport leg (status and delays apply to these).'),
    from: LegPlaceSchema,
    to: LegPlaceSchema,
    startTime: InstantSchema.describe('Start: the realtime estimate when there is one, else the schedule.'),
    endTime: InstantSchema.describe('End: the realtime estimate when there is one, else the schedule.'),
    scheduledStartTime: InstantSchema.describe('Scheduled start.'),
    scheduledEndTime: InstantSchema.describe('Scheduled end.'),
    durationSeconds: z.number().int().nonnegative().describe('Duration in seconds.'),
    distanceMeters: z.number().nonnegative().describe('Distance in metres.'),
    line: z.string().optional().describe('Line (route short name) of a transit leg.'),
    headsign: z.string().optional().describe('Headsign of a transit leg at boarding.'),
    status: DepartureStatusSchema,
    delaySeconds: z
      .number()
      .int()
      .optional()
      .describe('Departure delay in seconds (negative when early), when realtime data exists.'),
    lastRealtimeUpdate: InstantSchema.optional().describe(
      'When the realtime data was last updated, if known.',
    ),
  })
  .describe('One leg of an itinerary.');
export type ItineraryLeg = z.infer<typeof ItineraryLegSchema>;

export const ItinerarySchema = z
  .object({
    legs: z.array(ItineraryLegSchema).describe('The legs in travel order.'),
    startTime: InstantSchema.describe('Departure from the origin (realtime when known).'),
    endTime: InstantSchema.describe('Arrival at the destination (realtime when known).'),
    durationSeconds: z.number().int().nonnegative().describe('Total duration in seconds.'),
    walkDistanceMeters: z.number().nonnegative().describe('Total walking distance in metres.'),
    transfers: z.number().int().nonnegative().describe('Number of transfers.'),
    scheduleType: ScheduleTypeSchema,
    fingerprint: z
      .string()
      .regex(/^sha1:[0-9a-f]{40}$/, 'fingerprint is sha1: followed by 40 hex digits')
      .describe('sha1 of the legs (mode, line, stops, scheduled times): equal routes share it.'),
    disrupted: z.boolean().describe('True when a leg is cancelled or delayed by more than 300 s.'),
    disruptionFlag: z
      .boolean()
      .describe(
        'True for an alternative found by the disruption search that replaces a disrupted itinerary.',
      ),
    lowWalkingDistance: z
      .boolean()
      .optional()
      .describe(
        `With accessibility.lowWalkingDistance: whether this itinerary walks at most ${LOW_WALKING_DISTANCE_METERS} m.`,
      ),
  })
  .describe('Itinerary: one way to make the trip.');
export type Itinerary = z.infer<typeof ItinerarySchema>;

export const PlanTripOutputSchema = z
  .object({
    origin: LocationRefSchema,
    destination: LocationRefSchema,
    requested: z
      .object({
        type: z.enum(['depart', 'arrive']).describe('depart or arrive.'),
        time: InstantSchema.describe(
          'The time searched, ISO 8601 ("now" resolved to the time of the request).',
        ),
      })
      .describe('The time the search used.'),
    constraints: PlanConstraintsSchema,
    itineraries: z
      .array(ItinerarySchema)
      .max(MAX_ITINERARIES)
      .describe('Itineraries after deduplication and disruption alternatives, at most `limit`.'),
    realtimeUsed: ScheduleTypeSchema,
    dataFreshness: InstantSchema.describe(
      'max(leg lastRealtimeUpdate, time the request was received), ISO 8601.',
    ),
    warnings: z
      .array(AnswerWarningSchema)
      .optional()
      .describe(
        'truncated-results, unsupported-accessibility-flag, preference-unmet; service-alert for each alert ' +
          'valid during a leg of the returned itineraries (most severe first, bounded).',
      ),
    correlationId: z.uuid().describe('Correlation id of this call (UUID).'),
    meta: z
      .object({
        deduplicatedFrom: z
          .number()
          .int()
          .nonnegative()
          .optional()
          .describe('How many itineraries there were before duplicates were removed (set when any were).'),
      })
      .optional()
      .describe('Processing details.'),
  })
  .describe('plan_trip success payload.');
export type PlanTripOutput = z.infer<typeof PlanTripOutputSchema>;
