// What loads when: drizzle's query builder stays off the start path and loads with the first call that
// touches saved places; Node's fetch implementation never loads (upstream answers are not web Responses); a
// failed load is the calling tool's internal error, and the next call retries.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { HslErrorPayloadSchema } from '@switchyard/contracts/transit';
import {
  callTool,
  connectRecordingImports,
  DRIZZLE_QUERY_BUILDER,
  errorOf,
  type RecordedStdioBin,
} from '@switchyard/server-kit/testing';
import { startDigitransitMock, startTflMock } from '@switchyard/upstream-mocks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHarness } from './helpers.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(packageDir, 'src', 'bin.ts');

const STOP_ID = { type: 'id', value: 'HSL:1040129' } as const;
const KAMPPI = { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } } as const;
const PASILA = { type: 'coords', value: { lat: 60.1989, lon: 24.9325 } } as const;
const HOME = { type: 'location', lat: 60.1699, lon: 24.9384 } as const;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-cold-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function tablesIn(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    return rows.map((row) => row.name);
  } finally {
    db.close();
  }
}

/** The bin over stdio against the loopback upstreams, recording what it loads. */
async function startBin(): Promise<RecordedStdioBin & { dataDir: string }> {
  const tfl = await startTflMock();
  cleanups.push(() => tfl.close());
  const digitransit = await startDigitransitMock();
  cleanups.push(() => digitransit.close());
  const dir = tempDir();
  const dataDir = path.join(dir, 'data');
  const started = await connectRecordingImports({
    bin,
    cwd: packageDir,
    logFile: path.join(dir, 'imports.log'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      TFL_API_KEY: 'cold-tfl-key-1234',
      DIGITRANSIT_SUBSCRIPTION_KEY: 'cold-dt-key-1234',
      TFL_API_BASE_URL: tfl.url,
      DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
      DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
      SWITCHYARD_DATA_DIR: dataDir,
      SWITCHYARD_LOG_LEVEL: 'error',
    },
  });
  cleanups.push(() => started.close());
  return { ...started, dataDir };
}

describe('cold start of switchyard-transit', { timeout: 120_000 }, () => {
  it("never loads Node's fetch implementation, neither to start nor to call TfL and Digitransit", async () => {
    // Its bundled undici holds about 17 MiB and takes 30-40 ms to load: building any web Request, Headers or
    // Response loads it, and so would an ES import of node:http.
    const { client, imports } = await startBin();
    expect((await client.listTools()).tools).toHaveLength(10);
    const calls: [string, Record<string, unknown>][] = [
      ['planJourney', { from: 'Bank', to: 'Mile End' }],
      ['get_london_arrivals', { stop: { type: 'id', value: '940GZZLUOXC' }, limit: 2 }],
      ['get_departures', { stop: STOP_ID }],
      ['plan_trip', { origin: KAMPPI, destination: { type: 'label', value: 'Kiasma' } }],
    ];
    for (const [name, args] of calls) expect((await callTool(client, name, args)).isError).toBe(false);
    await client.close();
    expect(imports.nodeDepsAtExit()).not.toContain('undici/undici');
  });

  it('starts with transit.sqlite migrated but without drizzle, which loads with the first saved-place call', async () => {
    const { client, imports, dataDir } = await startBin();
    const call = (name: string, args: Record<string, unknown>) => callTool(client, name, args);
    const queryBuilderLoaded = () => imports.specifiers().filter((s) => DRIZZLE_QUERY_BUILDER.includes(s));

    expect((await client.listTools()).tools).toHaveLength(10);
    // Readiness still means an open, migrated database.
    expect(tablesIn(path.join(dataDir, 'transit.sqlite'))).toContain('saved_places');
    expect(queryBuilderLoaded()).toEqual([]);

    // Calls that involve no saved place: ids, coordinates, free text, and input the schema rejects.
    expect(await call('planJourney', { from: 'Bank', to: 'Mile End' })).toMatchObject({
      structured: { success: true },
    });
    expect((await call('get_departures', { stop: STOP_ID })).isError).toBe(false);
    expect((await call('plan_trip', { origin: KAMPPI, destination: PASILA })).isError).toBe(false);
    const invalid = await call('save_user_variable', { key: 'k'.repeat(51), value: HOME });
    expect(invalid).toMatchObject({ isError: true, structured: { error: { code: 'validation-error' } } });
    expect(queryBuilderLoaded()).toEqual([]);
    // Digitransit routing is GraphQL over HTTP without a GraphQL client library (9-12 MiB of memory).
    expect(imports.packages().filter((name) => name.startsWith('graphql'))).toEqual([]);

    expect((await call('save_user_variable', { key: 'home', value: HOME })).isError).toBe(false);
    expect(queryBuilderLoaded()).toEqual(DRIZZLE_QUERY_BUILDER);
  });
});

describe('a saved-place store that fails to load', () => {
  it('answers each tool’s internal-error, keeps serving, and loads on a later call', async () => {
    const h = await startHarness();
    cleanups.push(() => h.close());
    cleanups.push(() => vi.doUnmock('../src/places/sqlite-store.js'));
    vi.doMock('../src/places/sqlite-store.js', () => {
      throw new Error('simulated broken install');
    });

    const calls: [string, Record<string, unknown>][] = [
      ['save_user_variable', { key: 'home', value: HOME }],
      ['get_user_variables', {}],
      ['delete_user_variable', { key: 'home' }],
      ['get_departures', { stop: { type: 'label', value: 'work stop' } }],
      ['plan_trip', { origin: { type: 'label', value: 'home' }, destination: PASILA }],
    ];
    for (const [name, args] of calls) {
      const answer = await h.call(name, args);
      expect(answer.isError, name).toBe(true);
      const error = HslErrorPayloadSchema.parse(answer.structured).error;
      expect(error, name).toMatchObject({
        code: 'internal-error',
        message: expect.stringContaining('could not be loaded'),
        hint: expect.stringContaining('Try again'),
      });
      expect(answer.text, name).not.toContain('simulated broken install');
    }
    // Calls that need no saved place are unaffected.
    expect((await h.call('get_departures', { stop: STOP_ID })).isError).toBe(false);

    vi.doUnmock('../src/places/sqlite-store.js');
    expect((await h.call('save_user_variable', { key: 'home', value: HOME })).isError).toBe(false);
    const listed = await h.call('get_user_variables', {});
    expect(listed.structured).toMatchObject({ variables: [{ key: 'home', value: HOME }] });
    expect(errorOf(await h.call('delete_user_variable', { key: 'gone' }))).toMatchObject({
      code: 'not-found',
    });
  });
});
