import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JourneyErrorPayloadSchema } from '@switchyard/contracts/journey';
import { connectRecordingImports, DRIZZLE_QUERY_BUILDER } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { JOURNEY_TOOL_NAMES } from '../src/index.js';
import { tempDataDir } from './helpers.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(packageDir, 'src', 'bin.ts');

describe('cold start of switchyard-journey', () => {
  it('opens the database at start but loads drizzle only with the first tool call that uses the store', async () => {
    const dir = tempDataDir();
    const { client, imports } = await connectRecordingImports({
      bin,
      cwd: packageDir,
      logFile: path.join(dir, 'imports.log'),
      env: {
        ...(process.env as Record<string, string>),
        SWITCHYARD_DATA_DIR: path.join(dir, 'data'),
        SWITCHYARD_LOG_LEVEL: 'error',
      },
    });
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
      for (const specifier of DRIZZLE_QUERY_BUILDER) expect(atStart).not.toContain(specifier);
      // The embedded default never loads the PostgreSQL driver.
      expect(atStart).not.toContain('pg');

      const journey = await client.callTool({ name: 'get_or_create_journey', arguments: {} });
      expect(journey.isError).toBeFalsy();
      expect(journey.structuredContent).toMatchObject({ is_new: true, session_count: 0 });
      expect(imports.specifiers()).toEqual(expect.arrayContaining(DRIZZLE_QUERY_BUILDER));
    } finally {
      await client.close();
    }
  }, 60_000);
});
