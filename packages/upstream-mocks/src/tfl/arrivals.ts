// TfL arrival predictions (`Prediction[]`, unsorted as TfL sends them: grouped by platform, latest first): the
// recordings in fixtures/tfl/ of Oxford Circus (Victoria, Central and Bakerloo, one with no direction or
// destination, as real answers sometimes have) and of the bus stop 490000254W, moved to now.
import { movableTimes, readFixture } from '../recorded.js';
import { TFL_TIMES } from './entities.js';

interface Prediction {
  readonly naptanId: string;
  readonly lineId: string;
  readonly direction: string;
}

const RECORDED_AT_MS = Date.parse('2025-06-02T05:15:30Z');

/** The recorded predictions of each stop, by NaPTAN id. */
const RECORDED = new Map(
  ['tfl/arrivals.json', 'tfl/arrivals-490000254W.json'].map((file) => {
    const predictions = readFixture<Prediction[]>(file);
    return [
      predictions[0]!.naptanId,
      { predictions, at: movableTimes(predictions, RECORDED_AT_MS, TFL_TIMES) },
    ];
  }),
);

/** Every line id the stops serve: the Line route answers 404 for any other. */
export const KNOWN_ARRIVAL_LINES: ReadonlySet<string> = new Set(
  [...RECORDED.values()].flatMap(({ predictions }) => predictions.map((p) => p.lineId)),
);

export interface ArrivalsQuery {
  readonly naptanId: string;
  /** Lower-case line ids of the Line route; undefined for the StopPoint route. */
  readonly lineIds?: readonly string[] | undefined;
  /** The Line route's `direction` (inbound, outbound, all). */
  readonly direction?: string | undefined;
}

/** The predictions TfL answers for the query (none at a stop without recorded arrivals). */
export function buildArrivals(query: ArrivalsQuery, nowMs: number): Prediction[] {
  const direction = query.direction?.toLowerCase() ?? 'all';
  const recorded = RECORDED.get(query.naptanId);
  return (recorded?.at(nowMs - RECORDED_AT_MS) ?? []).filter(
    (p) =>
      (query.lineIds === undefined || query.lineIds.includes(p.lineId)) &&
      (direction === 'all' || p.direction === direction),
  );
}
