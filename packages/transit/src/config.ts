import { DEFAULT_MAX_RESPONSE_BYTES, registerSecret } from '@switchyard/resilience';
import { DEFAULT_MAX_SAVED_PLACES } from './places/store.js';
import { ConfigError, resolvePostgresSettings, type PostgresSettings } from '@switchyard/server-kit/runtime';
import { z } from 'zod';
import { DATABASE_URL_VARIABLE } from './places/database.js';
import { PROVIDER_KEYS, PROVIDERS, type Provider } from './providers.js';

export { ConfigError };

export interface RegionBounds {
  minLat: number;
  minLon: number;
  maxLat: number;
  maxLon: number;
}

/**
 * The HSL area as Digitransit's own HSL configuration bounds its searches
 * (boundary.rect 59.9..60.45 N, 24.0..25.5 E): Helsinki, Espoo, Vantaa, Kauniainen, Kerava, Kirkkonummi,
 * Sipoo, Siuntio and Tuusula.
 */
export const HSL_REGION_BOUNDS: RegionBounds = { minLat: 59.9, minLon: 24.0, maxLat: 60.45, maxLon: 25.5 };

export interface TflConfig {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  /** Largest TfL response body read; a larger one is UPSTREAM_ERROR "response too large". */
  maxResponseBytes: number;
  /** planJourney calls per second before RATE_LIMIT_EXCEEDED. */
  planJourneyTps: number;
  /** TfL arrivals requests per second (answers from the cache cost none) before RATE_LIMIT_EXCEEDED. */
  arrivalsTps: number;
  /** TfL line status requests per second (answers from the cache cost none) before RATE_LIMIT_EXCEEDED. */
  lineStatusTps: number;
  /** TfL stop searches per second (answers from the cache cost none) before RATE_LIMIT_EXCEEDED. */
  stopsTps: number;
  /** The TfL answer cache: most answers kept (0: none) and most bytes (answers measured as JSON). */
  cacheMaxEntries: number;
  cacheMaxBytes: number;
}

export interface HslConfig {
  subscriptionKey: string;
  routingUrl: string;
  geocodingUrl: string;
  timeoutMs: number;
  /** Largest Digitransit (routing or geocoding) response body read; a larger one is upstream-error. */
  maxResponseBytes: number;
  regionBounds: RegionBounds;
  /**
   * Digitransit calls per second, all HSL tools and callers together, before `rate-limited` (local limiter);
   * undefined: no local limit (a self-hosted OTP, or `off`).
   */
  callsPerSecond: number | undefined;
  /** Service alerts attached to one get_departures or plan_trip answer at most (0: none, and none asked for). */
  alertsMax: number;
  /** Characters of an alert's header, description or URL at most (longer ones are cut, ending in "…"). */
  alertTextMaxChars: number;
}

export interface TransitConfig {
  providers: readonly Provider[];
  /** Present when `tfl` is enabled. */
  tfl?: TflConfig;
  /** Present when `hsl` is enabled. */
  hsl?: HslConfig;
  /** Longest total wait for retries (a Retry-After included) before answering rate-limited. */
  retryBudgetMs: number;
  /** Saved places on PostgreSQL (TRANSIT_DATABASE_URL, else SWITCHYARD_DATABASE_URL); absent: transit.sqlite. */
  database?: PostgresSettings;
  /** The most saved places one caller holds (TRANSIT_MAX_SAVED_PLACES). */
  maxSavedPlaces: number;
}

/**
 * Digitransit calls per second before the HSL tools answer rate-limited, when the endpoints are Digitransit's own
 * (api.digitransit.fi): a subscription key has a rate the gateway enforces with 429s; keeping under it locally
 * answers at once instead of spending a round trip. Any other host (a self-hosted OTP) gets no local limit.
 */
export const DEFAULT_DIGITRANSIT_CALLS_PER_SECOND = 10;
/** The hosts whose API gateway meters a subscription key. */
const DIGITRANSIT_HOSTS = new Set(['api.digitransit.fi']);

