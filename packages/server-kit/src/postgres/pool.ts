import pg from 'pg';
import type { PostgresSettings } from '../runtime/postgres-settings.js';
import { PooledClient } from './pooled-client.js';

/** How a pool is made: the one place every PostgreSQL connection of a server comes from. */
export interface PoolOptions {
  /** Reported to PostgreSQL as the connection's application_name (`switchyard-<name>`). */
  name: string;
  /** Told about every connection that fails, idle or in use (the pool replaces it; nothing is thrown). */
  onConnectionError: (error: Error) => void;
  /**
   * `requests`: the statement timeout, and the query timeout (a stalled answer ends its connection; a
   * transaction left idle that long is ended). `migrations` (which may rewrite a large table, or wait for
   * another replica's): only connecting is bounded.
   */
  purpose: 'requests' | 'migrations';
  /** Connections in the pool (default the settings' pool size). */
  max?: number;
}

/**
 * A pool whose every connection has an error listener from the moment it is made: node-postgres emits a lost
 * connection's error on its client, and a client checked out (a transaction, `pool.connect()`) has no other
 * listener, so without this one the error would end the process. The client's queries fail, and it goes
 * back to the pool, which drops it (see PooledClient).
 */
export function createPool(settings: PostgresSettings, options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: options.max ?? settings.poolMax,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    application_name: `switchyard-${options.name}`,
    Client: PooledClient,
    ...(options.purpose === 'requests'
      ? {
          statement_timeout: settings.statementTimeoutMs,
          idle_in_transaction_session_timeout: settings.queryTimeoutMs,
          answerTimeoutMs: settings.queryTimeoutMs,
        }
      : {}),
  });
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      options.onConnectionError(error);
      (client as PooledClient).releaseBroken(error);
    });
  });
  // The pool passes on an idle connection's error too (after removing it): already told by the client's.
  pool.on('error', () => undefined);
  return pool;
}
