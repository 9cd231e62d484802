import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  distanceMeters,
  GetDeparturesInputSchema,
  GetDeparturesOutputSchema,
  HslErrorPayloadSchema,
  PlanJourneyInputSchema,
  PlanJourneyOutputSchema,
  PlanTripInputSchema,
  PlanTripOutputSchema,
  FindStopsInputSchema,
  SaveUserVariableInputSchema,
  DeleteUserVariableInputSchema,
  GetUserVariablesInputSchema,
  TRANSIT_TOOL_SCHEMAS,
  sameCoordinates,
} from '../src/transit/index.js';

/** The paths of the issues a failed parse reports, as `a.b[0].c` strings. */
function issuePaths(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) =>
    issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.'),
  );
}

function expectRejectedAt(schema: z.ZodType, value: unknown, path: string): void {
  expect(schema.safeParse(value).success).toBe(false);
  expect(issuePaths(schema, value)).toContain(path);
}

/**
 * The seeds' examples use placeholders where a real value would be: `"uuid"` for a correlation id and
 * `"sha1:..."` for a fingerprint. The schemas check the real formats (a UUID, sha1: + 40 hex digits), so the
 * examples are parsed with those placeholders replaced by values of the real format, and nothing else changed.
 */
const PLACEHOLDERS: Record<string, string> = {
  uuid: '6f1c2f0e-8f5b-4d7e-9a43-3c1f0b2d9e11',
  'sha1:...': `sha1:${'a'.repeat(40)}`,
};
function fillPlaceholders(value: unknown): unknown {
  if (typeof value === 'string') return PLACEHOLDERS[value] ?? value;
  if (Array.isArray(value)) return value.map(fillPlaceholders);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillPlaceholders(v)]));
  }
  return value;
}

/** A view of a schema where every object field, at every depth, is optional (zod 4 has no deepPartial). */
function deepPartial(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => [
        k,
        deepPartial(v).optional(),
      ]),
    );
    return z.object(shape);
  }
  if (schema instanceof z.ZodArray) return z.array(deepPartial(schema.element as z.ZodType));
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    return deepPartial(schema.unwrap() as z.ZodType).optional();
  }
  return schema;
}

// Seed 001 (get_departures) examples.
const departuresRequest = {
  stop: { type: 'id', value: 'HSL:1234' },
  windowMinutes: 20,
  limit: 5,
};
const departuresSuccess = {
  stopId: 'HSL:1234',
  departures: [
    {
      line: '7',
      mode: 'TRAM',
      scheduledTime: '2025-09-15T10:05:00Z',
      realtimeTime: '2025-09-15T10:06:00Z',
      delaySeconds: 60,
      status: 'delayed',
    },
  ],
  realtimeUsed: true,
  dataFreshness: '2025-09-15T10:00:30Z',
  correlationId: 'uuid',
};
const departuresValidationError = {
  error: { code: 'validation-error', message: 'stop id missing', correlationId: 'uuid' },
};

// Seed 003 (plan_trip) examples.
const planTripRequest = {
  origin: { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } },
  destination: { type: 'coords', value: { lat: 60.2055, lon: 24.6559 } },
  when: { type: 'depart', time: 'now' },
  constraints: { optimize: 'balanced', maxWalkingDistance: 1800 },
  limit: 2,
};
/** Marked "(abridged)" by the seed: parsed against the deep-partial view (every shown field is checked). */
const planTripSuccessAbridged = {
  origin: { coordinate: { lat: 60.1699, lon: 24.9384 } },
  destination: { coordinate: { lat: 60.2055, lon: 24.6559 } },
  itineraries: [
    {
      legs: [{ mode: 'TRAM', from: { name: 'Central' }, to: { name: 'Stop X' }, status: 'on_time' }],
      scheduleType: 'realtime',
      fingerprint: 'sha1:...',
    },
  ],
  realtimeUsed: 'realtime',
  dataFreshness: '2025-09-15T10:00:00Z',
  correlationId: 'uuid',
};
const planTripValidationError = {
  error: { code: 'validation-error', message: 'origin and destination must differ', correlationId: 'uuid' },
};
const planTripNoItinerary = {
  error: {
    code: 'no-itinerary-found',
    message: 'No itineraries for given constraints',
    hint: 'Try increasing maxWalkingDistance or adjusting departure time',
    correlationId: 'uuid',
  },
};

