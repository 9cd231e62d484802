import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readWhenWritten } from '../src/testing.js';
import { tempDir } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('readWhenWritten', () => {
  it('waits while the file is missing or half written, and reads it once it is whole', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = path.join(dir, 'report.json');
    let reads = 0;
    const read = () => {
      reads += 1;
      // What another process leaves on the way: nothing, then half the JSON, then all of it.
      if (reads === 2) fs.writeFileSync(file, '{"rss": 12');
      if (reads === 3) fs.writeFileSync(file, '{"rss": 12}');
      return JSON.parse(fs.readFileSync(file, 'utf8')) as { rss: number };
    };
    await expect(readWhenWritten(read, { gaveUp: 'never written', intervalMs: 1 })).resolves.toEqual({
      rss: 12,
    });
    expect(reads).toBe(3);
  });

  it('gives up with its message once the time is over', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const missing = path.join(dir, 'never.json');
    await expect(
      readWhenWritten(() => fs.readFileSync(missing, 'utf8'), {
        gaveUp: 'the server wrote no report',
        timeoutMs: 20,
        intervalMs: 5,
      }),
    ).rejects.toThrow('the server wrote no report');
  });
});