const DEFAULTS = {
  TRANSIT_PROVIDERS: 'tfl,hsl',
  TFL_API_BASE_URL: 'https://api.tfl.gov.uk',
  DIGITRANSIT_ROUTING_URL: 'https://api.digitransit.fi/routing/v2/hsl/gtfs/v1',
  DIGITRANSIT_GEOCODING_URL: 'https://api.digitransit.fi/geocoding/v1',
  TFL_TIMEOUT_MS: '10000',
  DIGITRANSIT_TIMEOUT_MS: '8000',
  TFL_MAX_RESPONSE_BYTES: String(DEFAULT_MAX_RESPONSE_BYTES),
  DIGITRANSIT_MAX_RESPONSE_BYTES: String(DEFAULT_MAX_RESPONSE_BYTES),
  PLAN_JOURNEY_TPS: '5',
  LONDON_ARRIVALS_TPS: '5',
  LINE_STATUS_TPS: '5',
  LONDON_STOPS_TPS: '5',
  TFL_CACHE_MAX_ENTRIES: '500',
  TFL_CACHE_MAX_BYTES: String(8 * 1024 * 1024),
  DIGITRANSIT_CALLS_PER_SECOND: 'auto',
  HSL_ALERTS_MAX: '5',
  HSL_ALERT_TEXT_MAX_CHARS: '600',
  TRANSIT_RETRY_BUDGET_MS: '3000',
  TRANSIT_MAX_SAVED_PLACES: String(DEFAULT_MAX_SAVED_PLACES),
} as const;

/** The most a response-size setting may allow: 1 GiB (one answer buffered in memory at most this big). */
const MAX_RESPONSE_BYTES_CEILING = 1024 * 1024 * 1024;

type Env = Readonly<Record<string, string | undefined>>;

function read(env: Env, name: keyof typeof DEFAULTS): string {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? DEFAULTS[name] : value;
}

function parseWith<T>(schema: z.ZodType<T>, variable: string, raw: string, expectation: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(variable, `${expectation} (got "${raw}")`);
  return parsed.data;
}

const httpUrl = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ''));

function url(env: Env, name: keyof typeof DEFAULTS): string {
  return parseWith(httpUrl, name, read(env, name), 'must be an http(s) URL');
}

function integer(env: Env, name: keyof typeof DEFAULTS, max: number, min = 1): number {
  return parseWith(
    z.coerce.number().int().min(min).max(max),
    name,
    read(env, name),
    `must be a whole number from ${min} to ${max}`,
  );
}

/** `auto` (the default): the Digitransit default for Digitransit's hosts, none for others; `off`; or a number. */
function digitransitCallsPerSecond(env: Env): number | undefined {
  const raw = read(env, 'DIGITRANSIT_CALLS_PER_SECOND').toLowerCase();
  if (raw === 'off') return undefined;
  if (raw !== 'auto') return integer(env, 'DIGITRANSIT_CALLS_PER_SECOND', 10_000);
  const hosts = [url(env, 'DIGITRANSIT_ROUTING_URL'), url(env, 'DIGITRANSIT_GEOCODING_URL')].map(
    (endpoint) => new URL(endpoint).hostname,
  );
  return hosts.some((host) => DIGITRANSIT_HOSTS.has(host)) ? DEFAULT_DIGITRANSIT_CALLS_PER_SECOND : undefined;
}

function providers(env: Env): Provider[] {
  const raw = read(env, 'TRANSIT_PROVIDERS');
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(PROVIDERS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new ConfigError(
      'TRANSIT_PROVIDERS',
      `must be a comma-separated list of ${PROVIDERS.join(', ')} (got "${raw}")`,
    );
  }
  return [...new Set(names)] as Provider[];
}

function keyOf(env: Env, provider: Provider): string | undefined {
  return env[PROVIDER_KEYS[provider]]?.trim() || undefined;
}

/**
 * Every enabled provider's key must be set: one message names all that are missing (not the first, then the
 * next on the following start) and the TRANSIT_PROVIDERS that would do without them. The error's `variable`
 * is one variable's name, as in every ConfigError: the first missing key; the message names the others.
 */
function requireKeys(env: Env, enabled: readonly Provider[]): void {
  const missing = enabled.filter((provider) => keyOf(env, provider) === undefined);
  const [first, ...others] = missing;
  if (first === undefined) return;
  const keyed = enabled.filter((provider) => !missing.includes(provider));
  const one = others.length === 0;
  const andOthers = others
    .map((provider) => `, and ${PROVIDER_KEYS[provider]} when "${provider}" is`)
    .join('');
  const instead =
    keyed.length > 0
      ? `TRANSIT_PROVIDERS=${keyed.join(',')} to go without ${one ? 'it' : 'them'}`
      : `TRANSIT_PROVIDERS to the providers whose keys you have (${PROVIDERS.join(', ')})`;
  throw new ConfigError(
    PROVIDER_KEYS[first],
    `is required when the "${first}" provider is enabled${andOthers}; set ${one ? 'it' : 'them'}, ` +
      `or set ${instead}`,
  );
}

