// find_london_stops: a contract of our own (issue #16) in planJourney's envelope and codes: TfL stop points
// by name or around a coordinate, whose ids get_london_arrivals and planJourney take.
import { z } from 'zod';
import type { SwitchyardError } from '../errors/index.js';
import { CoordinateSchema, WarningSchema } from './common.js';
import { LONDON_ENVELOPE_HEAD, londonEnvelopeRule, londonFailureHead } from './london-envelope.js';
import { LINE_STATUS_MODES } from './line-status.js';
import { StopNameSchema } from './stops.js';

/** TfL's own maximum for a stop search (`maxResults`). */
export const MAX_LONDON_STOPS = 50;
/** The widest circle a search around a coordinate may ask TfL for, in metres. */
export const MAX_LONDON_STOP_RADIUS_METERS = 2000;

export const FindLondonStopsInputSchema = z
  .strictObject({
    name: StopNameSchema.optional().describe('Part of a stop or station name, e.g. "Oxford Circus".'),
    near: CoordinateSchema.optional().describe('Stops near this point, instead of by name.'),
    radiusMeters: z
      .number()
      .int('radiusMeters must be a whole number')
      .min(1, `radiusMeters must be between 1 and ${MAX_LONDON_STOP_RADIUS_METERS}`)
      .max(
        MAX_LONDON_STOP_RADIUS_METERS,
        `radiusMeters must be between 1 and ${MAX_LONDON_STOP_RADIUS_METERS}`,
      )
      .default(300)
      .describe('Search radius around `near`, in metres.'),
    modes: z
      .array(z.enum(LINE_STATUS_MODES, { error: `modes are ${LINE_STATUS_MODES.join(', ')}` }))
      .min(1, 'modes must name at least one mode (or be left out)')
      .optional()
      .describe('Only stops served by these modes.'),
    limit: z
      .number()
      .int('limit must be a whole number')
      .min(1, `limit must be between 1 and ${MAX_LONDON_STOPS}`)
      .max(MAX_LONDON_STOPS, `limit must be between 1 and ${MAX_LONDON_STOPS}`)
      .default(10)
      .describe('Most stops to return.'),
  })
  .superRefine((input, ctx) => {
    if ((input.name === undefined) === (input.near === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of name or near' });
    }
  })
  .describe('find_london_stops input: exactly one of `name` or `near`.');
export type FindLondonStopsInput = z.input<typeof FindLondonStopsInputSchema>;
export type FindLondonStopsRequest = z.output<typeof FindLondonStopsInputSchema>;

export const LondonStopSchema = z
  .object({
    id: z
      .string()
      .describe('TfL StopPoint id: the stop for get_london_arrivals, and a from/to for planJourney.'),
    name: z.string().describe('Stop or station name.'),
    lat: z.number().describe('Latitude.'),
    lon: z.number().describe('Longitude.'),
    modes: z.array(z.string()).describe('TfL modes serving it, e.g. tube, bus.'),
    lines: z.array(z.string()).describe('TfL line ids serving it, when TfL lists them.'),
    stopLetter: z.string().optional().describe('Bus stop letter shown at the stop, e.g. W.'),
    zone: z.string().optional().describe('Fare zone, e.g. 1.'),
    distanceMeters: z.number().nonnegative().optional().describe('Distance from `near`.'),
  })
  .describe('A London stop.');
export type LondonStop = z.infer<typeof LondonStopSchema>;

export const FindLondonStopsOutputSchema = z
  .object({
    ...LONDON_ENVELOPE_HEAD,
    stops: z
      .array(LondonStopSchema)
      .max(MAX_LONDON_STOPS)
      .nullable()
      .describe("Nearest first for `near`, TfL's best match first for `name`; null on error."),
    warnings: z
      .array(WarningSchema)
      .optional()
      .describe('truncated-results when more stops matched than `limit`.'),
  })
  .superRefine(londonEnvelopeRule('stops'))
  .describe('find_london_stops envelope.');
export type FindLondonStopsOutput = z.infer<typeof FindLondonStopsOutputSchema>;

/** find_london_stops' envelope on failure: every field present, the data null. */
export function londonStopsErrorEnvelope(error: SwitchyardError): FindLondonStopsOutput {
  return { ...londonFailureHead(error), stops: null };
}
