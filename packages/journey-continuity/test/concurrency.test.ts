import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME } from '../src/index.js';
import { tempDataDir } from './helpers.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const worker = path.join(packageDir, 'test', 'fixtures', 'get-or-create-worker.ts');

interface CallResult {
  args: { user_id?: string };
  isError: boolean;
  data: { journey_id: string; user_id: string | null; is_new: boolean; session_count: number };
}

function runWorker(dataDir: string, users: string[], id: number, anonymous: number): Promise<CallResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', worker, dataDir, JSON.stringify(users), String(id), String(anonymous)],
      { cwd: packageDir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`worker ${id} exited ${code}: ${err}`));
      else resolve(JSON.parse(out) as CallResult[]);
    });
  });
}

async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('get_or_create_journey across processes', () => {
  it('several processes sharing one fresh database file create exactly one journey per user', async () => {
    const dataDir = tempDataDir();
    const WORKERS = 4;
    const ANONYMOUS = 5;
    const users = Array.from({ length: 25 }, () => randomUUID());
    const running = Array.from({ length: WORKERS }, (_, id) => runWorker(dataDir, users, id, ANONYMOUS));
    const settled = Promise.allSettled(running);
    // Start every worker's calls together, once all have opened (and raced to migrate) the database.
    const ready = () =>
      Array.from({ length: WORKERS }, (_, id) => `ready-${id}`).every((f) =>
        fs.existsSync(path.join(dataDir, f)),
      );
    await Promise.race([waitFor(ready), settled]);
    fs.writeFileSync(path.join(dataDir, 'go'), '');
    const results = (await Promise.all(running)).flat();

    expect(results.every((r) => !r.isError)).toBe(true);
    for (const user of users) {
      const calls = results.filter((r) => r.args.user_id?.toLowerCase() === user);
      expect(calls).toHaveLength(WORKERS * 2);
      expect(new Set(calls.map((r) => r.data.journey_id)).size).toBe(1);
      expect(calls.filter((r) => r.data.is_new)).toHaveLength(1);
      expect(calls.every((r) => r.data.user_id === user && r.data.session_count === 0)).toBe(true);
    }
    const anonymous = results.filter((r) => r.args.user_id === undefined);
    expect(anonymous).toHaveLength(WORKERS * ANONYMOUS);
    expect(anonymous.every((r) => r.data.is_new && r.data.user_id === null)).toBe(true);
    expect(new Set(anonymous.map((r) => r.data.journey_id)).size).toBe(WORKERS * ANONYMOUS);

    const db = new Database(path.join(dataDir, DATABASE_FILE_NAME), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) FROM journeys WHERE user_id IS NOT NULL').pluck().get()).toBe(
        users.length,
      );
      expect(db.prepare('SELECT count(*) FROM journeys WHERE user_id IS NULL').pluck().get()).toBe(
        WORKERS * ANONYMOUS,
      );
      expect(db.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get()).toBe(3);
    } finally {
      db.close();
    }
  }, 120_000);
});
