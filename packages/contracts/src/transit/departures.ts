import { z } from 'zod';
import { InstantSchema, LanguageSchema, TransitModeSchema } from './common.js';
import { AnswerWarningSchema } from './service-alerts.js';

export const MAX_DEPARTURES = 50;

/** A GTFS id as Digitransit writes it: `FEED:ID`, e.g. `HSL:1040129`. */
export const GTFS_ID_PATTERN = /^[A-Za-z0-9_.-]+:[^\s:][^\s]*$/;

export const StopRefSchema = z
  .strictObject({
    type: z
      .enum(['id', 'label'], { error: "stop.type must be 'id' or 'label'" })
      .describe('id: `value` is a GTFS stop id; label: `value` is the key of a saved stop.'),
    value: z
      .string()
      .trim()
      .min(1, 'stop.value must not be blank (a stop id such as HSL:1040129, or a saved place key)')
      .max(200, 'stop.value must be at most 200 characters')
      .describe('A GTFS stop id `FEED:ID` (e.g. HSL:1040129) or the key of a saved place.'),
  })
  .describe('The stop, by GTFS id or saved-place label.');
export type StopRef = z.infer<typeof StopRefSchema>;

export const GetDeparturesInputSchema = z
  .strictObject({
    stop: StopRefSchema,
    windowMinutes: z
      .number()
      .int('windowMinutes must be a whole number of minutes')
      .min(1, 'windowMinutes must be between 1 and 120')
      .max(120, 'windowMinutes must be between 1 and 120')
      .default(30)
      .describe('How far ahead to look, in minutes.'),
    limit: z
      .number()
      .int('limit must be a whole number')
      .min(1, 'limit must be between 1 and 50')
      .max(MAX_DEPARTURES, 'limit must be between 1 and 50')
      .default(10)
      .describe('Most departures to return, applied after sorting.'),
    language: LanguageSchema.default('en'),
  })
  .describe('get_departures input.');
export type GetDeparturesInput = z.input<typeof GetDeparturesInputSchema>;
export type GetDeparturesRequest = z.output<typeof GetDeparturesInputSchema>;

export const DEPARTURE_STATUSES = ['on_time', 'delayed', 'cancelled', 'scheduled_only'] as const;
export const DepartureStatusSchema = z
  .enum(DEPARTURE_STATUSES)
  .describe(
    'cancelled > delayed (|delay| > 60 s) > on_time (|delay| <= 60 s) > scheduled_only (no realtime data).',
  );
export type DepartureStatus = z.infer<typeof DepartureStatusSchema>;

export const DepartureSchema = z
  .object({
    line: z
      .string()
      .describe(
        'Line (route short name, else long name), e.g. "7", "550", "M1"; empty when the provider names no route.',
      ),
    mode: TransitModeSchema,
    destination: z
      .string()
      .describe(
        'Headsign shown on the vehicle at this stop (else the trip headsign); empty when none is given.',
      ),
    scheduledTime: InstantSchema.describe('Scheduled departure (ISO 8601, UTC).'),
    realtimeTime: InstantSchema.optional().describe(
      'Realtime estimate of the departure (ISO 8601, UTC); absent without realtime data or when cancelled.',
    ),
    delaySeconds: z
      .number()
      .int()
      .optional()
      .describe('realtimeTime - scheduledTime in seconds (negative when early); present with realtimeTime.'),
    status: DepartureStatusSchema,
    platform: z.string().optional().describe('Platform or track code, when the stop has one.'),
  })
  .describe('Departure: one upcoming departure.');
export type Departure = z.infer<typeof DepartureSchema>;

export const GetDeparturesOutputSchema = z
  .object({
    stopId: z.string().describe('The GTFS id of the stop queried.'),
    stopName: z.string().optional().describe('Stop name in the requested language, when known.'),
    realtimeUsed: z.boolean().describe('True when any departure has a realtime time or a cancellation flag.'),
    dataFreshness: InstantSchema.describe(
      'max(latest realtime update timestamp, time the request was received), ISO 8601.',
    ),
    departures: z
      .array(DepartureSchema)
      .max(MAX_DEPARTURES)
      .describe('Departures sorted by realtimeTime, else scheduledTime, ascending; at most `limit`.'),
    correlationId: z.uuid().describe('Correlation id of this call (UUID).'),
    warnings: z
      .array(AnswerWarningSchema)
      .optional()
      .describe(
        'truncated-results when more departures existed than `limit`; service-alert for each alert valid in ' +
          'the window that concerns the stop or a line of the departures (most severe first, bounded).',
      ),
  })
  .describe('get_departures success payload.');
export type GetDeparturesOutput = z.infer<typeof GetDeparturesOutputSchema>;
