// Journey's modules never load the MCP SDK, even indirectly: the SDK belongs to the server that mounts the
// domain (server-kit loads it when it starts serving). A fresh process imports the compiled modules (every
// one but the bin, which starts a server) with its package imports recorded. Needs dist/: `pnpm build`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledModules, packagesImportedBy } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const isSdk = (name: string): boolean => name.startsWith('@modelcontextprotocol/');

describe('loading journey-continuity without the MCP SDK', () => {
  it('dist/journeys/*.js load no @modelcontextprotocol package', () => {
    const packages = packagesImportedBy(compiledModules(root, 'journeys'), root);
    // The record works: the logic's own dependencies are in it (drizzle with the store).
    expect(packages).toEqual(expect.arrayContaining(['@switchyard/contracts', 'drizzle-orm']));
    expect(packages.filter(isSdk)).toEqual([]);
  });

  it('dist/index.js loads none', () => {
    const packages = packagesImportedBy([path.join(root, 'dist', 'index.js')], root);
    expect(packages).toEqual(expect.arrayContaining(['@switchyard/server-kit', 'better-sqlite3', 'zod']));
    expect(packages.filter(isSdk)).toEqual([]);
  });

  it('no compiled module but the bin loads one', () => {
    expect(packagesImportedBy(compiledModules(root, '', ['bin.ts']), root).filter(isSdk)).toEqual([]);
  });
});
