import fs from 'node:fs';
import path from 'node:path';
import type { RunningServer } from '@switchyard/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMAIN_NAMES } from '../src/settings.js';
import {
  baselineEntries,
  checksByScenario,
  entriesWithoutReason,
  runSuite,
  type Revision,
} from './conformance-suite.js';
import { conformanceFixturesDomain } from './conformance-fixtures/domain.js';
import { serveConformanceFixtures } from './conformance-fixtures/serve.js';
import { PACKAGE_DIR, tempDir } from './helpers.js';

const BASELINE = path.join(PACKAGE_DIR, 'conformance', 'fixtures-baseline.yml');

/** The scenarios that call the fixtures, in both revisions: each must run and pass every check. */
const FIXTURE_SCENARIOS = [
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-error',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'completion-complete',
  'tools-call-with-progress',
  'json-schema-2020-12',
];

/** Scenarios of one revision only that call the fixtures (logging is a 2025-era feature, SEP-2322 a 2026 one). */
const FIXTURE_SCENARIOS_OF: Record<Revision, string[]> = {
  '2026-07-28': [
    'input-required-result-basic-elicitation',
    'input-required-result-basic-sampling',
    'input-required-result-basic-list-roots',
    'input-required-result-request-state',
    'input-required-result-multiple-input-requests',
    'input-required-result-multi-round',
    'input-required-result-non-tool-request',
    'input-required-result-result-type',
    'input-required-result-tampered-state',
    'input-required-result-capability-check',
    'input-required-result-missing-input-response',
    'input-required-result-ignore-extra-params',
    'input-required-result-validate-input',
    'tasks-lifecycle',
    'tasks-capability-negotiation',
    'tasks-wire-fields',
    'tasks-request-state-removal',
    'tasks-mrtr-input',
    'tasks-dispatch-and-envelope',
    'tasks-mrtr-composition',
    'http-custom-header-server-validation',
  ],
  '2025-11-25': ['tools-call-with-logging'],
};

describe('official MCP conformance suite against the conformance fixtures (server-kit over HTTP)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serveConformanceFixtures();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('says why for every baseline entry', () => {
    expect(baselineEntries(BASELINE).length).toBeGreaterThan(0);
    expect(entriesWithoutReason(BASELINE)).toEqual([]);
  });

  it('is no domain a published server mounts, and no published source names it', () => {
    expect(DOMAIN_NAMES).not.toContain(conformanceFixturesDomain.name);
    const sources = fs.readdirSync(path.join(PACKAGE_DIR, 'src'));
    for (const file of sources) {
      const text = fs.readFileSync(path.join(PACKAGE_DIR, 'src', file), 'utf8');
      expect(text, file).not.toContain('conformance-fixtures');
    }
  });

  it.each(['2026-07-28', '2025-11-25'] as const)(
    'meets the %s requirements: the fixture scenarios pass, every failure is baselined with its reason',
    async (revision) => {
      const outputDir = tempDir(`switchyard-fixtures-conformance-${revision}-`);
      const { code, output } = await runSuite(server.url!, revision, BASELINE, outputDir);
      // Exit 0: no failure outside the baseline, and no baseline entry that now passes (a stale one).
      expect(code, output).toBe(0);

      const results = checksByScenario(outputDir);
      for (const scenario of [...FIXTURE_SCENARIOS, ...FIXTURE_SCENARIOS_OF[revision]]) {
        const checks = results.get(scenario);
        expect(checks, `${scenario} ran`).toBeDefined();
        const notPassed = (checks ?? []).filter((check) => check.status !== 'SUCCESS');
        expect(notPassed, `${scenario}: ${JSON.stringify(notPassed)}`).toEqual([]);
      }
    },
    180_000,
  );
});
