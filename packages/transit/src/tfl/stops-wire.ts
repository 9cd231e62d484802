// TfL stop points on the wire: `SearchResponse` (`matches`: MatchedStop) from `/StopPoint/Search/{query}`
// and `StopPointsResponse` (`stopPoints`: StopPoint) from `/StopPoint` around a coordinate, parsed leniently
// (see ../wire.ts): a stop without an id, a name or a position is left out.
import { z } from 'zod';
import { lenientList, optionalNumber, optionalText, wireNumber } from '../wire.js';

const IdentifierSchema = z.object({ id: z.string().min(1) });

const commonStopFields = {
  lat: wireNumber,
  lon: wireNumber,
  modes: lenientList(z.string()),
  lines: lenientList(IdentifierSchema),
  zone: optionalText,
};

export const MatchedStopSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  ...commonStopFields,
});
export type MatchedStop = z.infer<typeof MatchedStopSchema>;

export const StopPointSchema = z.object({
  naptanId: optionalText,
  id: optionalText,
  commonName: z.string().min(1),
  stopLetter: optionalText,
  distance: optionalNumber,
  ...commonStopFields,
});
export type StopPointWire = z.infer<typeof StopPointSchema>;

export const SearchResponseSchema = z.object({
  total: optionalNumber,
  matches: lenientList(MatchedStopSchema),
});

export const StopPointsResponseSchema = z.object({
  total: optionalNumber,
  stopPoints: lenientList(StopPointSchema),
});
