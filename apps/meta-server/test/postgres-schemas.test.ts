// Where the tables go on PostgreSQL: the first schema of the connecting role's search_path, when migrating and
// when serving. Two setups the README's example leads to: a role named `switchyard` owning its database (its
// default search_path, `"$user", public`, names a schema called like the role), and PostgreSQL 15's recommended
// one, a role confined to a schema of its own in a database where it may not create in public.
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { RunConfigInput } from '@switchyard/contracts/launch-runs';
import { exampleRunConfig, materializeExampleRepos } from '@switchyard/launch-runs';
import { startTestPostgres, type TestPostgres } from '@switchyard/test-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedEveryMigration, connectStdio, DUMMY_KEYS, REPO_ROOT, runBin, tempDir } from './helpers.js';

let server: TestPostgres;
const reposDir = tempDir('switchyard-schema-repos-');
let runConfig: RunConfigInput;
beforeAll(async () => {
  server = await startTestPostgres();
  runConfig = exampleRunConfig(await materializeExampleRepos(path.join(reposDir, 'example')));
});
afterAll(async () => server?.stop());

/** Runs `sql` in the database of `url` as whoever `url` names. */
async function query<Row extends pg.QueryResultRow>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** `url` (the administrator's, from createDatabase) as `role`. */
function urlAs(url: string, role: string, password: string): string {
  const as = new URL(url);
  as.username = role;
  as.password = password;
  return as.href;
}

/** The schema of each table Switchyard created, by table name. */
async function tableSchemas(url: string): Promise<Record<string, string>> {
  const rows = await query<{ table_name: string; table_schema: string }>(
    url,
    "SELECT table_name, table_schema FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
  );
  return Object.fromEntries(rows.map((row) => [row.table_name, row.table_schema]));
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as Record<string, unknown>;
}

/**
 * `switchyard migrate` applies every domain's migrations, a second run finds nothing to do, and the server then
 * keeps a saved place, a journey's session (found by full-text search) and a launch run in that database.
 */
async function migrateAndServe(url: string): Promise<void> {
  const env = { ...DUMMY_KEYS, SWITCHYARD_DATABASE_URL: url, LAUNCH_REPO_ROOTS: reposDir };
  const migrated = await runBin(['migrate'], env);
  expect(migrated).toMatchObject({ code: 0, stderr: '' });
  expect(migrated.stdout).toMatch(appliedEveryMigration('.+'));
  expect((await runBin(['migrate'], env)).stdout).toMatch(
    /^transit: up to date at .+\njourney-continuity: up to date at .+\nlaunch-runs: up to date at .+\n$/,
  );

  const { client, close } = await connectStdio({ ...env, SWITCHYARD_DATA_DIR: tempDir() });
  try {
    const home = { type: 'location', lat: 60.1699, lon: 24.9384, name: 'Home' };
    await call(client, 'save_user_variable', { key: 'home', value: home });
    expect(await call(client, 'get_user_variables', {})).toMatchObject({
      variables: [{ key: 'home', value: home }],
    });

    const journey = await call(client, 'get_or_create_journey', { user_id: randomUUID() });
    const journeyId = journey.journey_id as string;
    await call(client, 'record_session', { journey_id: journeyId, summary: 'Planned the ferry trip' });
    expect(
      await call(client, 'query_journey_history', { journey_id: journeyId, query: 'ferry' }),
    ).toMatchObject({
      total_results: 1,
    });

    const started = await call(client, 'launch_start_run', { run_config: runConfig });
    const listed = await call(client, 'launch_list_runs', {});
    expect(listed.runs).toEqual([expect.objectContaining({ run_id: started.run_id })]);
  } finally {
    await close();
  }
}

const DOMAIN_TABLES = [
  'saved_places',
  'journeys',
  'sessions',
  'documents',
  'runs',
  'events',
  'issues',
  'artifacts',
];

describe('switchyard on PostgreSQL, whatever the role’s search_path', () => {
  it('migrates and serves for a role named `switchyard`, keeping the tables in public', async () => {
    const admin = await server.createDatabase();
    const password = await server.createRole('switchyard');
    await query(admin, `ALTER DATABASE "${new URL(admin).pathname.slice(1)}" OWNER TO switchyard`);

    await migrateAndServe(urlAs(admin, 'switchyard', password));

    const schemas = await tableSchemas(admin);
    for (const table of DOMAIN_TABLES) expect(schemas[table], table).toBe('public');
    expect(await query(admin, "SELECT 1 FROM pg_namespace WHERE nspname = 'switchyard'")).toEqual([]);
  });

  it('migrates and serves for a role confined to its own schema, keeping every table there', async () => {
    const admin = await server.createDatabase();
    const role = `app_${randomBytes(4).toString('hex')}`;
    const password = await server.createRole(role);
    // PostgreSQL 15's default, said explicitly: only the database's owner creates in public.
    await query(admin, 'REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    await query(admin, `CREATE SCHEMA ${role} AUTHORIZATION ${role}`);
    await query(admin, `ALTER ROLE ${role} SET search_path = ${role}`);

    await migrateAndServe(urlAs(admin, role, password));

    const schemas = await tableSchemas(admin);
    for (const table of DOMAIN_TABLES) expect(schemas[table], table).toBe(role);
    expect(Object.values(schemas).filter((schema) => schema !== role)).toEqual([]);
  });
});

/** Every committed PostgreSQL migration of the repository: its path from the root, and its SQL. */
function postgresMigrations(): { file: string; sql: string }[] {
  return ['packages', 'apps'].flatMap((group) =>
    fs.readdirSync(path.join(REPO_ROOT, group)).flatMap((name) => {
      const folder = path.join(group, name, 'drizzle-postgres');
      if (!fs.existsSync(path.join(REPO_ROOT, folder))) return [];
      return fs
        .readdirSync(path.join(REPO_ROOT, folder))
        .filter((file) => file.endsWith('.sql'))
        .map((file) => ({
          file: path.join(folder, file),
          sql: fs.readFileSync(path.join(REPO_ROOT, folder, file), 'utf8'),
        }));
    }),
  );
}

/** A schema made, or an object named with its schema (`"public"."journeys"`), outside comments. */
const NAMES_A_SCHEMA =
  /\bCREATE\s+SCHEMA\b|\b(?:SCHEMA|TABLE|REFERENCES|ON|INDEX|SEQUENCE|TYPE|VIEW|FUNCTION|CONFIGURATION|DICTIONARY)\s+(?:IF\s+(?:NOT\s+)?EXISTS\s+)?("[^"]+"|\w+)\s*\.\s*("[^"]+"|\w+)/gi;

describe('the committed PostgreSQL migrations', () => {
  const migrations = postgresMigrations();

  it('are found (every domain has some)', () => {
    expect(migrations.length).toBeGreaterThanOrEqual(3);
  });

  it.each(migrations.map(({ file, sql }) => [file, sql]))('%s names no schema', (file, sql) => {
    const named = sql.replace(/--.*$/gm, '').match(NAMES_A_SCHEMA) ?? [];
    expect(
      named,
      `${file} names a schema (${named.join(', ')}): a domain's objects follow the connection's search_path, ` +
        'when migrating and when serving. drizzle-kit generate writes "public". into foreign keys: remove it.',
    ).toEqual([]);
  });
});
