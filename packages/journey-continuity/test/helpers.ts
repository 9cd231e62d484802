import Database from 'better-sqlite3';
import fs from 'node:fs';
import pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { JourneyErrorPayloadSchema } from '@switchyard/contracts/journey';
import { oauthPrincipal } from '@switchyard/server-kit';
import { createLogger, resolvePostgresSettings, type LogLevel } from '@switchyard/server-kit/runtime';
import { DIALECTS, lazyTestPostgres, type Dialect } from '@switchyard/test-postgres';
import {
  callTool,
  connectInMemory,
  contractErrorOf,
  type ConnectInMemoryOptions,
  type ProtocolEra,
  type ToolAnswer,
} from '@switchyard/server-kit/testing';
import { afterAll, expect } from 'vitest';
import {
  DATABASE_FILE_NAME,
  DATABASE_URL_VARIABLE,
  journeyDomain,
  loadJourneyConfig,
  type JourneyConfig,
  type JourneyState,
} from '../src/index.js';

export interface Harness {
  dataDir: string;
  dbFile: string;
  /** The opened domain as the server holds it (ready, close, the journey service). */
  state: JourneyState;
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  /** Calls a tool that must succeed; returns its structured content. */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must fail with the journey error shape; returns `error`. */
  fails(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ status: number; code: string; message: string }>;
  /**
   * Rows of `sql` (placeholders `?`) run straight on the harness's database, SQLite or PostgreSQL, outside the
   * server: what is really stored.
   */
  rows<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** Closes the client, the server and the domain (the data directory stays). */
  stop(): Promise<void>;
}

export interface HarnessOptions {
  /** A new temp dir by default. */
  dataDir?: string;
  /** Where journeys live (default the data directory's SQLite file); see `storageFor`. */
  storage?: Partial<JourneyConfig>;
  /** Over the defaults of `loadJourneyConfig`. */
  config?: Partial<JourneyConfig>;
  /** The protocol era the client speaks (default modern: 2026-07-28). */
  era?: ProtocolEra;
  /** Modern era: who the client is, as the HTTP layer's token check would say (default: the local user). */
  authInfo?: ConnectInMemoryOptions['authInfo'];
  /** What the harness logs into `logLines` (default error). */
  logLevel?: LogLevel;
  /** The server's answer limit in bytes (default 1 MiB). */
  maxAnswerBytes?: number;
}

/** The scopes of an OAuth user of the journey tools. */
export const USER_SCOPES = ['journey:read', 'journey:write'];

/** The AuthInfo the HTTP layer builds for a verified token of `subject` (issuer-qualified when given). */
export function oauthCaller(subject: string, scopes: string[], qualifyingIssuer?: string) {
  return {
    token: `oauth-fingerprint-${subject}`,
    clientId: subject,
    scopes,
    extra: { principal: oauthPrincipal(subject, qualifyingIssuer), oauth: { subject, qualifyingIssuer } },
  };
}

/** Every log line the harnesses wrote (for assertions about what logs contain). */
export const logLines: string[] = [];

const tempDirs: string[] = [];
// Registered for every test file that imports these helpers; runs after that file's own afterAll hooks.
afterAll(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// Every journey rule holds on both databases: the tests that are not about the SQLite file itself run on
// journey-continuity.sqlite and on a real PostgreSQL server (issue #18), started once per test file, for the
// first test that needs it, and stopped after the file's own afterAll hooks (which stop its harnesses).
export { DIALECTS, type Dialect };

const postgres = lazyTestPostgres();
afterAll(() => postgres.stop());

/** A new, empty PostgreSQL database on the file's test server: its URL. */
export function postgresDatabase(): Promise<string> {
  return postgres.createDatabase();
}

/**
 * The configuration that keeps journeys in `dialect`: nothing for SQLite (the data directory's file), a new
 * PostgreSQL database (migrated on start) otherwise. Harnesses given the same one share their journeys.
 */
export async function storageFor(dialect: Dialect): Promise<Partial<JourneyConfig>> {
  if (dialect === 'sqlite') return {};
  const env = { [DATABASE_URL_VARIABLE]: await postgresDatabase(), SWITCHYARD_MIGRATE_ON_START: '1' };
  return { database: resolvePostgresSettings(env, DATABASE_URL_VARIABLE)! };
}

/** A fresh data directory, removed after the test file. */
export function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journey-test-'));
  tempDirs.push(dir);
  return dir;
}