describe('seed examples', () => {
  it('get_departures request parses, keeping the given values', () => {
    const parsed = GetDeparturesInputSchema.parse(departuresRequest);
    expect(parsed).toEqual({ ...departuresRequest, language: 'en' });
  });

  it('get_departures success response: only the omitted `destination` fails (the seed schema requires it)', () => {
    // The seed's Departure schema lists `destination: string` without `?`, but its example omits it. The
    // schema is binding, so the example is checked to fail on exactly that field and to pass once it is there.
    const filled = fillPlaceholders(departuresSuccess);
    expect(issuePaths(GetDeparturesOutputSchema, filled)).toEqual(['departures.[0].destination']);
    const withDestination = structuredClone(filled) as typeof departuresSuccess;
    (withDestination.departures[0] as Record<string, unknown>).destination = 'Katajanokka';
    expect(GetDeparturesOutputSchema.safeParse(withDestination).success).toBe(true);
  });

  it('get_departures and plan_trip error responses parse as HSL error payloads', () => {
    for (const example of [departuresValidationError, planTripValidationError, planTripNoItinerary]) {
      expect(HslErrorPayloadSchema.safeParse(fillPlaceholders(example)).success).toBe(true);
    }
  });

  it('plan_trip request parses, with the seed defaults filled in', () => {
    const parsed = PlanTripInputSchema.parse(planTripRequest);
    expect(parsed.constraints).toEqual({
      optimize: 'balanced',
      maxWalkingDistance: 1800,
      maxTransfers: 4,
      accessibility: { stepFree: false, lowWalkingDistance: false },
      language: 'en',
    });
    expect(parsed.includeDisruptionAlt).toBe(true);
    expect(parsed.when).toEqual({ type: 'depart', time: 'now' });
  });

  it('plan_trip abridged success parses against the deep-partial view, and is rejected as a full payload', () => {
    const filled = fillPlaceholders(planTripSuccessAbridged);
    expect(deepPartial(PlanTripOutputSchema).safeParse(filled).success).toBe(true);
    expect(PlanTripOutputSchema.safeParse(filled).success).toBe(false);
    // The deep-partial view still checks the values shown: a wrong status is caught.
    const wrong = structuredClone(filled) as typeof planTripSuccessAbridged;
    wrong.itineraries[0]!.legs[0]!.status = 'late';
    expect(deepPartial(PlanTripOutputSchema).safeParse(wrong).success).toBe(false);
  });
});

describe('get_departures input', () => {
  const base = { stop: { type: 'id', value: 'HSL:1040129' } };

  it('applies the defaults windowMinutes 30, limit 10, language en', () => {
    expect(GetDeparturesInputSchema.parse(base)).toEqual({
      ...base,
      windowMinutes: 30,
      limit: 10,
      language: 'en',
    });
  });

  it.each([
    ['windowMinutes', 0, false],
    ['windowMinutes', 1, true],
    ['windowMinutes', 120, true],
    ['windowMinutes', 121, false],
    ['windowMinutes', 1.5, false],
    ['limit', 0, false],
    ['limit', 1, true],
    ['limit', 50, true],
    ['limit', 51, false],
  ])('%s = %s accepted: %s', (field, value, ok) => {
    const input = { ...base, [field]: value };
    if (ok) expect(GetDeparturesInputSchema.safeParse(input).success).toBe(true);
    else expectRejectedAt(GetDeparturesInputSchema, input, field);
  });

  it('rejects an unknown language, stop type, a blank stop value and a missing stop', () => {
    expectRejectedAt(GetDeparturesInputSchema, { ...base, language: 'de' }, 'language');
    expectRejectedAt(GetDeparturesInputSchema, { stop: { type: 'name', value: 'x' } }, 'stop.type');
    expectRejectedAt(GetDeparturesInputSchema, { stop: { type: 'id', value: '   ' } }, 'stop.value');
    expectRejectedAt(GetDeparturesInputSchema, { stop: { type: 'id' } }, 'stop.value');
    expectRejectedAt(GetDeparturesInputSchema, {}, 'stop');
  });

  it('rejects unknown fields at the top level', () => {
    expect(GetDeparturesInputSchema.safeParse({ ...base, when: 'now' }).success).toBe(false);
  });
});

