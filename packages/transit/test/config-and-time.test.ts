import { REDACTION_MARK, redactSecrets } from '@switchyard/resilience';
import { describe, expect, it } from 'vitest';
import { ConfigError, HSL_REGION_BOUNDS, loadConfig } from '../src/config.js';
import { formatUtc, formatZoned, londonLocalToIso, zonedLocalToEpochMs } from '../src/time.js';

const KEYS = { TFL_API_KEY: 'cfg-tfl-key-0001', DIGITRANSIT_SUBSCRIPTION_KEY: 'cfg-dt-key-0002' };

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the defaults of the issue table', () => {
    const config = loadConfig(KEYS);
    expect(config).toEqual({
      providers: ['tfl', 'hsl'],
      retryBudgetMs: 3000,
      maxSavedPlaces: 1000,
      tfl: {
        apiKey: KEYS.TFL_API_KEY,
        baseUrl: 'https://api.tfl.gov.uk',
        timeoutMs: 10_000,
        maxResponseBytes: 8 * 1024 * 1024,
        planJourneyTps: 5,
        arrivalsTps: 5,
        lineStatusTps: 5,
        stopsTps: 5,
        cacheMaxEntries: 500,
        cacheMaxBytes: 8 * 1024 * 1024,
      },
      hsl: {
        subscriptionKey: KEYS.DIGITRANSIT_SUBSCRIPTION_KEY,
        routingUrl: 'https://api.digitransit.fi/routing/v2/hsl/gtfs/v1',
        geocodingUrl: 'https://api.digitransit.fi/geocoding/v1',
        timeoutMs: 8000,
        maxResponseBytes: 8 * 1024 * 1024,
        regionBounds: HSL_REGION_BOUNDS,
        callsPerSecond: 10,
        alertsMax: 5,
        alertTextMaxChars: 600,
      },
    });
  });

  it('registers the keys as secrets', () => {
    loadConfig(KEYS);
    expect(redactSecrets(`key=${KEYS.TFL_API_KEY} and ${KEYS.DIGITRANSIT_SUBSCRIPTION_KEY}`)).toBe(
      `key=${REDACTION_MARK} and ${REDACTION_MARK}`,
    );
  });

  it('requires each enabled provider’s key, naming the variable', () => {
    expect(configError({ DIGITRANSIT_SUBSCRIPTION_KEY: 'x1234' }).variable).toBe('TFL_API_KEY');
    expect(configError({ TFL_API_KEY: 'x1234' }).message).toMatch(
      /^DIGITRANSIT_SUBSCRIPTION_KEY: is required/,
    );
    expect(
      loadConfig({ TRANSIT_PROVIDERS: 'hsl', DIGITRANSIT_SUBSCRIPTION_KEY: 'x1234' }).tfl,
    ).toBeUndefined();
    expect(loadConfig({ TRANSIT_PROVIDERS: 'tfl', TFL_API_KEY: 'x1234' }).hsl).toBeUndefined();
  });

  it('names every missing key in one message, and the TRANSIT_PROVIDERS that does without them', () => {
    const neither = configError({});
    expect(neither.message).toBe(
      'TFL_API_KEY: is required when the "tfl" provider is enabled, and DIGITRANSIT_SUBSCRIPTION_KEY when ' +
        '"hsl" is; set them, or set TRANSIT_PROVIDERS to the providers whose keys you have (tfl, hsl)',
    );
    // `variable` is one variable's name, as its readers expect: the first missing key.
    expect(neither.variable).toBe('TFL_API_KEY');
    expect(configError({ TFL_API_KEY: 'x1234', DIGITRANSIT_SUBSCRIPTION_KEY: ' ' }).message).toBe(
      'DIGITRANSIT_SUBSCRIPTION_KEY: is required when the "hsl" provider is enabled; set it, or set ' +
        'TRANSIT_PROVIDERS=tfl to go without it',
    );
  });

  it.each([
    [{ TRANSIT_PROVIDERS: 'tfl,mta' }, 'TRANSIT_PROVIDERS'],
    [{ TRANSIT_PROVIDERS: ' , ' }, 'TRANSIT_PROVIDERS'],
    [{ TFL_TIMEOUT_MS: 'soon' }, 'TFL_TIMEOUT_MS'],
    [{ DIGITRANSIT_TIMEOUT_MS: '0' }, 'DIGITRANSIT_TIMEOUT_MS'],
    [{ PLAN_JOURNEY_TPS: '2.5' }, 'PLAN_JOURNEY_TPS'],
    [{ DIGITRANSIT_CALLS_PER_SECOND: '0' }, 'DIGITRANSIT_CALLS_PER_SECOND'],
    [{ DIGITRANSIT_CALLS_PER_SECOND: '10001' }, 'DIGITRANSIT_CALLS_PER_SECOND'],
    [{ DIGITRANSIT_CALLS_PER_SECOND: 'unlimited' }, 'DIGITRANSIT_CALLS_PER_SECOND'],
    [{ TRANSIT_RETRY_BUDGET_MS: '-1' }, 'TRANSIT_RETRY_BUDGET_MS'],
    [{ TRANSIT_MAX_SAVED_PLACES: '0' }, 'TRANSIT_MAX_SAVED_PLACES'],
    [{ TRANSIT_MAX_SAVED_PLACES: '1000001' }, 'TRANSIT_MAX_SAVED_PLACES'],
    [{ TFL_API_BASE_URL: 'ftp://x' }, 'TFL_API_BASE_URL'],
    [{ DIGITRANSIT_ROUTING_URL: 'not a url' }, 'DIGITRANSIT_ROUTING_URL'],
    [{ TRANSIT_REGION_BOUNDS: '60,24,59,25' }, 'TRANSIT_REGION_BOUNDS'],
    [{ TRANSIT_REGION_BOUNDS: '1,2,3' }, 'TRANSIT_REGION_BOUNDS'],
    [{ TFL_MAX_RESPONSE_BYTES: '8MiB' }, 'TFL_MAX_RESPONSE_BYTES'],
    [{ TFL_MAX_RESPONSE_BYTES: '1023' }, 'TFL_MAX_RESPONSE_BYTES'],
    [{ DIGITRANSIT_MAX_RESPONSE_BYTES: String(2 ** 30 + 1) }, 'DIGITRANSIT_MAX_RESPONSE_BYTES'],
    [{ HSL_ALERTS_MAX: '51' }, 'HSL_ALERTS_MAX'],
    [{ HSL_ALERTS_MAX: '-1' }, 'HSL_ALERTS_MAX'],
    [{ HSL_ALERT_TEXT_MAX_CHARS: '39' }, 'HSL_ALERT_TEXT_MAX_CHARS'],
    [{ LONDON_ARRIVALS_TPS: '10001' }, 'LONDON_ARRIVALS_TPS'],
    [{ LINE_STATUS_TPS: '0' }, 'LINE_STATUS_TPS'],
    [{ LINE_STATUS_TPS: '10001' }, 'LINE_STATUS_TPS'],
    [{ LONDON_STOPS_TPS: '0' }, 'LONDON_STOPS_TPS'],
    [{ LONDON_STOPS_TPS: '10001' }, 'LONDON_STOPS_TPS'],
    [{ TFL_CACHE_MAX_ENTRIES: '100001' }, 'TFL_CACHE_MAX_ENTRIES'],
    [{ TFL_CACHE_MAX_BYTES: String(2 ** 30 + 1) }, 'TFL_CACHE_MAX_BYTES'],
    [{ TFL_MAX_RESPONSE_BYTES: String(2 ** 30 + 1) }, 'TFL_MAX_RESPONSE_BYTES'],
    [{ DIGITRANSIT_MAX_RESPONSE_BYTES: '1023' }, 'DIGITRANSIT_MAX_RESPONSE_BYTES'],
    [{ HSL_ALERT_TEXT_MAX_CHARS: '10001' }, 'HSL_ALERT_TEXT_MAX_CHARS'],
    [{ TRANSIT_REGION_BOUNDS: '60,24,60,25' }, 'TRANSIT_REGION_BOUNDS'],
    [{ TRANSIT_REGION_BOUNDS: '59,25,60,25' }, 'TRANSIT_REGION_BOUNDS'],
    [{ TRANSIT_REGION_BOUNDS: '-90.5,24,60,25' }, 'TRANSIT_REGION_BOUNDS'],
    [{ TRANSIT_REGION_BOUNDS: '59,24,90.5,25' }, 'TRANSIT_REGION_BOUNDS'],
    [{ TRANSIT_REGION_BOUNDS: '59,-180.5,60,25' }, 'TRANSIT_REGION_BOUNDS'],
    [{ TRANSIT_REGION_BOUNDS: '59,24,60,180.5' }, 'TRANSIT_REGION_BOUNDS'],
  ])('%j fails naming %s', (env, variable) => {
    const error = configError({ ...KEYS, ...env });
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable}:`)).toBe(true);
  });

  it('accepts each range at both ends', () => {
    const low = loadConfig({
      ...KEYS,
      LONDON_ARRIVALS_TPS: '1',
      LINE_STATUS_TPS: '1',
      LONDON_STOPS_TPS: '1',
      TFL_CACHE_MAX_BYTES: '0',
      TFL_MAX_RESPONSE_BYTES: '1024',
      DIGITRANSIT_MAX_RESPONSE_BYTES: '1024',
      HSL_ALERTS_MAX: '0',
      HSL_ALERT_TEXT_MAX_CHARS: '40',
      TRANSIT_REGION_BOUNDS: '-90,-180,90,180',
    });
    expect(low.tfl).toMatchObject({
      arrivalsTps: 1,
      lineStatusTps: 1,
      stopsTps: 1,
      cacheMaxBytes: 0,
      maxResponseBytes: 1024,
    });
    expect(low.hsl).toMatchObject({ maxResponseBytes: 1024, alertsMax: 0, alertTextMaxChars: 40 });
    expect(low.hsl?.regionBounds).toEqual({ minLat: -90, minLon: -180, maxLat: 90, maxLon: 180 });
    const high = loadConfig({
      ...KEYS,
      LONDON_ARRIVALS_TPS: '10000',
      LINE_STATUS_TPS: '10000',
      LONDON_STOPS_TPS: '10000',
      TFL_CACHE_MAX_ENTRIES: '100000',
      TFL_CACHE_MAX_BYTES: String(2 ** 30),
      TFL_MAX_RESPONSE_BYTES: String(2 ** 30),
      DIGITRANSIT_MAX_RESPONSE_BYTES: String(2 ** 30),
      DIGITRANSIT_CALLS_PER_SECOND: '10000',
      HSL_ALERTS_MAX: '50',
      HSL_ALERT_TEXT_MAX_CHARS: '10000',
    });
    expect(high.tfl).toMatchObject({
      arrivalsTps: 10_000,
      lineStatusTps: 10_000,
      stopsTps: 10_000,
      cacheMaxEntries: 100_000,
      cacheMaxBytes: 2 ** 30,
      maxResponseBytes: 2 ** 30,
    });
    expect(high.hsl).toMatchObject({
      maxResponseBytes: 2 ** 30,
      callsPerSecond: 10_000,
      alertsMax: 50,
      alertTextMaxChars: 10_000,
    });
  });

  it('limits Digitransit calls by default only on its own hosts; `off` or a number say otherwise', () => {
    expect(loadConfig(KEYS).hsl?.callsPerSecond).toBe(10);
    const selfHosted = { ...KEYS, DIGITRANSIT_ROUTING_URL: 'http://otp.internal:8080/otp/gtfs/v1' };
    const geocoding = { DIGITRANSIT_GEOCODING_URL: 'http://pelias.internal:4000/v1' };
    expect(loadConfig({ ...selfHosted, ...geocoding }).hsl?.callsPerSecond).toBeUndefined();
    expect(
      loadConfig({ ...selfHosted, ...geocoding, DIGITRANSIT_CALLS_PER_SECOND: 'auto' }).hsl?.callsPerSecond,
    ).toBeUndefined();
    // One endpoint still on Digitransit's gateway meters the key.
    expect(loadConfig(selfHosted).hsl?.callsPerSecond).toBe(10);
    expect(loadConfig({ ...KEYS, DIGITRANSIT_CALLS_PER_SECOND: 'off' }).hsl?.callsPerSecond).toBeUndefined();
    expect(
      loadConfig({ ...selfHosted, ...geocoding, DIGITRANSIT_CALLS_PER_SECOND: '40' }).hsl?.callsPerSecond,
    ).toBe(40);
  });

  it('reads bounds, URLs (trailing slash dropped) and numbers', () => {
    const config = loadConfig({
      ...KEYS,
      TRANSIT_REGION_BOUNDS: '60.0, 24.5, 60.3, 25.2',
      TFL_API_BASE_URL: 'http://127.0.0.1:9999/',
      TRANSIT_RETRY_BUDGET_MS: '0',
      TFL_MAX_RESPONSE_BYTES: '1048576',
      DIGITRANSIT_MAX_RESPONSE_BYTES: '2097152',
      DIGITRANSIT_CALLS_PER_SECOND: '25',
    });
    expect(config.hsl?.callsPerSecond).toBe(25);
    expect(config.tfl?.maxResponseBytes).toBe(1_048_576);
    expect(config.hsl?.maxResponseBytes).toBe(2_097_152);
    expect(config.hsl?.regionBounds).toEqual({ minLat: 60, minLon: 24.5, maxLat: 60.3, maxLon: 25.2 });
    expect(config.tfl?.baseUrl).toBe('http://127.0.0.1:9999');
    expect(config.retryBudgetMs).toBe(0);
  });

  it('reads the TfL answer cache bounds and the arrivals rate (0 entries turns the cache off), naming a bad one', () => {
    const config = loadConfig({
      ...KEYS,
      TFL_CACHE_MAX_ENTRIES: '0',
      TFL_CACHE_MAX_BYTES: '65536',
      LONDON_ARRIVALS_TPS: '20',
    });
    expect(config.tfl).toMatchObject({ cacheMaxEntries: 0, cacheMaxBytes: 65_536, arrivalsTps: 20 });
    expect(() => loadConfig({ ...KEYS, TFL_CACHE_MAX_ENTRIES: '-1' })).toThrow(/^TFL_CACHE_MAX_ENTRIES: /);
    expect(() => loadConfig({ ...KEYS, TFL_CACHE_MAX_BYTES: 'lots' })).toThrow(/^TFL_CACHE_MAX_BYTES: /);
    expect(() => loadConfig({ ...KEYS, LONDON_ARRIVALS_TPS: '0' })).toThrow(/^LONDON_ARRIVALS_TPS: /);
  });
});

describe('London local time', () => {
  it('uses GMT in winter and BST in summer', () => {
    expect(londonLocalToIso('2025-01-15T08:00:00')).toBe('2025-01-15T08:00:00+00:00');
    expect(londonLocalToIso('2025-07-15T08:00:00')).toBe('2025-07-15T08:00:00+01:00');
  });

  it('when clocks go back, a repeated time is the earlier instant', () => {
    expect(londonLocalToIso('2025-10-26T01:30:00')).toBe('2025-10-26T01:30:00+01:00');
    expect(zonedLocalToEpochMs('2025-10-26T01:30:00', 'Europe/London')).toBe(
      Date.parse('2025-10-26T00:30:00Z'),
    );
  });

  it('when clocks go forward, a skipped time is read with the offset before the change', () => {
    expect(zonedLocalToEpochMs('2025-03-30T01:30:00', 'Europe/London')).toBe(
      Date.parse('2025-03-30T01:30:00Z'),
    );
    expect(londonLocalToIso('2025-03-30T01:30:00')).toBe('2025-03-30T02:30:00+01:00');
  });

  it('rejects what is not a date-time, or not a day of the calendar', () => {
    expect(londonLocalToIso('yesterday')).toBeUndefined();
    expect(londonLocalToIso('2025-02-30T08:00:00')).toBeUndefined();
    expect(londonLocalToIso('2025-01-15T24:00:00')).toBeUndefined();
    // Minutes and seconds past 59 would roll over within the same hour, or into the next one.
    expect(londonLocalToIso('2025-01-15T08:30:75')).toBeUndefined();
    expect(londonLocalToIso('2025-01-15T08:60:00')).toBeUndefined();
    expect(londonLocalToIso('0050-01-15T08:00:00')).toBeUndefined(); // Date reads years below 100 as 19xx
    expect(londonLocalToIso('2025-01-15T08:00:00+25:00')).toBeUndefined();
  });

  it('reads a time that already carries Z or an offset as the instant it names', () => {
    expect(londonLocalToIso('2025-01-15T08:00:00Z')).toBe('2025-01-15T08:00:00+00:00');
    expect(londonLocalToIso('2025-07-15T09:00:00+02:00')).toBe('2025-07-15T08:00:00+01:00');
    expect(londonLocalToIso('2025-07-15T08:00:00.000')).toBe('2025-07-15T08:00:00+01:00');
  });

  it('keeps the earlier instant for a repeated time in zones with half-hour changes too', () => {
    // Lord Howe Island goes back 30 minutes at 02:00 on 2025-04-06: 01:45 happens twice.
    expect(zonedLocalToEpochMs('2025-04-06T01:45:00', 'Australia/Lord_Howe')).toBe(
      Date.parse('2025-04-05T14:45:00Z'),
    );
  });

  it('agrees with Intl every 53 minutes over two years, in zones with whole, half and quarter-hour offsets', () => {
    for (const timeZone of ['Europe/London', 'Australia/Lord_Howe', 'America/St_Johns', 'Asia/Kathmandu']) {
      const reference = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'longOffset',
      });
      for (
        let epoch = Date.parse('2024-01-01T00:07:00Z');
        epoch < Date.parse('2026-01-01T00:00:00Z');
        epoch += 53 * 60_000
      ) {
        const part = Object.fromEntries(
          reference.formatToParts(epoch).map(({ type, value }) => [type, value]),
        );
        const offset = part.timeZoneName === 'GMT' ? '+00:00' : part.timeZoneName!.slice(3);
        const expected = `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}${offset}`;
        const formatted = formatZoned(epoch, timeZone);
        expect(formatted).toBe(expected);
        // Back from the wall clock: the same instant, or the earlier one when that wall-clock time repeats.
        const back = zonedLocalToEpochMs(formatted.slice(0, 19), timeZone)!;
        expect(back).toBeLessThanOrEqual(epoch);
        expect(formatZoned(back, timeZone).slice(0, 19)).toBe(formatted.slice(0, 19));
      }
    }
  });

  it('formats other zones with their offset', () => {
    expect(formatZoned(Date.parse('2025-07-01T09:00:00Z'), 'Europe/Helsinki')).toBe(
      '2025-07-01T12:00:00+03:00',
    );
    expect(formatZoned(Date.parse('2025-07-01T09:00:00Z'), 'America/St_Johns')).toBe(
      '2025-07-01T06:30:00-02:30',
    );
  });
});

describe('UTC instants (formatUtc)', () => {
  /** What formatUtc wrote through Date: toISOString to the second. */
  const throughDate = (ms: number) =>
    new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

  it('writes what Date writes, to the second, on leap days, at year and century ends and at random', () => {
    const instants = [0, 999, 951_782_400_000, 4_107_542_399_999, 253_402_300_799_999];
    for (const year of [1970, 1999, 2000, 2024, 2100, 2400, 9999])
      for (const month of [0, 1, 2, 11])
        for (const day of [1, 28, 29, 30, 31])
          instants.push(Date.UTC(year, month, day), Date.UTC(year, month, day, 23, 59, 59, 999));
    let seed = 40;
    for (let i = 0; i < 20_000; i += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      instants.push((seed / 2_147_483_648) * 253_402_300_800_000);
    }
    for (const ms of instants) expect(formatUtc(ms)).toBe(throughDate(ms));
    expect(formatUtc(Date.parse('2025-09-15T10:05:00.750Z'))).toBe('2025-09-15T10:05:00Z');
  });

  it('before 1970 and after 9999 as Date writes them; NaN is a RangeError', () => {
    for (const ms of [-1, -86_400_001, 253_402_300_800_000, 8.64e15])
      expect(formatUtc(ms)).toBe(throughDate(ms));
    expect(() => formatUtc(Number.NaN)).toThrow(RangeError);
  });
});
