import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/runtime/index.js';
import { FIXTURES_DIR, hasMessage, spawnFixture, tempDir } from './helpers.js';

const MIGRATIONS = path.join(FIXTURES_DIR, 'migrations');

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

function openTracked(file: string, migrationsFolder = MIGRATIONS, busyTimeoutMs?: number): Database.Database {
  const db = openDatabase({
    file,
    migrationsFolder,
    ...(busyTimeoutMs === undefined ? {} : { busyTimeoutMs }),
  });
  open.push(db);
  return db;
}

function appliedMigrations(db: Database.Database): { hash: string; created_at: number }[] {
  return db.prepare('SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at').all() as {
    hash: string;
    created_at: number;
  }[];
}

function tables(db: Database.Database): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((row) => row.name);
}

/** A copy of the fixture migrations that a test may extend. */
function migrationsCopy(): string {
  const dir = path.join(tempDir(), 'migrations');
  fs.cpSync(MIGRATIONS, dir, { recursive: true });
  return dir;
}

function addMigration(folder: string, tag: string, when: number, sql: string): void {
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Record<string, unknown>[] };
  journal.entries.push({ idx: journal.entries.length, version: '6', when, tag, breakpoints: true });
  fs.writeFileSync(journalFile, JSON.stringify(journal, null, 2));
  fs.writeFileSync(path.join(folder, `${tag}.sql`), sql);
}

describe('openDatabase', () => {
  it('creates the directory and opens in WAL with foreign keys and a busy timeout', () => {
    const file = path.join(tempDir(), 'nested', 'dir', 'domain.db');
    const db = openTracked(file);
    expect(fs.existsSync(file)).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    const custom = openTracked(path.join(tempDir(), 'other.db'), MIGRATIONS, 1234);
    expect(custom.pragma('busy_timeout', { simple: true })).toBe(1234);
  });

  it('enforces foreign keys', () => {
    const db = openTracked(path.join(tempDir(), 'fk.db'));
    db.prepare('INSERT INTO owners (id, name) VALUES (1, ?)').run('Ada');
    db.prepare('INSERT INTO pets (owner_id, name) VALUES (1, ?)').run('Rex');
    expect(() => db.prepare('INSERT INTO pets (owner_id, name) VALUES (99, ?)').run('Ghost')).toThrow(
      /FOREIGN KEY constraint failed/,
    );
    db.prepare('DELETE FROM owners WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM pets').get()).toEqual({ n: 0 });
  });

  it('applies every migration once, in order, and nothing again on reopen', () => {
    const file = path.join(tempDir(), 'once.db');
    const first = openTracked(file);
    expect(tables(first)).toEqual(['__drizzle_migrations', 'owners', 'pets']);
    expect(first.prepare('SELECT note FROM owners').all()).toEqual([]);
    const applied = appliedMigrations(first);
    expect(applied.map((row) => Number(row.created_at))).toEqual([1750000000000, 1750000100000]);
    expect(applied.every((row) => /^[0-9a-f]{64}$/.test(row.hash))).toBe(true);
    first.close();
    // A second run of 0001 (ALTER TABLE ADD) would throw "duplicate column".
    const second = openTracked(file);
    expect(appliedMigrations(second)).toEqual(applied);
  });

  it('applies only the migrations added since the last open', () => {
    const folder = migrationsCopy();
    const file = path.join(tempDir(), 'grow.db');
    openTracked(file, folder).close();
    addMigration(
      folder,
      '0002_toys',
      1750000200000,
      'CREATE TABLE `toys` (`id` integer PRIMARY KEY NOT NULL);',
    );
    const db = openTracked(file, folder);
    expect(tables(db)).toContain('toys');
    expect(appliedMigrations(db)).toHaveLength(3);
  });

  it('rolls back a failing migration completely and closes the handle', () => {
    const folder = migrationsCopy();
    addMigration(
      folder,
      '0002_broken',
      1750000200000,
      'CREATE TABLE `half_done` (`id` integer);\n--> statement-breakpoint\nCREATE TABLE `owners` (`id` integer);',
    );
    const file = path.join(tempDir(), 'broken.db');
    expect(() => openDatabase({ file, migrationsFolder: folder })).toThrow(/table `owners` already exists/);
    const db = openTracked(file, MIGRATIONS);
    expect(tables(db)).not.toContain('half_done');
    // Nothing of the failed run was kept: the good migrations apply now from scratch.
    expect(appliedMigrations(db)).toHaveLength(2);
  });

  it('keeps drizzle’s own bookkeeping, so drizzle’s migrator agrees nothing is pending', () => {
    const db = openTracked(path.join(tempDir(), 'compat.db'));
    migrate(drizzle(db), { migrationsFolder: MIGRATIONS });
    expect(appliedMigrations(db)).toHaveLength(2);
  });

  it('lets several processes open the same new file at once: all succeed, each migration recorded once', async () => {
    const file = path.join(tempDir(), 'shared', 'race.db');
    const children = Array.from({ length: 3 }, () => spawnFixture('open-db.ts', {}, [file, MIGRATIONS]));
    try {
      await Promise.all(children.map((child) => child.waitForLine(hasMessage('ready'))));
      for (const child of children) child.child.stdin?.end('go\n');
      const codes = await Promise.all(children.map((child) => child.exited));
      expect(codes, children.map((child) => child.stderrLines.join('\n')).join('\n---\n')).toEqual([0, 0, 0]);
      for (const child of children) expect(child.stderrLines).toContain('{"msg":"opened","journal":"wal"}');
      const db = openTracked(file);
      expect(appliedMigrations(db)).toHaveLength(2);
      expect(tables(db)).toEqual(['__drizzle_migrations', 'owners', 'pets']);
    } finally {
      for (const child of children) if (child.child.exitCode === null) child.child.kill('SIGKILL');
    }
  });
});
