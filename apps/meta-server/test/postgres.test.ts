// The combined bin on PostgreSQL (issue #18): it refuses an unmigrated database with one line that says what to
// do, `switchyard migrate` applies the migrations, and two server processes on one database (replicas) share
// saved places and journeys. Launch runs migrate to the same database (they run on PostgreSQL since #18).
import { randomUUID } from 'node:crypto';
import { startTestPostgres, type TestPostgres } from '@switchyard/test-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedEveryMigration, connectStdio, DUMMY_KEYS, runBin, tempDir } from './helpers.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(async () => server?.stop());

/** The start-up error: the line after the domains report (a stack trace would add lines). */
function lastLine(stderr: string): string {
  return stderr.trimEnd().split('\n').at(-1) ?? '';
}

const HOME = { type: 'location', lat: 60.1699, lon: 24.9384, name: 'Home' };

describe('switchyard on PostgreSQL', () => {
  it('refuses to start on an unmigrated database, migrates with `switchyard migrate`, then serves replicas', async () => {
    const url = await server.createDatabase();
    const env = { ...DUMMY_KEYS, SWITCHYARD_DATABASE_URL: url };
    const password = new URL(url).password;

    const refused = await runBin([], { ...env, SWITCHYARD_DATA_DIR: tempDir() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('saved places in PostgreSQL at 127.0.0.1:');
    expect(refused.stderr).not.toMatch(/^\s+at /m);
    expect(lastLine(refused.stderr)).toMatch(
      /^switchyard: cannot open transit: SWITCHYARD_DATABASE_URL: the transit tables at 127\.0\.0\.1:\d+\/switchyard_test_\w+ are older than this version \(1 migration\(s\) pending\): run `switchyard migrate`/,
    );
    expect(refused.stderr).not.toContain(password);

    const migrated = await runBin(['migrate'], env);
    expect(migrated).toMatchObject({ code: 0, stderr: '' });
    expect(migrated.stdout).toMatch(appliedEveryMigration(String.raw`127\.0\.0\.1:\d+\/switchyard_test_\w+`));
    expect((await runBin(['migrate'], env)).stdout).toMatch(
      /^transit: up to date at .+\njourney-continuity: up to date at .+\nlaunch-runs: up to date at /,
    );

    // Two processes with separate data directories: only the database is shared.
    const [one, two] = await Promise.all([
      connectStdio({ ...env, SWITCHYARD_DATA_DIR: tempDir() }),
      connectStdio({ ...env, SWITCHYARD_DATA_DIR: tempDir() }),
    ]);
    try {
      const saved = await one.client.callTool({
        name: 'save_user_variable',
        arguments: { key: 'home', value: HOME },
      });
      expect(saved.isError).toBeFalsy();
      const listed = await two.client.callTool({ name: 'get_user_variables', arguments: {} });
      expect(listed.structuredContent).toMatchObject({ variables: [{ key: 'home', value: HOME }] });
      const user = randomUUID();
      const journeys = await Promise.all(
        [one, two].map((replica) =>
          replica.client.callTool({ name: 'get_or_create_journey', arguments: { user_id: user } }),
        ),
      );
      const ids = journeys.map((j) => (j.structuredContent as { journey_id: string }).journey_id);
      expect(ids[0]).toBe(ids[1]);
      const recorded = await one.client.callTool({
        name: 'record_session',
        arguments: { journey_id: ids[0], summary: 'Planned the ferry trip' },
      });
      expect(recorded.isError).toBeFalsy();
      const found = await two.client.callTool({
        name: 'query_journey_history',
        arguments: { journey_id: ids[0], query: 'ferry' },
      });
      expect(found.structuredContent).toMatchObject({ total_results: 1 });
      expect(`${one.stderr()}${two.stderr()}`).not.toContain(password);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('says where PostgreSQL could not be reached, in one line, without the password', async () => {
    const env = {
      ...DUMMY_KEYS,
      SWITCHYARD_DATA_DIR: tempDir(),
      TRANSIT_DATABASE_URL: 'postgres://app:pg-hunter2-secret@127.0.0.1:1/switchyard',
      SWITCHYARD_DATABASE_CONNECT_TIMEOUT_MS: '2000',
    };
    const refused = await runBin([], env);
    expect(refused.code).toBe(1);
    expect(lastLine(refused.stderr)).toMatch(
      /^switchyard: cannot open transit: TRANSIT_DATABASE_URL: cannot reach PostgreSQL at 127\.0\.0\.1:1\/switchyard: .+$/,
    );
    expect(refused.stderr).not.toMatch(/^\s+at /m);
    expect(refused.stderr).not.toContain('hunter2');
    const migrate = await runBin(['migrate'], env);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toMatch(
      /^switchyard migrate: TRANSIT_DATABASE_URL: could not migrate transit at 127\.0\.0\.1:1\/switchyard: /,
    );
    expect(migrate.stderr).not.toContain('hunter2');
  });

  it('has nothing to migrate on the embedded default', async () => {
    const result = await runBin(['migrate'], { ...DUMMY_KEYS });
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain('nothing to migrate: no domain is configured for PostgreSQL');
  });
});