/** A provider's key, checked by requireKeys, registered so that no log line or error can show it. */
function secret(env: Env, provider: Provider): string {
  const value = keyOf(env, provider) ?? '';
  registerSecret(value);
  return value;
}

function regionBounds(env: Env): RegionBounds {
  const raw = env.TRANSIT_REGION_BOUNDS?.trim();
  if (raw === undefined || raw === '') return HSL_REGION_BOUNDS;
  const numbers = raw.split(',').map((part) => Number(part.trim()));
  const [minLat, minLon, maxLat, maxLon] = numbers;
  const valid =
    numbers.length === 4 &&
    numbers.every(Number.isFinite) &&
    minLat !== undefined &&
    minLon !== undefined &&
    maxLat !== undefined &&
    maxLon !== undefined &&
    minLat >= -90 &&
    maxLat <= 90 &&
    minLon >= -180 &&
    maxLon <= 180 &&
    minLat < maxLat &&
    minLon < maxLon;
  if (!valid) {
    throw new ConfigError(
      'TRANSIT_REGION_BOUNDS',
      `must be "minLat,minLon,maxLat,maxLon" with min < max, e.g. 59.9,24.0,60.45,25.5 (got "${raw}")`,
    );
  }
  return { minLat: minLat!, minLon: minLon!, maxLat: maxLat!, maxLon: maxLon! };
}

/**
 * Reads the transit configuration from the environment (the table, plus the package's own bounds)
 * and registers the keys as secrets so that no log line or error can show them. Throws ConfigError naming
 * the variable.
 */
export function loadConfig(env: Env = process.env): TransitConfig {
  const enabled = providers(env);
  requireKeys(env, enabled);
  const config: TransitConfig = {
    providers: enabled,
    retryBudgetMs: integer(env, 'TRANSIT_RETRY_BUDGET_MS', 600_000, 0),
    maxSavedPlaces: integer(env, 'TRANSIT_MAX_SAVED_PLACES', 1_000_000),
  };
  const database = resolvePostgresSettings(env, DATABASE_URL_VARIABLE);
  if (database !== undefined) config.database = database;
  if (enabled.includes('tfl')) {
    config.tfl = {
      apiKey: secret(env, 'tfl'),
      baseUrl: url(env, 'TFL_API_BASE_URL'),
      timeoutMs: integer(env, 'TFL_TIMEOUT_MS', 600_000),
      maxResponseBytes: integer(env, 'TFL_MAX_RESPONSE_BYTES', MAX_RESPONSE_BYTES_CEILING, 1024),
      planJourneyTps: integer(env, 'PLAN_JOURNEY_TPS', 10_000),
      arrivalsTps: integer(env, 'LONDON_ARRIVALS_TPS', 10_000),
      lineStatusTps: integer(env, 'LINE_STATUS_TPS', 10_000),
      stopsTps: integer(env, 'LONDON_STOPS_TPS', 10_000),
      cacheMaxEntries: integer(env, 'TFL_CACHE_MAX_ENTRIES', 100_000, 0),
      cacheMaxBytes: integer(env, 'TFL_CACHE_MAX_BYTES', MAX_RESPONSE_BYTES_CEILING, 0),
    };
  }
  if (enabled.includes('hsl')) {
    config.hsl = {
      subscriptionKey: secret(env, 'hsl'),
      routingUrl: url(env, 'DIGITRANSIT_ROUTING_URL'),
      geocodingUrl: url(env, 'DIGITRANSIT_GEOCODING_URL'),
      timeoutMs: integer(env, 'DIGITRANSIT_TIMEOUT_MS', 600_000),
      maxResponseBytes: integer(env, 'DIGITRANSIT_MAX_RESPONSE_BYTES', MAX_RESPONSE_BYTES_CEILING, 1024),
      regionBounds: regionBounds(env),
      callsPerSecond: digitransitCallsPerSecond(env),
      alertsMax: integer(env, 'HSL_ALERTS_MAX', 50, 0),
      alertTextMaxChars: integer(env, 'HSL_ALERT_TEXT_MAX_CHARS', 10_000, 40),
    };
  }
  return config;
}
