import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';

export interface OpenDatabaseOptions {
  /** The database file; its directory is created if missing. */
  file: string;
  /** A drizzle-kit migrations folder (with `meta/_journal.json`), applied on open. */
  migrationsFolder: string;
  /** How long a writer waits for another process's lock before failing (ms). */
  busyTimeoutMs?: number;
}

const MIGRATIONS_TABLE = '__drizzle_migrations';
const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Blocks this thread for `ms` (opening a database is synchronous, like better-sqlite3 itself). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Switches the file to WAL. Changing the journal mode needs a lock SQLite does not wait for with the busy
 * handler: when another process opens the same new file at that moment, the pragma fails at once with
 * SQLITE_BUSY. So it is retried, with a short pause, for as long as the busy timeout allows.
 */
function useWriteAheadLog(db: Database.Database, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const busy = (error as { code?: unknown }).code === 'SQLITE_BUSY';
      if (!busy || Date.now() + pause > deadline) throw error;
      sleepSync(pause);
    }
  }
}

function writable(folder: string): boolean {
  try {
    fs.accessSync(folder, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `error` with the file it happened to (SQLite's own messages, "unable to open database file", name none) and,
 * when its folder is not writable, that; the error's `code` stays for callers that map it.
 */
function inFile(file: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  const folder = path.dirname(file);
  const unwritable = writable(folder)
    ? ''
    : `; the folder ${folder} is not writable by this process (set SWITCHYARD_DATA_DIR to one that is)`;
  const code = (error as { code?: unknown } | null)?.code;
  return Object.assign(
    new Error(`${file}: ${reason}${unwritable}`, { cause: error }),
    code === undefined ? {} : { code },
  );
}

/**
 * Opens a SQLite file for a domain: WAL, a busy timeout, foreign keys on, committed migrations applied.
 * Several processes may open the same file at once. A failure names the file.
 */
export function openDatabase(options: OpenDatabaseOptions): Database.Database {
  try {
    return openMigrated(options);
  } catch (error) {
    throw inFile(options.file, error);
  }
}

function openMigrated(options: OpenDatabaseOptions): Database.Database {
  fs.mkdirSync(path.dirname(options.file), { recursive: true });
  const db = new Database(options.file);
  try {
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    useWriteAheadLog(db, busyTimeoutMs);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    applyMigrations(db, options.migrationsFolder);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Applies drizzle-kit migrations with drizzle's bookkeeping table. drizzle's own migrator reads the last
 * applied migration before it takes the write lock, so two processes starting together could both apply
 * the same migration; here the read and the writes happen inside one `BEGIN IMMEDIATE` transaction.
 */
export function applyMigrations(db: Database.Database, migrationsFolder: string): void {
  const migrations = readMigrationFiles({ migrationsFolder });
  const apply = db.transaction(() => {
    db.exec(
      `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`,
    );
    const last = db
      .prepare(`SELECT created_at FROM "${MIGRATIONS_TABLE}" ORDER BY created_at DESC LIMIT 1`)
      .get() as { created_at: number | string } | undefined;
    const lastMillis = last === undefined ? -Infinity : Number(last.created_at);
    const record = db.prepare(`INSERT INTO "${MIGRATIONS_TABLE}" ("hash", "created_at") VALUES (?, ?)`);
    for (const migration of migrations) {
      if (migration.folderMillis <= lastMillis) continue;
      for (const statement of migration.sql) {
        if (statement.trim() !== '') db.exec(statement);
      }
      record.run(migration.hash, migration.folderMillis);
    }
  });
  apply.immediate();
}
