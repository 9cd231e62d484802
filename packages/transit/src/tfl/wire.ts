// TfL Journey Planner wire formats (the parts this server reads), parsed leniently: TfL adds fields freely
// and sends null for absent ones. Shapes follow the Unified API swagger and real captures.
import { z } from 'zod';

const text = z.string().nullish();
const num = z.number().nullish();

export const TflPlaceSchema = z.looseObject({
  commonName: text,
  placeType: text,
  lat: num,
  lon: num,
});

export const TflLegSchema = z.looseObject({
  duration: num,
  instruction: z.looseObject({ summary: text }).nullish(),
  departureTime: text,
  arrivalTime: text,
  departurePoint: TflPlaceSchema.nullish(),
  arrivalPoint: TflPlaceSchema.nullish(),
  routeOptions: z.array(z.looseObject({ name: text })).nullish(),
  mode: z.looseObject({ id: text, name: text }).nullish(),
  distance: num,
  isDisrupted: z.boolean().nullish(),
  disruptions: z.array(z.unknown()).nullish(),
});
export type TflLeg = z.infer<typeof TflLegSchema>;

export const TflJourneySchema = z.looseObject({
  startDateTime: z.string(),
  arrivalDateTime: z.string(),
  duration: z.number(),
  legs: z.array(TflLegSchema).nullish(),
  fare: z.looseObject({ totalCost: num }).nullish(),
});
export type TflJourney = z.infer<typeof TflJourneySchema>;

/** `Tfl.Api.Presentation.Entities.JourneyPlanner.ItineraryResult` */
export const ItineraryResultSchema = z.looseObject({
  journeys: z.array(TflJourneySchema),
});
export type ItineraryResult = z.infer<typeof ItineraryResultSchema>;

export const DisambiguationOptionSchema = z.looseObject({
  parameterValue: text,
  uri: text,
  place: TflPlaceSchema.nullish(),
  matchQuality: num,
});

/** One side of a disambiguation: `matchStatus` is list | identified | empty. */
export const DisambiguationSchema = z.looseObject({
  matchStatus: text,
  disambiguationOptions: z.array(DisambiguationOptionSchema).nullish(),
});
export type Disambiguation = z.infer<typeof DisambiguationSchema>;

/** `Tfl.Api.Presentation.Entities.JourneyPlanner.DisambiguationResult` (HTTP 300, occasionally 200). */
export const DisambiguationResultSchema = z.looseObject({
  fromLocationDisambiguation: DisambiguationSchema.nullish(),
  toLocationDisambiguation: DisambiguationSchema.nullish(),
  viaLocationDisambiguation: DisambiguationSchema.nullish(),
});
export type DisambiguationResult = z.infer<typeof DisambiguationResultSchema>;

/** True when a body is a DisambiguationResult rather than an ItineraryResult. */
export function isDisambiguationBody(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  const record = body as Record<string, unknown>;
  if (typeof record.$type === 'string' && record.$type.includes('DisambiguationResult')) return true;
  return (
    !Array.isArray(record.journeys) &&
    (record.fromLocationDisambiguation != null || record.toLocationDisambiguation != null)
  );
}
