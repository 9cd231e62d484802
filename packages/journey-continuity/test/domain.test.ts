import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JOURNEY_TOOL_SCHEMAS } from '@switchyard/contracts/journey';
import {
  ConfigError,
  DEFAULT_BUSY_TIMEOUT_MS,
  DEFAULT_MAX_DOCUMENT_BYTES,
  DEFAULT_MAX_TEXT_BYTES,
  JOURNEY_TOOL_NAMES,
  journeyDomain,
  loadJourneyConfig,
  VERSION,
} from '../src/index.js';
import { largestRequestBytes } from '../src/journeys/limits.js';
import { startHarness, tempDataDir } from './helpers.js';

const packageJson = JSON.parse(
  fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json'), 'utf8'),
) as { version: string };

describe('the journey domain', () => {
  it('is named journey-continuity, carries the package version and is ready once open', async () => {
    expect(journeyDomain.name).toBe('journey-continuity');
    expect(journeyDomain.version).toBe(packageJson.version);
    expect(journeyDomain.toolPrefix).toBe('journey');
    expect(VERSION).toBe(packageJson.version);
    const h = await startHarness();
    try {
      expect(await h.state.ready()).toBe(true);
    } finally {
      await h.stop();
    }
    expect(await h.state.ready()).toBe(false);
  });

  it('declares the largest request its configured document limit needs', () => {
    for (const bytes of [DEFAULT_MAX_DOCUMENT_BYTES, 2048]) {
      const config = loadJourneyConfig({ JOURNEY_MAX_DOCUMENT_BYTES: String(bytes) });
      expect(journeyDomain.maxRequestBytes?.(config)).toBe(largestRequestBytes(bytes));
    }
    // Every character of the largest document may be JSON-escaped to six bytes.
    expect(largestRequestBytes(DEFAULT_MAX_DOCUMENT_BYTES)).toBeGreaterThan(6 * DEFAULT_MAX_DOCUMENT_BYTES);
  });

  it('lists the five tools with their contract schemas and truthful annotations', async () => {
    const h = await startHarness();
    try {
      const { tools } = await h.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...JOURNEY_TOOL_NAMES].sort());
      expect(Object.keys(JOURNEY_TOOL_SCHEMAS).sort()).toEqual([...JOURNEY_TOOL_NAMES].sort());
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(byName.query_journey_history?.annotations).toMatchObject({
        readOnlyHint: true,
        openWorldHint: false,
      });
      expect(byName.delete_journey?.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      });
      for (const name of ['get_or_create_journey', 'add_document_to_journey', 'record_session']) {
        expect(byName[name]?.annotations).toMatchObject({
          readOnlyHint: false,
          idempotentHint: false,
          openWorldHint: false,
        });
      }
      expect(byName.query_journey_history?.inputSchema).toMatchObject({
        required: ['journey_id'],
        additionalProperties: false,
        properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
      });
      expect(byName.add_document_to_journey?.inputSchema).toMatchObject({
        properties: { document_type: { enum: ['woop_plan', 'file_upload', 'artifact', 'note'] } },
      });
      // The listed output schema may be the success payload alone or a union with the error payload.
      const output = byName.get_or_create_journey?.outputSchema as { anyOf?: Record<string, unknown>[] };
      const success = (output.anyOf ?? [output]).find(
        (branch) => 'journey_id' in ((branch.properties ?? {}) as object),
      );
      expect(success).toMatchObject({ required: ['journey_id', 'created_at', 'session_count', 'is_new'] });
      for (const tool of tools) {
        expect(tool.title, tool.name).toBeTruthy();
        expect(tool.description?.length, tool.name).toBeGreaterThan(80);
      }
    } finally {
      await h.stop();
    }
  });
});

describe('loadJourneyConfig', () => {
  it("defaults: 1 MiB documents, 5 s busy timeout (the data directory is the server's, not part of it)", () => {
    const dataDir = tempDataDir();
    expect(loadJourneyConfig({ SWITCHYARD_DATA_DIR: dataDir })).toEqual({
      maxDocumentBytes: DEFAULT_MAX_DOCUMENT_BYTES,
      busyTimeoutMs: DEFAULT_BUSY_TIMEOUT_MS,
    });
    expect(DEFAULT_MAX_DOCUMENT_BYTES).toBe(1024 * 1024);
  });

  it('reads the limits and fails fast naming a bad variable', () => {
    const dataDir = tempDataDir();
    expect(
      loadJourneyConfig({
        SWITCHYARD_DATA_DIR: dataDir,
        JOURNEY_MAX_DOCUMENT_BYTES: '2048',
        JOURNEY_BUSY_TIMEOUT_MS: '0',
      }),
    ).toMatchObject({ maxDocumentBytes: 2048, busyTimeoutMs: 0 });
    const raised = { JOURNEY_MAX_DOCUMENT_BYTES: String(8 << 20), JOURNEY_MAX_TEXT_BYTES: String(8 << 20) };
    expect(loadJourneyConfig(raised)).toMatchObject({ maxDocumentBytes: 8 << 20, maxTextBytes: 8 << 20 });
    expect(() => loadJourneyConfig({ ...raised, JOURNEY_MAX_TEXT_BYTES: String((8 << 20) - 1) })).toThrow(
      /^JOURNEY_MAX_DOCUMENT_BYTES: must be at most JOURNEY_MAX_TEXT_BYTES \(8388607\)/,
    );
    for (const [name, value] of [
      ['JOURNEY_MAX_DOCUMENT_BYTES', '0'],
      ['JOURNEY_MAX_DOCUMENT_BYTES', '1MB'],
      ['JOURNEY_BUSY_TIMEOUT_MS', '-1'],
      // Larger than the 2 MiB a journey holds by default: such a document could never be stored.
      ['JOURNEY_MAX_DOCUMENT_BYTES', String(DEFAULT_MAX_TEXT_BYTES + 1)],
    ] as const) {
      expect(() => loadJourneyConfig({ SWITCHYARD_DATA_DIR: dataDir, [name]: value })).toThrow(ConfigError);
      expect(() => loadJourneyConfig({ SWITCHYARD_DATA_DIR: dataDir, [name]: value })).toThrow(
        new RegExp(`^${name}: `),
      );
    }
  });
});
