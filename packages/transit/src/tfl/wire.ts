// TfL Journey Planner wire formats (the parts this server reads), parsed leniently: TfL adds fields freely
// (`lines`, `stopMessages`, `fare.fares[]`, `obstacles`...), sends null or "" for absent ones, leaves
// `distance` out of rail legs and writes some numbers as strings. Shapes follow the Unified API swagger and
// real captures (see test/tfl-real-shapes.test.ts for the variants and where they were seen).
import type { z } from 'zod';
import { lenientItems, lenientRecord, recordSchema, type ReadValue } from '../wire-record.js';
import { readBoolean, readNumber, readText } from '../wire.js';

const readPlace = lenientRecord({
  commonName: readText,
  placeType: readText,
  lat: readNumber,
  lon: readNumber,
});

const readLeg = lenientRecord({
  duration: readNumber,
  instruction: lenientRecord({ summary: readText }),
  departureTime: readText,
  arrivalTime: readText,
  departurePoint: readPlace,
  arrivalPoint: readPlace,
  routeOptions: lenientItems(lenientRecord({ name: readText })),
  mode: lenientRecord({ id: readText, name: readText }),
  distance: readNumber,
  isDisrupted: readBoolean,
});
export type TflLeg = ReadValue<typeof readLeg>;

/** `JourneyFare`: `totalCost` in pence, and the single fares it adds up (`fares[].cost`). */
const readFare = lenientRecord({
  totalCost: readNumber,
  fares: lenientItems(lenientRecord({ cost: readNumber })),
});
export type TflFare = ReadValue<typeof readFare>;

/** A journey; its times are checked when it is mapped (one without readable times is left out). */
const readJourney = lenientRecord({
  startDateTime: readText,
  arrivalDateTime: readText,
  duration: readNumber,
  legs: lenientItems(readLeg),
  fare: readFare,
});
export type TflJourney = ReadValue<typeof readJourney>;

/**
 * `Tfl.Api.Presentation.Entities.JourneyPlanner.ItineraryResult`. `journeys` may be empty (or absent) with
 * HTTP 200 when nothing runs; journeys that are not objects are left out.
 */
export const ItineraryResultSchema = recordSchema(lenientRecord({ journeys: lenientItems(readJourney) }));
export type ItineraryResult = z.output<typeof ItineraryResultSchema>;

const readDisambiguationOption = lenientRecord({
  parameterValue: readText,
  uri: readText,
  place: readPlace,
  matchQuality: readNumber,
});

/** One side of a disambiguation: `matchStatus` is list | identified | notidentified | empty (or absent). */
const readDisambiguation = lenientRecord({
  matchStatus: readText,
  disambiguationOptions: lenientItems(readDisambiguationOption),
});
export type Disambiguation = ReadValue<typeof readDisambiguation>;

/** `Tfl.Api.Presentation.Entities.JourneyPlanner.DisambiguationResult` (HTTP 300, occasionally 200). */
export const DisambiguationResultSchema = recordSchema(
  lenientRecord({
    fromLocationDisambiguation: readDisambiguation,
    toLocationDisambiguation: readDisambiguation,
    viaLocationDisambiguation: readDisambiguation,
  }),
);
export type DisambiguationResult = z.output<typeof DisambiguationResultSchema>;

function typeName(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const type = (body as Record<string, unknown>).$type;
  return typeof type === 'string' ? type : undefined;
}

/** True when a body is a DisambiguationResult rather than an ItineraryResult. */
export function isDisambiguationBody(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  if (typeName(body)?.includes('DisambiguationResult')) return true;
  const record = body as Record<string, unknown>;
  return (
    !Array.isArray(record.journeys) &&
    (record.fromLocationDisambiguation != null || record.toLocationDisambiguation != null)
  );
}

/** An `ApiError` body sent with a 2xx status: its message, when it has one. */
export function apiErrorMessage(body: unknown): string | undefined {
  if (!typeName(body)?.includes('ApiError')) return undefined;
  const message = (body as Record<string, unknown>).message;
  return typeof message === 'string' && message.trim() !== '' ? message.trim() : 'no message';
}
