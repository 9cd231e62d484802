// TfL's presentation entities as they appear on the wire, each with its .NET `$type`.
import type { TimeFormat } from '../recorded.js';
import { dotNetUtcTimestamp, localDateTime, localDateTimeMs, LONDON } from '../time.js';
import type { TflStation } from './data.js';

const ENTITIES = 'Tfl.Api.Presentation.Entities';

/** `Tfl.Api.Presentation.Entities.<name>, Tfl.Api.Presentation.Entities` */
export function tflType(name: string): string {
  return `${ENTITIES}.${name}, ${ENTITIES}`;
}

/**
 * How TfL writes instants: London local time (journeys, fare taps), UTC to the second (disruptions, validity,
 * expected arrivals) and .NET's UTC with 7 fractional digits (prediction timestamps).
 */
export const TFL_TIMES: readonly TimeFormat[] = [
  {
    pattern: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/,
    read: (text) => localDateTimeMs(text, LONDON),
    write: (ms) => localDateTime(ms, LONDON),
  },
  {
    pattern: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    read: Date.parse,
    write: (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  },
  { pattern: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/, read: Date.parse, write: dotNetUtcTimestamp },
];

/** A journey end point: a known station, or a coordinate / postcode / free-text location. */
export type TflLocation =
  | { readonly kind: 'station'; readonly station: TflStation }
  | { readonly kind: 'point'; readonly commonName: string; readonly lat: number; readonly lon: number };

/**
 * A journey end as a StopPoint. Coordinates and postcodes have no NaPTAN id and a placeholder ICS code; the
 * keys left undefined are left out of the JSON.
 */
export function stopPointEntity(
  location: TflLocation,
  side: 'from' | 'to' = 'from',
): Record<string, unknown> {
  const station = location.kind === 'station' ? location.station : undefined;
  const { commonName, lat, lon } = location.kind === 'station' ? location.station : location;
  return {
    $type: tflType('StopPoint'),
    naptanId: station?.naptanId,
    platformName: '',
    stopLetter: station?.stopLetter || undefined,
    icsCode: station?.icsCode ?? (side === 'from' ? '99999997' : '99999998'),
    individualStopId: station?.naptanId ?? '',
    commonName,
    placeType: 'StopPoint',
    additionalProperties: [],
    lat,
    lon,
  };
}

export function locationName(location: TflLocation): string {
  return location.kind === 'station' ? location.station.commonName : location.commonName;
}
