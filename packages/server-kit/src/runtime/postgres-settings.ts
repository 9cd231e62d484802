import { registerSecret } from '@switchyard/resilience/context';
import { ConfigError } from './config-error.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where a domain's PostgreSQL database is and how the server uses it. */
export interface PostgresSettings {
  url: string;
  /** The variable `url` came from (named in every start-up error). */
  variable: string;
  /** Connections in the pool (SWITCHYARD_DATABASE_POOL_MAX, default 10). */
  poolMax: number;
  /** A statement running longer is cancelled (SWITCHYARD_DATABASE_STATEMENT_TIMEOUT_MS, default 5 000). */
  statementTimeoutMs: number;
  /** Connecting gives up after this (SWITCHYARD_DATABASE_CONNECT_TIMEOUT_MS, default 5 000). */
  connectTimeoutMs: number;
  /**
   * A query whose answer has not arrived after this long ends its connection, and a transaction left idle
   * this long is ended by PostgreSQL: a stalled network cannot hold a call, nor a row lock, forever
   * (SWITCHYARD_DATABASE_QUERY_TIMEOUT_MS, default the statement timeout plus 5 000; longer than it).
   */
  queryTimeoutMs: number;
  /** Apply pending migrations at start instead of refusing to start (SWITCHYARD_MIGRATE_ON_START=1). */
  migrateOnStart: boolean;
}

export const DATABASE_URL_VARIABLE = 'SWITCHYARD_DATABASE_URL';

const NUMBERS = {
  poolMax: { variable: 'SWITCHYARD_DATABASE_POOL_MAX', default: 10, min: 1 },
  statementTimeoutMs: { variable: 'SWITCHYARD_DATABASE_STATEMENT_TIMEOUT_MS', default: 5_000, min: 1 },
  connectTimeoutMs: { variable: 'SWITCHYARD_DATABASE_CONNECT_TIMEOUT_MS', default: 5_000, min: 1 },
} as const;

const QUERY_TIMEOUT_VARIABLE = 'SWITCHYARD_DATABASE_QUERY_TIMEOUT_MS';
/** How much longer than the statement timeout an answer may take by default (the cancel's round trip). */
const QUERY_TIMEOUT_MARGIN_MS = 5_000;

function wholeNumber(env: Env, variable: string, fallback: number, min: number): number {
  const raw = env[variable]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(variable, `must be a whole number of at least ${min}, got "${raw}"`);
  }
  return value;
}

function numberSetting(env: Env, name: keyof typeof NUMBERS): number {
  const { variable, default: fallback, min } = NUMBERS[name];
  return wholeNumber(env, variable, fallback, min);
}

/**
 * The query timeout: longer than the statement timeout, so that PostgreSQL cancels a slow statement (an
 * answer the caller gets: "busy") before the connection is given up on.
 */
function queryTimeout(env: Env, statementTimeoutMs: number): number {
  const fallback = statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS;
  const value = wholeNumber(env, QUERY_TIMEOUT_VARIABLE, fallback, 1);
  if (value <= statementTimeoutMs) {
    throw new ConfigError(
      QUERY_TIMEOUT_VARIABLE,
      `must be longer than ${NUMBERS.statementTimeoutMs.variable} (${statementTimeoutMs}), got "${value}"`,
    );
  }
  return value;
}

function flag(env: Env, variable: string): boolean {
  const raw = env[variable]?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(variable, `must be 1 or 0, got "${raw}"`);
}

/**
 * A domain's PostgreSQL settings: its own variable (`TRANSIT_DATABASE_URL`...) wins over
 * SWITCHYARD_DATABASE_URL; with neither, undefined (the domain keeps its embedded SQLite file). The URL's
 * password is registered as a secret.
 */
export function resolvePostgresSettings(env: Env, domainVariable: string): PostgresSettings | undefined {
  const variable = env[domainVariable]?.trim() ? domainVariable : DATABASE_URL_VARIABLE;
  const url = env[variable]?.trim();
  if (url === undefined || url === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(variable, 'must be a URL like postgres://user:password@host:5432/database');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ConfigError(
      variable,
      `must be a postgres:// URL (like postgres://user:password@host:5432/database), got a ${parsed.protocol} URL`,
    );
  }
  // The password may reach a driver's error or a log line: redacted wherever it appears.
  registerSecret(decodeURIComponent(parsed.password));
  const statementTimeoutMs = numberSetting(env, 'statementTimeoutMs');
  return {
    url,
    variable,
    poolMax: numberSetting(env, 'poolMax'),
    statementTimeoutMs,
    connectTimeoutMs: numberSetting(env, 'connectTimeoutMs'),
    queryTimeoutMs: queryTimeout(env, statementTimeoutMs),
    migrateOnStart: flag(env, 'SWITCHYARD_MIGRATE_ON_START'),
  };
}

/** Where the URL points, without user or password: for messages. */
export function describeDatabase(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

/** Where a domain keeps its data, as a start-up report names it (never with the URL's password). */
export function describeStorage(database: PostgresSettings | undefined, dataDir: string): string {
  if (database === undefined) return `embedded SQLite in ${dataDir}`;
  return `PostgreSQL at ${describeDatabase(database.url)} (${database.variable})`;
}
