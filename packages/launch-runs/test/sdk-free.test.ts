import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { recordPackageImports } from '@switchyard/server-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './support/harness.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = tempDir('sdk-free');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/**
 * The package's entry (the domain declaration and its exports) and its logic: the pipeline, the run store
 * and service, telemetry. None of them may load the MCP SDK, even indirectly; only serving does (server-kit
 * loads it when runServer starts), so an embedding or a benchmark of the logic never pays for it.
 */
const ENTRIES = [
  'dist/index.js',
  'dist/pipeline/index.js',
  'dist/runs/open-runs.js',
  'dist/telemetry/telemetry.js',
];

describe('importing launch-runs loads no MCP SDK', () => {
  it.each(ENTRIES)('%s (built)', (entry) => {
    const file = path.join(packageDir, entry);
    if (!fs.existsSync(file)) {
      throw new Error(
        `${entry} is missing: build first (pnpm turbo run build --filter=@switchyard/launch-runs...)`,
      );
    }
    const imports = recordPackageImports(path.join(scratch, `${entry.replace(/\W/g, '_')}.log`));
    const run = spawnSync(
      process.execPath,
      [
        ...imports.execArgv,
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(pathToFileURL(file).href)});`,
      ],
      { cwd: packageDir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const loaded = imports.packages();
    expect(loaded).not.toEqual([]); // the hook saw the imports
    expect(loaded.filter((name) => name.startsWith('@modelcontextprotocol/'))).toEqual([]);
  });
});
