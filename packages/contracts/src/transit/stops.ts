import { z } from 'zod';
import { CoordinateSchema, LanguageSchema, TransitModeSchema, WarningSchema } from './common.js';

export const MAX_FOUND_STOPS = 50;

/** A stop search by name, in either city: 2..100 characters after trimming. */
export const StopNameSchema = z
  .string()
  .trim()
  .min(2, 'name must be at least 2 characters')
  .max(100, 'name must be at most 100 characters');

export const FindStopsInputSchema = z
  .strictObject({
    name: StopNameSchema.optional().describe(
      'Part of the stop name or its short code, e.g. "Rautatientori" or "H2035".',
    ),
    near: CoordinateSchema.optional().describe('Stops near this point, instead of by name.'),
    radiusMeters: z
      .number()
      .int('radiusMeters must be a whole number')
      .min(1, 'radiusMeters must be between 1 and 5000')
      .max(5000, 'radiusMeters must be between 1 and 5000')
      .default(500)
      .describe('Search radius around `near`, in metres.'),
    limit: z
      .number()
      .int('limit must be a whole number')
      .min(1, 'limit must be between 1 and 50')
      .max(MAX_FOUND_STOPS, 'limit must be between 1 and 50')
      .default(10)
      .describe('Most stops to return.'),
    language: LanguageSchema.default('en'),
  })
  .superRefine((input, ctx) => {
    if ((input.name === undefined) === (input.near === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of name or near' });
    }
  })
  .describe('find_stops input: exactly one of `name` or `near`.');
export type FindStopsInput = z.input<typeof FindStopsInputSchema>;

export const FoundStopSchema = z
  .object({
    stopId: z.string().describe('GTFS stop id FEED:ID: pass it to get_departures or save it as a stop.'),
    name: z.string().describe('Stop name in the requested language.'),
    code: z.string().optional().describe('Short code shown at the stop, e.g. H2035.'),
    platform: z.string().optional().describe('Platform or track code.'),
    lat: z.number().describe('Latitude.'),
    lon: z.number().describe('Longitude.'),
    mode: TransitModeSchema.optional().describe('Main mode serving the stop, when known.'),
    distanceMeters: z
      .number()
      .nonnegative()
      .optional()
      .describe('Distance from `near`, for a search by coordinate.'),
  })
  .describe('A stop.');
export type FoundStop = z.infer<typeof FoundStopSchema>;

export const FindStopsOutputSchema = z
  .object({
    stops: z
      .array(FoundStopSchema)
      .max(MAX_FOUND_STOPS)
      .describe('Matching stops: nearest first for `near`, best name match first for `name`.'),
    warnings: z
      .array(WarningSchema)
      .optional()
      .describe('truncated-results when more stops matched than `limit`.'),
  })
  .describe('find_stops result.');
export type FindStopsOutput = z.infer<typeof FindStopsOutputSchema>;