describe('get_departures output', () => {
  const departure = {
    line: '550',
    mode: 'BUS',
    destination: 'Westendinasema',
    scheduledTime: '2025-09-15T10:05:00Z',
    status: 'scheduled_only',
  };
  const output = {
    stopId: 'HSL:1040129',
    realtimeUsed: false,
    dataFreshness: '2025-09-15T10:00:00Z',
    departures: [departure],
    correlationId: PLACEHOLDERS.uuid,
  };

  it('accepts a minimal payload and rejects an unknown status or mode', () => {
    expect(GetDeparturesOutputSchema.safeParse(output).success).toBe(true);
    expectRejectedAt(
      GetDeparturesOutputSchema,
      { ...output, departures: [{ ...departure, status: 'late' }] },
      'departures.[0].status',
    );
    expectRejectedAt(
      GetDeparturesOutputSchema,
      { ...output, departures: [{ ...departure, mode: 'HOVERCRAFT' }] },
      'departures.[0].mode',
    );
  });

  it('caps departures at 50 and requires a UUID correlation id', () => {
    expectRejectedAt(
      GetDeparturesOutputSchema,
      { ...output, departures: Array.from({ length: 51 }, () => departure) },
      'departures',
    );
    expectRejectedAt(GetDeparturesOutputSchema, { ...output, correlationId: 'abc' }, 'correlationId');
  });
});

describe('plan_trip input', () => {
  const origin = { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } };
  const destination = { type: 'coords', value: { lat: 60.2055, lon: 24.6559 } };
  const base = { origin, destination };

  it('requires origin and destination', () => {
    expectRejectedAt(PlanTripInputSchema, { origin }, 'destination');
    expectRejectedAt(PlanTripInputSchema, { destination }, 'origin');
  });

  it('rejects identical coordinates (within 1 m) and accepts 2 m apart', () => {
    expectRejectedAt(PlanTripInputSchema, { origin, destination: origin }, 'destination');
    const nearby = { type: 'coords', value: { lat: 60.1699 + 0.000005, lon: 24.9384 } }; // about 0.56 m
    expectRejectedAt(PlanTripInputSchema, { origin, destination: nearby }, 'destination');
    const twoMetres = { type: 'coords', value: { lat: 60.1699 + 0.000018, lon: 24.9384 } }; // about 2 m
    expect(PlanTripInputSchema.safeParse({ origin, destination: twoMetres }).success).toBe(true);
  });

  it.each([
    ['lat', -90.0001, false],
    ['lat', -90, true],
    ['lat', 90, true],
    ['lat', 90.0001, false],
    ['lon', -180.0001, false],
    ['lon', -180, true],
    ['lon', 180, true],
    ['lon', 180.0001, false],
  ])('origin %s = %s accepted: %s', (field, value, ok) => {
    const input = { ...base, origin: { type: 'coords', value: { ...origin.value, [field]: value } } };
    if (ok) expect(PlanTripInputSchema.safeParse(input).success).toBe(true);
    else expectRejectedAt(PlanTripInputSchema, input, `origin.value.${field}`);
  });

  it.each([
    ['limit', 0, false],
    ['limit', 1, true],
    ['limit', 3, true],
    ['limit', 4, false],
  ])('%s = %s accepted: %s', (field, value, ok) => {
    const input = { ...base, [field]: value };
    if (ok) expect(PlanTripInputSchema.safeParse(input).success).toBe(true);
    else expectRejectedAt(PlanTripInputSchema, input, field);
  });

  it.each([
    ['maxWalkingDistance', 0, false],
    ['maxWalkingDistance', 1, true],
    ['maxWalkingDistance', 3000, true],
    ['maxWalkingDistance', 3001, false],
    ['maxTransfers', -1, false],
    ['maxTransfers', 0, true],
    ['maxTransfers', 8, true],
    ['maxTransfers', 9, false],
  ])('constraints.%s = %s accepted: %s', (field, value, ok) => {
    const input = { ...base, constraints: { [field]: value } };
    if (ok) expect(PlanTripInputSchema.safeParse(input).success).toBe(true);
    else expectRejectedAt(PlanTripInputSchema, input, `constraints.${field}`);
  });

  it('rejects unknown enum values at their path', () => {
    expectRejectedAt(
      PlanTripInputSchema,
      { ...base, constraints: { optimize: 'fastest' } },
      'constraints.optimize',
    );
    expectRejectedAt(
      PlanTripInputSchema,
      { ...base, constraints: { language: 'de' } },
      'constraints.language',
    );
    expectRejectedAt(PlanTripInputSchema, { ...base, when: { type: 'leave' } }, 'when.type');
    expectRejectedAt(
      PlanTripInputSchema,
      { ...base, origin: { type: 'address', value: 'x' } },
      'origin.type',
    );
  });

  it('rule 6: arrive without a time (or with "now") is rejected at when.time', () => {
    expectRejectedAt(PlanTripInputSchema, { ...base, when: { type: 'arrive' } }, 'when.time');
    expectRejectedAt(PlanTripInputSchema, { ...base, when: { type: 'arrive', time: 'now' } }, 'when.time');
    const ok = PlanTripInputSchema.safeParse({
      ...base,
      when: { type: 'arrive', time: '2025-09-15T10:00:00Z' },
    });
    expect(ok.success).toBe(true);
  });

  it('accepts "now" and instants with an offset; rejects times without a zone and non-dates', () => {
    for (const time of ['now', '2025-09-15T10:00:00Z', '2025-09-15T13:00+03:00', '2025-09-15T10:00:00.5Z']) {
      expect(PlanTripInputSchema.safeParse({ ...base, when: { time } }).success).toBe(true);
    }
    for (const time of ['2025-09-15T10:00:00', 'tomorrow', '2025-13-45T10:00:00Z']) {
      expectRejectedAt(PlanTripInputSchema, { ...base, when: { time } }, 'when.time');
    }
  });

  it('applies every default of the seed', () => {
    const parsed = PlanTripInputSchema.parse(base);
    expect(parsed).toEqual({
      ...base,
      when: { type: 'depart', time: 'now' },
      constraints: {
        optimize: 'balanced',
        maxWalkingDistance: 1500,
        maxTransfers: 4,
        accessibility: { stepFree: false, lowWalkingDistance: false },
        language: 'en',
      },
      limit: 2,
      includeDisruptionAlt: true,
    });
  });

  it('accepts label places and rejects a blank label', () => {
    expect(
      PlanTripInputSchema.safeParse({ origin: { type: 'label', value: 'home' }, destination }).success,
    ).toBe(true);
    expectRejectedAt(
      PlanTripInputSchema,
      { origin: { type: 'label', value: ' ' }, destination },
      'origin.value',
    );
  });
});

