// Digitransit geocoding (Pelias): a place name as a coordinate, for plan_trip labels that are not saved places.
import type { Coordinate, Language } from '@switchyard/contracts/transit';
import { assertOk, readJson, type UpstreamPolicy } from '@switchyard/resilience';
import { z } from 'zod';
import type { HslConfig, RegionBounds } from '../config.js';
import { createUpstreamGet, malformed } from '../upstream.js';
import { listOf, nonEmpty, optionalObject, optionalText, wireNumber } from '../wire.js';
import { KEY_HEADER } from './client.js';

export const GEOCODING = 'Digitransit geocoding';

const longitude = wireNumber.pipe(z.number().min(-180).max(180));
const latitude = wireNumber.pipe(z.number().min(-90).max(90));

/** A GeoJSON point feature: `[lon, lat]` (a third, altitude, value is ignored). */
const PeliasFeatureSchema = z.object({
  geometry: z.object({ coordinates: z.tuple([longitude, latitude]).rest(z.unknown()) }),
  properties: optionalObject(z.object({ name: optionalText, label: optionalText })),
});

/** A Pelias FeatureCollection (the parts read). Features without a usable point are left out. */
export const PeliasResponseSchema = z.object({ features: listOf(PeliasFeatureSchema) });

export interface GeocodedPlace {
  coordinate: Coordinate;
  name?: string;
  /** Pelias' formatted label, e.g. "Helsingfors-Vanda flygplats (Airport), Flygstationsvägen 1, Vanda". */
  address?: string;
}

export interface Geocoder {
  /** The best match inside `bounds`, or undefined when there is none. */
  search(
    textQuery: string,
    options: { language: Language; bounds: RegionBounds; signal?: AbortSignal },
  ): Promise<GeocodedPlace | undefined>;
}

/**
 * The first usable feature. Pelias always gives `name` and `label` in its own API, but not every deployment
 * or layer does: without `label` the address is left out; without `name` the label's first part names it.
 */
export function firstPlace(body: unknown): GeocodedPlace | undefined {
  const parsed = PeliasResponseSchema.safeParse(body);
  if (!parsed.success) throw malformed(GEOCODING, 'geocoding result');
  const [feature] = parsed.data.features;
  if (feature === undefined) return undefined;
  const [lon, lat] = feature.geometry.coordinates;
  const address = nonEmpty(feature.properties?.label);
  const name = nonEmpty(feature.properties?.name) ?? nonEmpty(address?.split(',')[0]);
  return { coordinate: { lat, lon }, name, address };
}

export function createGeocoder(options: { config: HslConfig; policy: UpstreamPolicy }): Geocoder {
  const { config } = options;
  const get = createUpstreamGet({
    upstream: GEOCODING,
    baseUrl: config.geocodingUrl,
    policy: options.policy,
    secretHeaders: { [KEY_HEADER]: config.subscriptionKey },
    maxResponseBytes: config.maxResponseBytes,
  });
  return {
    search(textQuery, { language, bounds, signal }) {
      return get(
        'search',
        {
          text: textQuery,
          size: 1,
          lang: language,
          'boundary.rect.min_lat': bounds.minLat,
          'boundary.rect.min_lon': bounds.minLon,
          'boundary.rect.max_lat': bounds.maxLat,
          'boundary.rect.max_lon': bounds.maxLon,
        },
        async (response) => {
          await assertOk(response, { upstream: GEOCODING });
          return firstPlace(await readJson(response, { upstream: GEOCODING }));
        },
        signal,
      );
    },
  };
}
