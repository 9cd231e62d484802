// TfL stop points: `GET /StopPoint/Search/{query}` (SearchResponse of MatchedStop) and `GET /StopPoint` around
// a coordinate (StopPointsResponse of the recorded StopPoints, with `lines` when `returnLines=true`).
import { distanceMeters } from '../geo.js';
import { TFL_STATIONS, type TflStation } from './data.js';
import { tflType } from './entities.js';

const STATIONS: readonly TflStation[] = Object.values(TFL_STATIONS);

function servedBy(station: TflStation, modes: readonly string[] | undefined): boolean {
  return modes === undefined || station.modes.some((mode) => modes.includes(mode));
}

/** Search by name: TfL puts wildcards around the query and matches case-insensitively. */
export function buildStopSearch(query: string, modes: readonly string[] | undefined, maxResults: number) {
  const wanted = query.toLowerCase();
  const found = STATIONS.filter(
    (station) => station.commonName.toLowerCase().includes(wanted) && servedBy(station, modes),
  );
  return {
    $type: tflType('SearchResponse'),
    query,
    total: found.length,
    matches: found.slice(0, maxResults).map((station) => ({
      $type: tflType('MatchedStop'),
      icsId: station.icsCode,
      modes: [...station.modes],
      id: station.naptanId,
      name: station.commonName,
      lat: station.lat,
      lon: station.lon,
    })),
  };
}

interface NearbyQuery {
  readonly lat: number;
  readonly lon: number;
  readonly radius: number;
  /** Lower case (TfL matches them case-insensitively). */
  readonly stopTypes: readonly string[];
  readonly modes: readonly string[] | undefined;
  readonly returnLines: boolean;
}

/** Stop points around a coordinate, as TfL answers them (unordered; `distance` in metres). */
export function buildStopsNearby(query: NearbyQuery) {
  const found = STATIONS.map((station) => ({
    station,
    distance: distanceMeters(query.lat, query.lon, station.lat, station.lon),
  })).filter(
    ({ station, distance }) =>
      distance <= query.radius &&
      query.stopTypes.includes(station.stopType.toLowerCase()) &&
      servedBy(station, query.modes),
  );
  return {
    $type: tflType('StopPointsResponse'),
    centrePoint: [query.lat, query.lon],
    stopPoints: found.map(({ station, distance }) => ({
      ...station,
      lines: query.returnLines ? station.lines : [],
      distance: Math.round(distance * 100) / 100,
    })),
    pageSize: 0,
    total: found.length,
    page: 0,
  };
}
