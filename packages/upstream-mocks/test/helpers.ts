// Shared test plumbing: a fixed clock, GraphQL over real HTTP, the reference directory when present.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { startDigitransitMock, startTflMock } from '../src/index.js';
import type { DigitransitMock, TflMock } from '../src/index.js';

/** Monday 2 June 2025, 08:15:30 in Helsinki (05:15:30Z), 06:15:30 in London. */
export const FIXED_NOW = new Date('2025-06-02T05:15:30Z');
export const fixedClock = (): Date => FIXED_NOW;

/** Epoch seconds of 2025-06-02T00:00 Europe/Helsinki (EEST, +03:00). */
export const FIXED_SERVICE_DAY = Date.UTC(2025, 5, 1, 21, 0, 0) / 1000;

export const KEY = 'test-subscription-key';

const here = dirname(fileURLToPath(import.meta.url));
export const PACKAGE_DIR = resolve(here, '..');

/** `../shared/upstream` next to the repository: present in CI, absent in a user's clone. */
export const UPSTREAM_DIR = resolve(here, '../../../../shared/upstream');
export const hasUpstream = existsSync(resolve(UPSTREAM_DIR, 'README.md'));

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface GraphQLBody {
  readonly data?: Record<string, Json> | null;
  readonly errors?: {
    message: string;
    locations?: { line: number; column: number }[];
    path?: (string | number)[];
    extensions: { classification: string };
  }[];
}

export async function postGraphQL(
  dt: DigitransitMock,
  query: string,
  variables: Record<string, unknown> = {},
  init: { headers?: Record<string, string>; url?: string; operationName?: string } = {},
): Promise<{ status: number; body: GraphQLBody; headers: Headers }> {
  const response = await fetch(init.url ?? dt.routingUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'digitransit-subscription-key': KEY, ...init.headers },
    body: JSON.stringify({
      query,
      variables,
      ...(init.operationName ? { operationName: init.operationName } : {}),
    }),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as GraphQLBody, headers: response.headers };
}

/** Narrow a JSON value to an object, failing the test otherwise. */
export function obj(value: unknown): Record<string, Json> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`expected an object, got ${JSON.stringify(value)}`);
  }
  return value as Record<string, Json>;
}

export function arr(value: unknown): Json[] {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${JSON.stringify(value)}`);
  return value as Json[];
}

export interface FixedClockMocks {
  readonly tfl: TflMock;
  readonly dt: DigitransitMock;
  /** GET a TfL path (with its query) and parse the JSON answer. */
  tflGet(path: string): Promise<unknown>;
}

/** Both mocks on the fixed clock, started before the suite's tests and closed after them. */
export function useFixedClockMocks(): FixedClockMocks {
  let tfl: TflMock | undefined;
  let dt: DigitransitMock | undefined;
  beforeAll(async () => {
    tfl = await startTflMock({ now: fixedClock });
    dt = await startDigitransitMock({ now: fixedClock });
  });
  afterAll(async () => {
    await tfl?.close();
    await dt?.close();
  });
  const started = <T>(mock: T | undefined): T => {
    if (mock === undefined) throw new Error('the mocks are used before beforeAll started them');
    return mock;
  };
  return {
    get tfl() {
      return started(tfl);
    },
    get dt() {
      return started(dt);
    },
    tflGet: async (path) => (await fetch(`${started(tfl).url}${path}`)).json(),
  };
}