/** The journey domain opened on `dataDir` (a new temp dir by default) behind a real MCP Client. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dataDir = options.dataDir ?? tempDataDir();
  const config = { ...loadJourneyConfig({}), ...options.storage, ...options.config };
  // Failures are logged at error level by design; keep them out of the test output.
  const logger = createLogger({ level: options.logLevel ?? 'error', write: (line) => logLines.push(line) });
  const connection = await connectInMemory([{ domain: journeyDomain, config }], {
    dataDir,
    logger,
    ...(options.era === undefined ? {} : { era: options.era }),
    ...(options.authInfo === undefined ? {} : { authInfo: options.authInfo }),
    maxAnswerBytes: options.maxAnswerBytes,
  });
  const { client } = connection;
  const state = connection.domains.get(journeyDomain.name) as JourneyState;
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> => {
    const answer = await callTool(client, name, args);
    expect(JSON.parse(answer.text)).toEqual(answer.structured);
    return answer;
  };
  let stopped: Promise<void> | undefined;
  const dbFile = path.join(dataDir, DATABASE_FILE_NAME);
  return {
    dataDir,
    dbFile,
    rows: (sql, ...params) => rowsIn(config.database?.url ?? dbFile, sql, params),
    state,
    client,
    call,
    async ok<T>(name: string, args: Record<string, unknown> = {}) {
      const answer = await call(name, args);
      if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.structured)}`);
      return answer.structured as T;
    },
    fails: async (name, args) => contractErrorOf(await call(name, args), JourneyErrorPayloadSchema),
    stop() {
      stopped ??= connection.close();
      return stopped;
    },
  };
}

async function rowsIn<T>(database: string, sql: string, params: unknown[]): Promise<T[]> {
  if (!database.startsWith('postgres')) {
    const db = new Database(database);
    try {
      const statement = db.prepare(sql);
      return (statement.reader ? statement.all(...params) : (statement.run(...params), [])) as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    let n = 0;
    return (
      await client.query(
        sql.replaceAll('?', () => `$${++n}`),
        params,
      )
    ).rows as T[];
  } finally {
    await client.end();
  }
}

export interface JourneyOut {
  journey_id: string;
  user_id?: string | null;
  created_at: string;
  session_count: number;
  is_new: boolean;
}

export interface SessionOut {
  session_id: string;
  created_at: string;
  summary: string;
  summary_truncated?: true;
  summary_bytes?: number;
  has_diagnosis: boolean;
  relevance_score?: number;
  snippet?: string;
}

export interface DocumentOut {
  document_id: string;
  document_type: string;
  title?: string;
  title_truncated?: true;
  created_at: string;
  snippet?: string;
}

export interface HistoryOut {
  journey_id: string;
  sessions: SessionOut[];
  documents?: DocumentOut[];
  total_results: number;
  next_cursor?: string | null;
}

export async function newJourney(h: Harness, userId?: string): Promise<string> {
  const journey = await h.ok<JourneyOut>(
    'get_or_create_journey',
    userId === undefined ? {} : { user_id: userId },
  );
  return journey.journey_id;
}

export async function record(
  h: Harness,
  journeyId: string,
  summary: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const session = await h.ok<{ session_id: string }>('record_session', {
    journey_id: journeyId,
    summary,
    ...extra,
  });
  return session.session_id;
}

export function history(h: Harness, args: Record<string, unknown>): Promise<HistoryOut> {
  return h.ok<HistoryOut>('query_journey_history', args);
}
