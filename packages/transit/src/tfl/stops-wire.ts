// TfL stop points on the wire: `SearchResponse` (`matches`: MatchedStop) from `/StopPoint/Search/{query}`
// and `StopPointsResponse` (`stopPoints`: StopPoint) from `/StopPoint` around a coordinate, read leniently
// from field tables (see ../wire-record.ts): a stop without an id, a name or a position is left out.
import { lenientItems, lenientRecord, recordSchema, required, type ReadValue } from '../wire-record.js';
import { readNonEmptyString, readNumber, readString, readText } from '../wire.js';

const commonStopFields = {
  lat: required(readNumber),
  lon: required(readNumber),
  modes: lenientItems(readString),
  lines: lenientItems(lenientRecord({ id: required(readNonEmptyString) })),
  zone: readText,
};

const readMatchedStop = lenientRecord({
  id: required(readNonEmptyString),
  name: required(readNonEmptyString),
  ...commonStopFields,
});
export type MatchedStop = ReadValue<typeof readMatchedStop>;

const readStopPoint = lenientRecord({
  naptanId: readText,
  id: readText,
  commonName: required(readNonEmptyString),
  stopLetter: readText,
  distance: readNumber,
  ...commonStopFields,
});
export type StopPointWire = ReadValue<typeof readStopPoint>;

export const SearchResponseSchema = recordSchema(
  lenientRecord({ total: readNumber, matches: lenientItems(readMatchedStop) }),
);

export const StopPointsResponseSchema = recordSchema(
  lenientRecord({ total: readNumber, stopPoints: lenientItems(readStopPoint) }),
);
