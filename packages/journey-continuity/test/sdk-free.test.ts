// The journey logic never loads the MCP SDK, even indirectly: the SDK belongs to the server that mounts the
// domain (server-kit loads it when it starts serving). A fresh process imports the compiled modules (every
// one but the bin, which starts a server) with its package imports recorded. Needs dist/: `pnpm build`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { recordPackageImports } from '@switchyard/server-kit/testing';
import { describe, expect, it, onTestFinished } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SDK = '@modelcontextprotocol/';

/** The compiled files of the source modules under `folder` of src/ (so stale files in dist/ do not count). */
function compiledModules(folder: string, except: readonly string[] = []): string[] {
  const src = path.join(root, 'src', folder);
  return fs
    .readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !except.includes(file))
    .map((file) => path.join(root, 'dist', folder, file.replace(/\.ts$/, '.js')))
    .sort();
}

/** The packages a fresh Node process loads while it imports `files`, in order. */
function packagesLoadedBy(files: readonly string[]): string[] {
  for (const file of files) expect(fs.existsSync(file), `${file} is missing: run pnpm build`).toBe(true);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journey-sdk-free-'));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  const imports = recordPackageImports(path.join(dir, 'imports.log'));
  const script = files.map((file) => `await import(${JSON.stringify(pathToFileURL(file).href)});`).join('\n');
  const result = spawnSync(process.execPath, [...imports.execArgv, '--input-type=module', '-e', script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.status, result.stderr).toBe(0);
  return imports.packages();
}

describe('loading journey-continuity without the MCP SDK', () => {
  it('dist/journeys/*.js load no @modelcontextprotocol package', () => {
    const packages = packagesLoadedBy(compiledModules('journeys'));
    // The record works: the logic's own dependencies are in it (drizzle with the store).
    expect(packages).toEqual(expect.arrayContaining(['@switchyard/contracts', 'drizzle-orm']));
    expect(packages.filter((name) => name.startsWith(SDK))).toEqual([]);
  });

  it('dist/index.js loads none', () => {
    const packages = packagesLoadedBy([path.join(root, 'dist', 'index.js')]);
    expect(packages).toEqual(expect.arrayContaining(['@switchyard/server-kit', 'better-sqlite3', 'zod']));
    expect(packages.filter((name) => name.startsWith(SDK))).toEqual([]);
  });

  it('no compiled module but the bin loads one', () => {
    const packages = packagesLoadedBy(compiledModules('', ['bin.ts']));
    expect(packages.filter((name) => name.startsWith(SDK))).toEqual([]);
  });
});
