// TfL arrival predictions on the wire: `Tfl.Api.Presentation.Entities.Prediction[]` from
// `/StopPoint/{id}/Arrivals` and `/Line/{ids}/Arrivals/{stopPointId}`, parsed leniently (see ../wire.ts): a
// prediction without a readable line or expected arrival is left out when it is mapped, not here.
import { z } from 'zod';
import { listOf, optionalNumber, optionalText } from '../wire.js';

export const PredictionSchema = z.object({
  /** 1: new or updated; 2: to be deleted from any client cache. */
  operationType: optionalNumber,
  naptanId: optionalText,
  stationName: optionalText,
  lineId: optionalText,
  lineName: optionalText,
  platformName: optionalText,
  /** inbound or outbound; sometimes empty. */
  direction: optionalText,
  destinationName: optionalText,
  /** When TfL inserted or last updated the prediction (UTC). */
  timestamp: optionalText,
  timeToStation: optionalNumber,
  currentLocation: optionalText,
  towards: optionalText,
  /** UTC. */
  expectedArrival: optionalText,
  /** When the prediction expires (UTC). */
  timeToLive: optionalText,
  modeName: optionalText,
});
export type Prediction = z.infer<typeof PredictionSchema>;

/** The answer must be a list; items that are not objects are left out. */
export const PredictionListSchema = listOf(PredictionSchema);
