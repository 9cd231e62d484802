// Transit's modules never load the MCP SDK, even indirectly: the SDK belongs to the server that mounts the
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

/** The compiled file of every source module but the bin, from src/ (so stale files in dist/ do not count). */
function compiledModules(): string[] {
  const src = path.join(root, 'src');
  return fs
    .readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && file !== 'bin.ts')
    .map((file) => path.join(root, 'dist', file.replace(/\.ts$/, '.js')))
    .sort();
}

/** The packages a fresh Node process loads while it imports `files`, in order. */
function packagesLoadedBy(files: readonly string[]): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-sdk-free-'));
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

describe('loading transit without the MCP SDK', () => {
  it('dist/index.js and dist/hsl/client.js load no @modelcontextprotocol package', () => {
    const files = ['index.js', 'hsl/client.js'].map((file) => path.join(root, 'dist', file));
    for (const file of files) expect(fs.existsSync(file), `${file} is missing: run pnpm build`).toBe(true);
    const packages = packagesLoadedBy(files);
    // The record works: the domain's own dependencies are in it.
    expect(packages).toEqual(
      expect.arrayContaining(['@switchyard/resilience', '@switchyard/server-kit', 'zod']),
    );
    expect(packages.filter((name) => name.startsWith(SDK))).toEqual([]);
  });

  it('no compiled module but the bin loads one', () => {
    const files = compiledModules();
    for (const file of files) expect(fs.existsSync(file), `${file} is missing: run pnpm build`).toBe(true);
    expect(packagesLoadedBy(files).filter((name) => name.startsWith(SDK))).toEqual([]);
  });
});
