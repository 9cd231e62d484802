import { z } from 'zod';

// Kept here too: the transit schemas were their first users, and client code imports them from this subpath.
export { isWellFormedText, notWellFormedMessage, wellFormedTextError } from '../errors/text.js';

/** An ISO 8601 instant with `Z` or a numeric offset, e.g. `2025-09-15T10:05:00Z`, `2025-09-15T13:05:00+03:00`. */
export const InstantSchema = z.iso.datetime({ offset: true });

export const LANGUAGES = ['fi', 'sv', 'en'] as const;
export const LanguageSchema = z
  .enum(LANGUAGES, { error: 'language must be one of fi, sv, en' })
  .describe('Language of names and messages.');
export type Language = z.infer<typeof LanguageSchema>;

/**
 * Every mode OpenTripPlanner 2 reports (`Mode` and `TransitMode` of the upstream schema and of HSL's fork),
 * plus `OTHER` for a mode a later OTP version adds that this contract version does not know yet.
 */
export const TRANSIT_MODES = [
  'AIRPLANE',
  'BICYCLE',
  'BUS',
  'CABLE_CAR',
  'CAR',
  'CARPOOL',
  'COACH',
  'FERRY',
  'FLEX',
  'FUNICULAR',
  'GONDOLA',
  'MONORAIL',
  'RAIL',
  'SCOOTER',
  'SUBWAY',
  'TAXI',
  'TRAM',
  'TRANSIT',
  'TROLLEYBUS',
  'WALK',
  'OTHER',
] as const;
export const TransitModeSchema = z
  .enum(TRANSIT_MODES)
  .describe('Travel mode as OpenTripPlanner names it (BUS, TRAM, SUBWAY, RAIL, FERRY, WALK, ...).');
export type TransitMode = z.infer<typeof TransitModeSchema>;

export const WARNING_CODES = [
  'truncated-results',
  'unsupported-accessibility-flag',
  'preference-unmet',
  'key-overwritten',
] as const;
export const WarningSchema = z
  .object({
    code: z
      .enum(WARNING_CODES)
      .describe(
        'truncated-results: more results existed than `limit`; unsupported-accessibility-flag: the accessibility ' +
          'preference could not be confirmed; preference-unmet: a constraint could not be fully honoured; ' +
          'key-overwritten: a saved place replaced an earlier one.',
      ),
    message: z.string().describe('What the warning means for this result.'),
  })
  .describe('A non-fatal note about the result.');
export type Warning = z.infer<typeof WarningSchema>;

export const LatitudeSchema = z
  .number()
  .min(-90, 'lat must be between -90 and 90')
  .max(90, 'lat must be between -90 and 90')
  .describe('Latitude (WGS 84).');
export const LongitudeSchema = z
  .number()
  .min(-180, 'lon must be between -180 and 180')
  .max(180, 'lon must be between -180 and 180')
  .describe('Longitude (WGS 84).');

export const CoordinateSchema = z
  .strictObject({ lat: LatitudeSchema, lon: LongitudeSchema })
  .describe('A WGS 84 coordinate.');
export type Coordinate = z.infer<typeof CoordinateSchema>;

const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle (haversine) distance between two coordinates, in metres. */
export function distanceMeters(a: Coordinate, b: Coordinate): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Seed 003 rule 1: origin and destination closer than this are "identical coordinates". */
export const IDENTICAL_COORDINATES_METERS = 1;

/** True when two coordinates are the same place for seed 003 (within 1 m). */
export function sameCoordinates(a: Coordinate, b: Coordinate): boolean {
  return distanceMeters(a, b) <= IDENTICAL_COORDINATES_METERS;
}
