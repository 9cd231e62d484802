import { resolvePostgresSettings, type PostgresSettings } from '@switchyard/server-kit/runtime';
import { DIALECTS, lazyTestPostgres, type Dialect } from '@switchyard/test-postgres';
import { afterAll } from 'vitest';
import { DATABASE_URL_VARIABLE } from '../../src/db/open.js';
import { startHarness, type Harness } from './harness.js';

// Every run rule holds on both databases: the tool-level tests that are not about launch-runs.sqlite or the
// data directory's files run on SQLite and on a real PostgreSQL server (issue #18), started once per test
// file, for the first test that needs it, and stopped after the file's own afterAll hooks (which close its
// harnesses).
export { DIALECTS, type Dialect };

const postgres = lazyTestPostgres();
afterAll(() => postgres.stop());

/**
 * Where `startHarness` keeps runs in `dialect` (spread into its options): nothing for SQLite (the data
 * directory's launch-runs.sqlite), a new PostgreSQL database (migrated on start) otherwise. Harnesses given
 * the same one share their runs.
 */
export async function storageFor(dialect: Dialect): Promise<{ database?: PostgresSettings }> {
  if (dialect === 'sqlite') return {};
  const env = { [DATABASE_URL_VARIABLE]: await postgres.createDatabase(), SWITCHYARD_MIGRATE_ON_START: '1' };
  return { database: resolvePostgresSettings(env, DATABASE_URL_VARIABLE)! };
}

/** A harness whose runs are in `dialect`: on PostgreSQL, in a database of its own. */
export async function startHarnessOn(
  dialect: Dialect,
  options: Parameters<typeof startHarness>[0] = {},
): Promise<Harness> {
  return startHarness({ ...options, ...(await storageFor(dialect)) });
}
