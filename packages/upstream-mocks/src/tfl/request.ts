// Reads a JourneyResults request: resolves `from`/`to` and the requested date and time.
import { localDateTime, localDateTimeMs, LONDON } from '../time.js';
import { TFL_STATIONS, type TflStation } from './data.js';
import type { TflLocation } from './entities.js';
import type { JourneyRequest } from './journeys.js';

/** Where a journey starts or ends when its text names no known place. */
const FALLBACK = { from: station('kingsCross'), to: station('waterloo') };

function station(key: string): TflStation {
  const found = TFL_STATIONS[key];
  if (found === undefined) throw new Error(`no station ${key} in fixtures/tfl/stations.json`);
  return found;
}

const COORDINATES = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;
const POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}$/i;

/** Resolves an ICS code, NaPTAN id, station name, `lat,lon` or postcode; anything else falls back to a station. */
export function resolveLocation(text: string, side: 'from' | 'to'): TflLocation {
  const needle = text.trim().toLowerCase();
  for (const station of Object.values(TFL_STATIONS)) {
    const name = station.commonName.toLowerCase();
    if (
      station.icsCode === needle ||
      station.naptanId.toLowerCase() === needle ||
      name === needle ||
      name.replace(/ (underground|rail) station$/, '') === needle
    ) {
      return { kind: 'station', station };
    }
  }
  const coords = COORDINATES.exec(text);
  if (coords)
    return { kind: 'point', commonName: text.trim(), lat: Number(coords[1]), lon: Number(coords[2]) };
  if (POSTCODE.test(text.trim())) {
    const fallback = FALLBACK[side];
    return {
      kind: 'point',
      commonName: text.trim().toUpperCase(),
      lat: fallback.lat + 0.002,
      lon: fallback.lon - 0.003,
    };
  }
  return { kind: 'station', station: FALLBACK[side] };
}

/** `date=yyyyMMdd`, `time=HHmm`, `timeIs=Departing|Arriving`; defaults to now, rounded up to the minute. */
function requestedDateTime(
  query: Readonly<Record<string, string>>,
  nowMs: number,
): { ms: number; timeIs: 'Departing' | 'Arriving' } {
  const timeIs =
    (query['timeIs'] ?? query['timeis'] ?? '').toLowerCase() === 'arriving' ? 'Arriving' : 'Departing';
  const date = /^(\d{4})(\d{2})(\d{2})$/.exec(query['date'] ?? '');
  const time = /^(\d{2})(\d{2})$/.exec(query['time'] ?? '');
  if (!date && !time) return { ms: Math.ceil(nowMs / 60_000) * 60_000, timeIs };
  // What is not given is today's, or the current minute.
  const [today = '', current = ''] = localDateTime(nowMs, LONDON).split('T');
  const day = date ? `${date[1]}-${date[2]}-${date[3]}` : today;
  const minute = time ? `${time[1]}:${time[2]}` : current.slice(0, 5);
  return { ms: localDateTimeMs(`${day}T${minute}`, LONDON), timeIs };
}

/** The request's query string without `app_key`, in its original order. */
export function queryWithoutKey(url: URL): string {
  const params = new URLSearchParams();
  for (const [name, value] of url.searchParams) {
    if (name.toLowerCase() !== 'app_key' && name.toLowerCase() !== 'app_id') params.append(name, value);
  }
  return params.toString();
}

export function journeyRequest(
  fromText: string,
  toText: string,
  url: URL,
  query: Readonly<Record<string, string>>,
  nowMs: number,
): JourneyRequest {
  const when = requestedDateTime(query, nowMs);
  return {
    from: resolveLocation(fromText, 'from'),
    to: resolveLocation(toText, 'to'),
    fromText,
    toText,
    dateTimeMs: when.ms,
    timeIs: when.timeIs,
    queryWithoutKey: queryWithoutKey(url),
  };
}
