import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { JourneyErrorPayloadSchema } from '@switchyard/contracts/journey';
import { recordPackageImports } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { JOURNEY_TOOL_NAMES } from '../src/index.js';
import { tempDataDir } from './helpers.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(packageDir, 'src', 'bin.ts');

/** drizzle's query builder: loaded with the first tool call that needs the store, never to start. */
const QUERY_BUILDER = ['drizzle-orm', 'drizzle-orm/sqlite-core', 'drizzle-orm/better-sqlite3'];

describe('cold start of switchyard-journey', () => {
  it('opens the database at start but loads drizzle only with the first tool call that uses the store', async () => {
    const dir = tempDataDir();
    const imports = recordPackageImports(path.join(dir, 'imports.log'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', ...imports.execArgv, bin],
      cwd: packageDir,
      env: {
        ...(process.env as Record<string, string>),
        SWITCHYARD_DATA_DIR: path.join(dir, 'data'),
        SWITCHYARD_LOG_LEVEL: 'error',
      },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'cold-start-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...JOURNEY_TOOL_NAMES].sort());
      // Bad input is answered from the contract schema alone.
      const invalid = await client.callTool({
        name: 'query_journey_history',
        arguments: { journey_id: 'not-a-uuid' },
      });
      expect(invalid.isError).toBe(true);
      expect(JourneyErrorPayloadSchema.parse(invalid.structuredContent).error).toMatchObject({
        status: 400,
        code: 'VALIDATION_ERROR',
      });

      const atStart = imports.specifiers();
      // The database was opened and migrated at start: raw better-sqlite3 and drizzle's migration reader.
      expect(atStart).toEqual(expect.arrayContaining(['better-sqlite3', 'drizzle-orm/migrator']));
      for (const specifier of QUERY_BUILDER) expect(atStart).not.toContain(specifier);

      const journey = await client.callTool({ name: 'get_or_create_journey', arguments: {} });
      expect(journey.isError).toBeFalsy();
      expect(journey.structuredContent).toMatchObject({ is_new: true, session_count: 0 });
      expect(imports.specifiers()).toEqual(expect.arrayContaining(QUERY_BUILDER));
    } finally {
      await client.close();
    }
  }, 60_000);
});
