// Transit's modules never load the MCP SDK, even indirectly: the SDK belongs to the server that mounts the
// domain (server-kit loads it when it starts serving). A fresh process imports the compiled modules (every
// one but the bin, which starts a server) with its package imports recorded. Needs dist/: `pnpm build`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledModules, packagesImportedBy } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const isSdk = (name: string): boolean => name.startsWith('@modelcontextprotocol/');

describe('loading transit without the MCP SDK', () => {
  it('dist/index.js and dist/hsl/client.js load no @modelcontextprotocol package', () => {
    const files = ['index.js', 'hsl/client.js'].map((file) => path.join(root, 'dist', file));
    const packages = packagesImportedBy(files, root);
    // The record works: the domain's own dependencies are in it.
    expect(packages).toEqual(
      expect.arrayContaining(['@switchyard/resilience', '@switchyard/server-kit', 'zod']),
    );
    expect(packages.filter(isSdk)).toEqual([]);
  });

  it('no compiled module but the bin loads one', () => {
    expect(packagesImportedBy(compiledModules(root, '', ['bin.ts']), root).filter(isSdk)).toEqual([]);
  });
});
