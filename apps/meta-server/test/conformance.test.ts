import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baselineEntries as entriesOf,
  checksByScenario,
  runSuite,
  type Revision,
} from './conformance-suite.js';
import { PACKAGE_DIR, spawnHttpServer, tempDir, type SpawnedServer } from './helpers.js';

const BASELINE = path.join(PACKAGE_DIR, 'conformance', 'baseline.yml');
const baselineEntries = (): string[] => entriesOf(BASELINE);

/**
 * Per revision, the scenarios every MCP server with tools and resources must pass, whatever its tools (none
 * of them may be excused as a whole; server-stateless has four checks excused that need the suite's own
 * diagnostic tools). Each runs at its revision's wire: stateless with per-request _meta, or initialize.
 */
const UNIVERSAL_SCENARIOS: Record<Revision, string[]> = {
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'resources-list',
    'prompts-list',
    'completion-complete',
    'sep-2164-resource-not-found',
    'server-sse-multiple-streams',
    'dns-rebinding-protection',
    'caching',
    'http-header-validation',
  ],
  '2025-11-25': [
    'server-initialize',
    'logging-set-level',
    'ping',
    'tools-list',
    'resources-list',
    'prompts-list',
    'completion-complete',
    'dns-rebinding-protection',
  ],
};

describe('official MCP conformance suite against switchyard --http', () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await spawnHttpServer({ SWITCHYARD_DATA_DIR: tempDir() });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('excuses no scenario that applies to every server, only single checks of them', () => {
    const entries = baselineEntries();
    expect(entries.length).toBeGreaterThan(0);
    const universal = new Set(Object.values(UNIVERSAL_SCENARIOS).flat());
    expect(entries.filter((entry) => universal.has(entry))).toEqual([]);
  });

  it.each(['2026-07-28', '2025-11-25'] as const)(
    'meets the %s requirements: every failure is a baselined fixture, every universal scenario passes',
    async (revision) => {
      const outputDir = tempDir(`switchyard-conformance-${revision}-`);
      const { code, output } = await runSuite(server.url, revision, BASELINE, outputDir);
      // Exit 0: no failure outside the baseline, and no baseline entry that now passes (a stale one).
      expect(code, output).toBe(0);

      const excusedChecks = new Set(baselineEntries().filter((entry) => entry.includes(':')));
      const results = checksByScenario(outputDir);
      for (const scenario of UNIVERSAL_SCENARIOS[revision]) {
        const checks = results.get(scenario);
        expect(checks, `${scenario} ran`).toBeDefined();
        const failed = (checks ?? []).filter(
          (check) =>
            (check.status === 'FAILURE' || check.status === 'WARNING') &&
            !excusedChecks.has(`${scenario}:${check.id}`),
        );
        expect(failed, `${scenario}: ${JSON.stringify(failed)}`).toEqual([]);
        const passed = (checks ?? []).filter(
          (check) => check.status === 'SUCCESS' && check.id !== 'wire-schema-valid',
        );
        expect(passed.length, `${scenario} passed a check of its own`).toBeGreaterThan(0);
      }
    },
    180_000,
  );
});
