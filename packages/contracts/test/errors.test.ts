import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ERROR_KINDS,
  GET_DEPARTURES_ERROR_TABLE,
  HslErrorPayloadSchema,
  JOURNEY_ERROR_TABLE,
  JourneyErrorPayloadSchema,
  LAUNCH_ERROR_TABLE,
  LaunchErrorPayloadSchema,
  PLAN_JOURNEY_ERROR_TABLE,
  PLAN_TRIP_ERROR_TABLE,
  SwitchyardError,
  TRANSIT_EXTRA_ERROR_TABLE,
  codeFor,
  describeIssues,
  hslErrorPayload,
  journeyErrorPayload,
  launchErrorPayload,
  planJourneyErrorEnvelope,
  toSwitchyardError,
  type DomainErrorTable,
} from '../src/errors/index.js';

const correlationId = '0b7c2f3e-8a41-4a5e-9d2c-1f0e6b7a8c9d';
const tables: DomainErrorTable[] = [
  PLAN_JOURNEY_ERROR_TABLE,
  GET_DEPARTURES_ERROR_TABLE,
  PLAN_TRIP_ERROR_TABLE,
  TRANSIT_EXTRA_ERROR_TABLE,
  LAUNCH_ERROR_TABLE,
  JOURNEY_ERROR_TABLE,
];

describe('error tables', () => {
  it.each(tables.map((t) => [t.domain, t] as const))(
    '%s maps every kind to one of its own codes',
    (_, table) => {
      for (const kind of ERROR_KINDS) expect(Object.keys(table.codes)).toContain(table.byKind[kind]);
    },
  );

  it('carry the codes the seeds list, exactly', () => {
    expect(Object.keys(PLAN_JOURNEY_ERROR_TABLE.codes)).toEqual([
      'VALIDATION_ERROR',
      'DISAMBIGUATION_REQUIRED',
      'RATE_LIMIT_EXCEEDED',
      'UPSTREAM_TIMEOUT',
      'UPSTREAM_ERROR',
      'INTERNAL_ERROR',
    ]);
    expect(Object.keys(LAUNCH_ERROR_TABLE.codes)).toEqual([
      'INVALID_INPUT',
      'SCHEMA_VALIDATION_FAILED',
      'RUN_NOT_FOUND',
      'ILLEGAL_STATE',
      'TOOLCHAIN_MISSING',
      'GATE_FAILED',
      'FIX_EXHAUSTED',
      'ALLOWED_PATHS_VIOLATION',
      'COMMIT_SERVICE_ERROR',
      'CANCELLED',
      'INTERNAL',
    ]);
    for (const code of ['validation-error', 'upstream-error', 'upstream-timeout', 'rate-limited']) {
      expect(Object.keys(GET_DEPARTURES_ERROR_TABLE.codes)).toContain(code);
    }
    for (const code of ['unsupported-region', 'no-itinerary-found', 'network-error']) {
      expect(Object.keys(PLAN_TRIP_ERROR_TABLE.codes)).toContain(code);
    }
    expect(Object.values(JOURNEY_ERROR_TABLE.codes).map((c) => c.status)).toEqual([400, 404, 500, 500]);
  });

  it('keep get_departures inside its four codes for transport failures, and give plan_trip network-error', () => {
    expect(codeFor(GET_DEPARTURES_ERROR_TABLE, 'network-error')).toBe('upstream-error');
    expect(codeFor(PLAN_TRIP_ERROR_TABLE, 'network-error')).toBe('network-error');
    expect(codeFor(PLAN_TRIP_ERROR_TABLE, 'validation', 'unsupported-region')).toBe('unsupported-region');
    expect(codeFor(PLAN_TRIP_ERROR_TABLE, 'validation', 'NOT_A_CODE')).toBe('validation-error');
  });

  // The README's kind table is the documented mapping; every cell of it is checked, so no row can drift.
  it('map every kind to the code the README table gives it, and the journey status beside it', () => {
    const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const rows = readme
      .split('\n')
      .filter((line) => /^\| `[a-z-]+` +\|/.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    const code = (cell: string) => /`([^`]+)`/.exec(cell)?.[1];
    expect(rows.map((row) => code(row[0]!))).toEqual([...ERROR_KINDS]);
    const columns = [
      PLAN_JOURNEY_ERROR_TABLE,
      GET_DEPARTURES_ERROR_TABLE,
      PLAN_TRIP_ERROR_TABLE,
      LAUNCH_ERROR_TABLE,
      JOURNEY_ERROR_TABLE,
    ];
    for (const [kindCell, ...cells] of rows) {
      const kind = code(kindCell!) as (typeof ERROR_KINDS)[number];
      expect(
        columns.map((table) => table.byKind[kind]),
        kind,
      ).toEqual(cells.map(code));
      const journeyCode = JOURNEY_ERROR_TABLE.byKind[kind];
      expect(`${JOURNEY_ERROR_TABLE.codes[journeyCode].status} \`${journeyCode}\``).toBe(cells[4]);
    }
    // "The additive saved-place tools add `not-found`": plan_trip's mapping otherwise.
    expect(TRANSIT_EXTRA_ERROR_TABLE.byKind).toEqual({
      ...PLAN_TRIP_ERROR_TABLE.byKind,
      'not-found': 'not-found',
    });
  });

  it('mark HSL codes retryable as the Retry? columns of seeds 001 and 003 say', () => {
    const retryable = Object.fromEntries(
      Object.entries(PLAN_TRIP_ERROR_TABLE.codes).map(([code, spec]) => [code, spec.retryable]),
    );
    expect(retryable).toMatchObject({
      'validation-error': false,
      'unsupported-region': false,
      'no-itinerary-found': false,
      'upstream-error': true,
      'upstream-timeout': true,
      'rate-limited': true,
      'network-error': true,
    });
    expect(GET_DEPARTURES_ERROR_TABLE.codes).toBe(PLAN_TRIP_ERROR_TABLE.codes);
  });
});