describe('planJourney', () => {
  it('requires from and to, trims them, and rejects blanks and over-long values', () => {
    expect(PlanJourneyInputSchema.parse({ from: ' Bank ', to: 'Mile End' })).toEqual({
      from: 'Bank',
      to: 'Mile End',
    });
    expectRejectedAt(PlanJourneyInputSchema, { to: 'x' }, 'from');
    expectRejectedAt(PlanJourneyInputSchema, { from: 'x' }, 'to');
    expectRejectedAt(PlanJourneyInputSchema, { from: '   ', to: 'x' }, 'from');
    expectRejectedAt(PlanJourneyInputSchema, { from: 'x', to: 'y'.repeat(201) }, 'to');
    expectRejectedAt(PlanJourneyInputSchema, { from: 'Water\udfffloo', to: 'Bank' }, 'from');
    expectRejectedAt(PlanJourneyInputSchema, { from: 'Bank', to: 'Mile \ud83d End' }, 'to');
    expect(PlanJourneyInputSchema.parse({ from: 'Café 🚇', to: 'Bank' }).from).toBe('Café 🚇');
    expectRejectedAt(
      PlanJourneyInputSchema,
      { from: 'x', to: 'y', needAccessibleRoute: 'yes' },
      'needAccessibleRoute',
    );
  });

  const journey = {
    durationMinutes: 20,
    startDateTime: '2025-09-15T10:00:00+01:00',
    arrivalDateTime: '2025-09-15T10:20:00+01:00',
    legCount: 0,
    legs: [],
    isDisrupted: false,
  };

  it('envelope: success with OK and a list; errors with null journeys; suggestions only for disambiguation', () => {
    const ok = {
      success: true,
      code: 'OK',
      message: 'ok',
      topJourneys: [journey],
      fromLocationDisambiguation: null,
      toLocationDisambiguation: null,
    };
    expect(PlanJourneyOutputSchema.safeParse(ok).success).toBe(true);
    expectRejectedAt(PlanJourneyOutputSchema, { ...ok, code: 'UPSTREAM_ERROR' }, 'code');
    expectRejectedAt(
      PlanJourneyOutputSchema,
      { ...ok, success: false, code: 'UPSTREAM_ERROR' },
      'topJourneys',
    );
    expectRejectedAt(PlanJourneyOutputSchema, { ...ok, topJourneys: Array(6).fill(journey) }, 'topJourneys');
    const suggestion = { parameterValue: '1000109', matchQuality: 1000, name: 'Highgate' };
    const ambiguous = {
      ...ok,
      success: false,
      code: 'DISAMBIGUATION_REQUIRED',
      topJourneys: null,
      toLocationDisambiguation: [suggestion],
    };
    expect(PlanJourneyOutputSchema.safeParse(ambiguous).success).toBe(true);
    expectRejectedAt(PlanJourneyOutputSchema, { ...ambiguous, toLocationDisambiguation: null }, 'code');
    expectRejectedAt(
      PlanJourneyOutputSchema,
      { ...ambiguous, code: 'UPSTREAM_ERROR' },
      'toLocationDisambiguation',
    );
    expectRejectedAt(PlanJourneyOutputSchema, { ...ok, code: 'NOPE' }, 'code');
    for (const field of Object.keys(ok)) {
      const { [field]: _omitted, ...rest } = ok as Record<string, unknown>;
      expectRejectedAt(PlanJourneyOutputSchema, rest, field);
    }
  });

  it('journey times must carry an offset', () => {
    expectRejectedAt(
      PlanJourneyOutputSchema,
      {
        success: true,
        code: 'OK',
        message: 'ok',
        topJourneys: [{ ...journey, startDateTime: '2025-09-15T10:00:00' }],
        fromLocationDisambiguation: null,
        toLocationDisambiguation: null,
      },
      'topJourneys.[0].startDateTime',
    );
  });
});

