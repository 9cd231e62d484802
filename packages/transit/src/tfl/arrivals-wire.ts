// TfL arrival predictions on the wire: `Tfl.Api.Presentation.Entities.Prediction[]` from
// `/StopPoint/{id}/Arrivals` and `/Line/{ids}/Arrivals/{stopPointId}`, read leniently from a field table (see
// ../wire-record.ts): a prediction without a readable line or expected arrival is left out when it is mapped,
// not here.
import { lenientRecord, listSchema, type ReadValue } from '../wire-record.js';
import { readNumber, readText } from '../wire.js';

const readPrediction = lenientRecord({
  /** 1: new or updated; 2: to be deleted from any client cache. */
  operationType: readNumber,
  naptanId: readText,
  stationName: readText,
  lineId: readText,
  lineName: readText,
  platformName: readText,
  /** inbound or outbound; sometimes empty. */
  direction: readText,
  destinationName: readText,
  /** When TfL inserted or last updated the prediction (UTC). */
  timestamp: readText,
  timeToStation: readNumber,
  currentLocation: readText,
  towards: readText,
  /** UTC. */
  expectedArrival: readText,
  /** When the prediction expires (UTC). */
  timeToLive: readText,
  modeName: readText,
});
export type Prediction = ReadValue<typeof readPrediction>;

/** The answer must be a list; items that are not objects are left out. */
export const PredictionListSchema = listSchema(readPrediction);
