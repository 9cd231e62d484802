import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packagesImportedBy } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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
    const loaded = packagesImportedBy([path.join(packageDir, entry)], packageDir);
    expect(loaded).not.toEqual([]); // the hook saw the imports
    expect(loaded.filter((name) => name.startsWith('@modelcontextprotocol/'))).toEqual([]);
  });
});