describe('additive tools', () => {
  it('save_user_variable: key 1..50, location or stop values', () => {
    const location = { type: 'location', lat: 60.17, lon: 24.94, name: 'Home' };
    expect(SaveUserVariableInputSchema.safeParse({ key: 'k'.repeat(50), value: location }).success).toBe(
      true,
    );
    expectRejectedAt(SaveUserVariableInputSchema, { key: 'k'.repeat(51), value: location }, 'key');
    expectRejectedAt(SaveUserVariableInputSchema, { key: '', value: location }, 'key');
    expectRejectedAt(SaveUserVariableInputSchema, { key: 'a', value: { ...location, lat: 91 } }, 'value.lat');
    expectRejectedAt(
      SaveUserVariableInputSchema,
      { key: 'a', value: { type: 'stop', stopId: '1040129' } },
      'value.stopId',
    );
    expectRejectedAt(SaveUserVariableInputSchema, { key: 'a', value: { type: 'bookmark' } }, 'value.type');
    expect(
      SaveUserVariableInputSchema.safeParse({ key: 'a', value: { type: 'stop', stopId: 'HSL:1040129' } })
        .success,
    ).toBe(true);
  });

  it('saved-place keys: NFC and NFD spellings are one key; an unpaired surrogate is rejected, saying why', () => {
    const stop = { type: 'stop', stopId: 'HSL:1040129' };
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    for (const key of [nfc, nfd, ` ${nfd} `]) {
      expect(SaveUserVariableInputSchema.parse({ key, value: stop }).key).toBe(nfc);
      expect(GetUserVariablesInputSchema.parse({ key }).key).toBe(nfc);
      expect(DeleteUserVariableInputSchema.parse({ key }).key).toBe(nfc);
    }
    // The length limit counts the normalised key: 49 letters plus a combining accent is 50 characters.
    expect(
      SaveUserVariableInputSchema.safeParse({ key: `${'k'.repeat(49)}e\u0301`, value: stop }).success,
    ).toBe(true);
    for (const key of ['home\ud800', '\udc00', 'a\udfffb', '\ud83d']) {
      const parsed = SaveUserVariableInputSchema.safeParse({ key, value: stop });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        ['key', expect.stringMatching(/^key must be well-formed Unicode text: .*unpaired UTF-16 surrogate/)],
      ]);
      expectRejectedAt(DeleteUserVariableInputSchema, { key }, 'key');
      expectRejectedAt(GetUserVariablesInputSchema, { key }, 'key');
    }
    // A NUL character is refused too (PostgreSQL text cannot hold one), and the message says which fault.
    expect(
      SaveUserVariableInputSchema.safeParse({ key: 'home\u0000', value: stop }).error?.issues[0]?.message,
    ).toBe(
      'key must be well-formed Unicode text: it has a NUL character (\\u0000), which no text column can hold; remove it',
    );
    // A paired surrogate (an emoji) is text.
    expect(SaveUserVariableInputSchema.safeParse({ key: 'home \ud83c\udfe0', value: stop }).success).toBe(
      true,
    );
  });

  it('find_stops: exactly one of name or near', () => {
    expect(FindStopsInputSchema.safeParse({ name: 'Kamppi' }).success).toBe(true);
    expect(FindStopsInputSchema.safeParse({ near: { lat: 60.17, lon: 24.93 } }).success).toBe(true);
    expect(FindStopsInputSchema.safeParse({}).success).toBe(false);
    expect(FindStopsInputSchema.safeParse({ name: 'Kamppi', near: { lat: 60.17, lon: 24.93 } }).success).toBe(
      false,
    );
    expectRejectedAt(FindStopsInputSchema, { name: 'Kamppi', limit: 51 }, 'limit');
  });

  it('find_stops: name 2..100 characters, radiusMeters 1..5000 (default 500), limit 1..50 (default 10)', () => {
    const near = { lat: 60.17, lon: 24.93 };
    expect(FindStopsInputSchema.parse({ near })).toEqual({
      near,
      radiusMeters: 500,
      limit: 10,
      language: 'en',
    });
    for (const name of ['Ka', 'K'.repeat(100), ' Ka ']) {
      expect(FindStopsInputSchema.safeParse({ name }).success).toBe(true);
    }
    for (const name of ['K', ' K ', 'K'.repeat(101)])
      expectRejectedAt(FindStopsInputSchema, { name }, 'name');
    for (const radiusMeters of [1, 5000]) {
      expect(FindStopsInputSchema.safeParse({ near, radiusMeters }).success).toBe(true);
    }
    for (const radiusMeters of [0, 5001, 2.5]) {
      expectRejectedAt(FindStopsInputSchema, { near, radiusMeters }, 'radiusMeters');
    }
    expectRejectedAt(FindStopsInputSchema, { name: 'Kamppi', limit: 0 }, 'limit');
  });
});

