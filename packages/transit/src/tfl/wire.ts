// TfL Journey Planner wire formats (the parts this server reads), parsed leniently: TfL adds fields freely
// (`lines`, `stopMessages`, `fare.fares[]`, `obstacles`...), sends null or "" for absent ones, leaves
// `distance` out of rail legs and writes some numbers as strings. Shapes follow the Unified API swagger and
// real captures (see test/tfl-real-shapes.test.ts for the variants and where they were seen).
import { z } from 'zod';
import { lenientList, optionalBoolean, optionalNumber, optionalObject, optionalText } from '../wire.js';

export const TflPlaceSchema = z.object({
  commonName: optionalText,
  placeType: optionalText,
  lat: optionalNumber,
  lon: optionalNumber,
});

export const TflLegSchema = z.object({
  duration: optionalNumber,
  instruction: optionalObject(z.object({ summary: optionalText })),
  departureTime: optionalText,
  arrivalTime: optionalText,
  departurePoint: optionalObject(TflPlaceSchema),
  arrivalPoint: optionalObject(TflPlaceSchema),
  routeOptions: lenientList(z.object({ name: optionalText })),
  mode: optionalObject(z.object({ id: optionalText, name: optionalText })),
  distance: optionalNumber,
  isDisrupted: optionalBoolean,
});
export type TflLeg = z.infer<typeof TflLegSchema>;

/** `JourneyFare`: `totalCost` in pence, and the single fares it adds up (`fares[].cost`). */
export const TflFareSchema = z.object({
  totalCost: optionalNumber,
  fares: lenientList(z.object({ cost: optionalNumber })),
});
export type TflFare = z.infer<typeof TflFareSchema>;

/** A journey; its times are checked when it is mapped (one without readable times is left out). */
export const TflJourneySchema = z.object({
  startDateTime: optionalText,
  arrivalDateTime: optionalText,
  duration: optionalNumber,
  legs: lenientList(TflLegSchema),
  fare: optionalObject(TflFareSchema),
});
export type TflJourney = z.infer<typeof TflJourneySchema>;

/**
 * `Tfl.Api.Presentation.Entities.JourneyPlanner.ItineraryResult`. `journeys` may be empty (or absent) with
 * HTTP 200 when nothing runs; journeys that are not objects are left out.
 */
export const ItineraryResultSchema = z.object({
  journeys: lenientList(TflJourneySchema),
});
export type ItineraryResult = z.infer<typeof ItineraryResultSchema>;

export const DisambiguationOptionSchema = z.object({
  parameterValue: optionalText,
  uri: optionalText,
  place: optionalObject(TflPlaceSchema),
  matchQuality: optionalNumber,
});

/** One side of a disambiguation: `matchStatus` is list | identified | notidentified | empty (or absent). */
export const DisambiguationSchema = z.object({
  matchStatus: optionalText,
  disambiguationOptions: lenientList(DisambiguationOptionSchema),
});
export type Disambiguation = z.infer<typeof DisambiguationSchema>;

/** `Tfl.Api.Presentation.Entities.JourneyPlanner.DisambiguationResult` (HTTP 300, occasionally 200). */
export const DisambiguationResultSchema = z.object({
  fromLocationDisambiguation: optionalObject(DisambiguationSchema),
  toLocationDisambiguation: optionalObject(DisambiguationSchema),
  viaLocationDisambiguation: optionalObject(DisambiguationSchema),
});
export type DisambiguationResult = z.infer<typeof DisambiguationResultSchema>;

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
