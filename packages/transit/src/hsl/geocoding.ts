// Digitransit geocoding (Pelias): a place name as a coordinate, for plan_trip labels that are not saved places.
import type { Coordinate, Language } from '@switchyard/contracts/transit';
import {
  assertOk,
  createUpstreamKy,
  createUpstreamPolicy,
  readJson,
  type PolicyLogger,
  type UpstreamPolicy,
} from '@switchyard/resilience';
import { z } from 'zod';
import type { HslConfig, RegionBounds } from '../config.js';
import { KEY_HEADER, malformed } from './client.js';

export const GEOCODING = 'Digitransit geocoding';

const text = z.string().nullish();

/** A Pelias FeatureCollection (the parts read): coordinates are [lon, lat]. */
export const PeliasResponseSchema = z.looseObject({
  features: z.array(
    z.looseObject({
      geometry: z.looseObject({ coordinates: z.array(z.number()).min(2) }),
      properties: z.looseObject({ name: text, label: text, layer: text, id: text }).nullish(),
    }),
  ),
});

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

export function firstPlace(body: unknown): GeocodedPlace | undefined {
  const parsed = PeliasResponseSchema.safeParse(body);
  if (!parsed.success) throw malformed(GEOCODING, 'geocoding result');
  const feature = parsed.data.features[0];
  if (feature === undefined) return undefined;
  const [lon, lat] = feature.geometry.coordinates as [number, number];
  const name = feature.properties?.name?.trim();
  const address = feature.properties?.label?.trim();
  return {
    coordinate: { lat, lon },
    ...(name ? { name } : {}),
    ...(address ? { address } : {}),
  };
}

export function createGeocoder(options: {
  config: HslConfig;
  retryBudgetMs: number;
  logger?: PolicyLogger;
  policy?: UpstreamPolicy;
}): Geocoder {
  const { config } = options;
  const http = createUpstreamKy({
    upstream: GEOCODING,
    baseUrl: config.geocodingUrl,
    secretHeaders: { [KEY_HEADER]: config.subscriptionKey },
    headers: { accept: 'application/json' },
  });
  const policy =
    options.policy ??
    createUpstreamPolicy({
      upstream: GEOCODING,
      timeoutMs: config.timeoutMs,
      retryBudgetMs: options.retryBudgetMs,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
  return {
    search(textQuery, { language, bounds, signal }) {
      return policy.execute(
        async (attemptSignal) => {
          const response = await http.get('search', {
            signal: attemptSignal,
            searchParams: {
              text: textQuery,
              size: 1,
              lang: language,
              'boundary.rect.min_lat': bounds.minLat,
              'boundary.rect.min_lon': bounds.minLon,
              'boundary.rect.max_lat': bounds.maxLat,
              'boundary.rect.max_lon': bounds.maxLon,
            },
          });
          await assertOk(response, { upstream: GEOCODING });
          return firstPlace(await readJson(response, { upstream: GEOCODING }));
        },
        { idempotent: true, ...(signal === undefined ? {} : { signal }) },
      );
    },
  };
}