describe('TRANSIT_TOOL_SCHEMAS', () => {
  /** Every property at every depth of a JSON Schema, with its path. */
  function properties(schema: unknown, path = ''): { path: string; node: Record<string, unknown> }[] {
    if (schema === null || typeof schema !== 'object') return [];
    const node = schema as Record<string, unknown>;
    const out: { path: string; node: Record<string, unknown> }[] = [];
    for (const [name, child] of Object.entries((node.properties as Record<string, unknown>) ?? {})) {
      out.push({ path: `${path}.${name}`, node: child as Record<string, unknown> });
      out.push(...properties(child, `${path}.${name}`));
    }
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) {
      const value = node[key];
      for (const child of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
        out.push(...properties(child, path));
      }
    }
    return out;
  }

  it.each(Object.keys(TRANSIT_TOOL_SCHEMAS))('%s: every field of input and output is described', (tool) => {
    const { input, output } = TRANSIT_TOOL_SCHEMAS[tool as keyof typeof TRANSIT_TOOL_SCHEMAS];
    for (const [schema, io] of [
      [input, 'input'],
      [output, 'output'],
    ] as const) {
      const json = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' });
      expect(json.type).toBe('object');
      const undescribed = properties(json)
        .filter(({ node }) => typeof node.description !== 'string' || node.description === '')
        .map(({ path }) => path);
      expect(undescribed).toEqual([]);
    }
  });
});

describe('distance helpers', () => {
  it('measures about 111 km per degree of latitude and treats <= 1 m as the same place', () => {
    expect(distanceMeters({ lat: 60, lon: 24 }, { lat: 61, lon: 24 })).toBeCloseTo(111_195, -2);
    expect(sameCoordinates({ lat: 60, lon: 24 }, { lat: 60, lon: 24 })).toBe(true);
    expect(sameCoordinates({ lat: 60, lon: 24 }, { lat: 60.0001, lon: 24 })).toBe(false);
  });
});