describe('payload builders', () => {
  it('build HSL payloads with retryAfter in whole seconds only when rate-limited', () => {
    const limited = hslErrorPayload(
      GET_DEPARTURES_ERROR_TABLE,
      new SwitchyardError('rate-limited', 'slow down', { retryAfterMs: 1200, hint: 'wait' }),
      correlationId,
    );
    expect(HslErrorPayloadSchema.parse(limited)).toEqual({
      error: { code: 'rate-limited', message: 'slow down', hint: 'wait', retryAfter: 2, correlationId },
    });
    const timeout = hslErrorPayload(
      PLAN_TRIP_ERROR_TABLE,
      new SwitchyardError('upstream-timeout', 'slow', { retryAfterMs: 500 }),
      correlationId,
    );
    expect(timeout.error).not.toHaveProperty('retryAfter');
  });

  it('build the launch standard error shape with a truthful retryable and cause_class for INTERNAL', () => {
    const internal = launchErrorPayload(
      toSwitchyardError(new RangeError('bad')),
      'r_2026-01-21T10-00-00Z_abcd1234',
    );
    expect(LaunchErrorPayloadSchema.parse(internal)).toMatchObject({
      ok: false,
      run_id: 'r_2026-01-21T10-00-00Z_abcd1234',
      error: { code: 'INTERNAL', retryable: false, details: { cause_class: 'RangeError' } },
    });
    const busy = launchErrorPayload(
      new SwitchyardError('conflict', 'a fix is running', { code: 'ILLEGAL_STATE', retryable: true }),
    );
    expect(busy).toMatchObject({ ok: false, error: { code: 'ILLEGAL_STATE', retryable: true, details: {} } });
    expect(busy).not.toHaveProperty('run_id');
    const rejected = launchErrorPayload(
      new SwitchyardError('upstream-error', 'GitHub rejected the PR', {
        code: 'COMMIT_SERVICE_ERROR',
        retryable: false,
      }),
    );
    expect(rejected.error.retryable).toBe(false);
  });

  it('build journey payloads with the seed statuses', () => {
    const missing = journeyErrorPayload(new SwitchyardError('not-found', 'Journey x not found'));
    expect(JourneyErrorPayloadSchema.parse(missing)).toEqual({
      error: { status: 404, code: 'NOT_FOUND', message: 'Journey x not found' },
    });
    expect(journeyErrorPayload(new SwitchyardError('validation', 'limit: too big')).error.status).toBe(400);
  });

  it('build the planJourney envelope with all six fields and null journeys', () => {
    expect(planJourneyErrorEnvelope(new SwitchyardError('upstream-timeout', 'TfL did not answer'))).toEqual({
      success: false,
      code: 'UPSTREAM_TIMEOUT',
      message: 'TfL did not answer',
      topJourneys: null,
      fromLocationDisambiguation: null,
      toLocationDisambiguation: null,
    });
  });
});

describe('describeIssues', () => {
  const Schema = z.strictObject({
    stop: z.strictObject({ value: z.string().min(1) }),
    limit: z.number().max(50),
    document_type: z.enum(['a', 'b'], { error: 'document_type must be one of: a, b' }),
  });

  it('names each field the caller must fix, keeps messages that already name their field', () => {
    const result = Schema.safeParse({ stop: { value: '' }, limit: 51, document_type: 'c', extra: true });
    expect(result.success).toBe(false);
    const message = describeIssues(result.error!.issues);
    expect(message).toContain('stop.value: ');
    expect(message).toContain('limit: ');
    expect(message).toContain('document_type must be one of: a, b');
    expect(message).not.toContain('document_type: document_type');
    expect(message).toContain('extra');
  });

  it('says a missing field is required', () => {
    const result = Schema.safeParse({ limit: 1, document_type: 'a' });
    expect(describeIssues(result.error!.issues)).toBe('stop is required');
  });
});
