import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LaunchOpenPrOutputSchema, ValidationReportSchema } from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLaunchPipeline, materializeExampleRepos, type ExampleRepos } from '../src/pipeline/index.js';
import { ARTIFACTS_THROUGH_VALIDATION } from './pipeline/helpers.js';
import { atRest, startHarness, tempDir, waitForStatus, type Harness } from './support/harness.js';
import {
  artifactText,
  checkBranchClaims,
  commitFolder,
  exampleConfig,
  fixUntilReady,
  gate,
  git,
  maskTimings,
} from './support/launch-flow.js';
import { verifyEventChain } from '../src/store/event-chain.js';

/** End to end through a real MCP Client with the real pipeline, offline, on temp git repositories. */
const workDir = tempDir('e2e');
let repos: ExampleRepos;
let h: Harness;

beforeAll(async () => {
  repos = await materializeExampleRepos(path.join(workDir, 'repos'));
  h = await startHarness({ pipeline: createLaunchPipeline() });
});
afterAll(async () => {
  await h.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

type Status = {
  state: string;
  details: Record<string, unknown>;
  open_issues: { issue_id: string; gate: string }[];
};

describe('a launch on the example repositories', { timeout: 120_000 }, () => {
  let runId: string;

  it('starts offline and stops in VALIDATING on the seeded, fixable problem', async () => {
    const started = (
      await h.call('launch_start_run', {
        run_config: exampleConfig(repos),
        idempotency_key: 'readme-walkthrough',
      })
    ).structured;
    expect(started).toMatchObject({ ok: true, state: 'CREATED' });
    runId = started.run_id as string;
    const status = (await waitForStatus(h, runId, atRest)) as unknown as Status;
    expect(status.state).toBe('VALIDATING');
    expect(status.open_issues.length).toBeGreaterThan(0);
    const names = (
      (await h.call('launch_get_status', { run_id: runId })).structured.status as {
        artifacts: { name: string }[];
      }
    ).artifacts.map((a) => a.name);
    expect(names).toEqual(expect.arrayContaining(ARTIFACTS_THROUGH_VALIDATION));
    expect(names.some((name) => name.startsWith('drafts/products/'))).toBe(true);
    expect(names.some((name) => name.startsWith('drafts/docs/'))).toBe(true);
  });

  it('reaches READY_FOR_PR through at least one real fix', async () => {
    const fixed = await fixUntilReady(h, runId);
    expect(fixed.length).toBeGreaterThanOrEqual(1);
    const status = (await h.call('launch_get_status', { run_id: runId })).structured.status as Status;
    expect(status).toMatchObject({ state: 'READY_FOR_PR', details: { last_report_ok: true } });
    for (const issue of fixed) {
      expect(
        ((await h.call('launch_get_status', { run_id: runId })).structured.status as Status).open_issues.map(
          (i) => i.issue_id,
        ),
      ).not.toContain(issue);
    }
  });

  it('opens the PR (DONE) on launch/<run_id>/tallyho, whose pages all pass TruthLock', async () => {
    const pr = LaunchOpenPrOutputSchema.parse((await h.call('launch_open_pr', { run_id: runId })).structured);
    expect(pr.branch).toBe(`launch/${runId}/tallyho`);
    expect(((await h.call('launch_get_status', { run_id: runId })).structured.status as Status).state).toBe(
      'DONE',
    );
    expect((await h.call('launch_open_pr', { run_id: runId })).structured).toEqual(pr);
    expect(git(repos.siteRepo, 'rev-parse', `refs/heads/${pr.branch}`).trim()).toBe(pr.commit_sha);

    const evidenceMap = JSON.parse(await artifactText(h, runId, 'evidence_map.json'));
    const checked = checkBranchClaims({
      siteRepo: repos.siteRepo,
      branch: pr.branch,
      baseRef: 'main',
      sourceDir: repos.sourceRepo,
      evidenceMap,
      workDir,
    });
    expect(checked.pages.length).toBeGreaterThan(0);
    expect(checked.markers).toBeGreaterThan(0);
    for (const page of checked.pages) expect(page).toMatch(/^content\/(products|docs)\//);

    // The validator agrees on the committed worktree.
    const report = ValidationReportSchema.parse(
      (await h.call('launch_validate', { run_id: runId })).structured.validation_report,
    );
    expect(gate(report, 'TruthLock')?.ok).toBe(true);
    expect(
      report.issues.filter(
        (issue) => issue.status === 'OPEN' && (issue.gate === 'TruthLock' || issue.gate === 'InternalLinks'),
      ),
    ).toEqual([]);
    expect(report.ok).toBe(true);
    expect(verifyEventChain(await (await h.state.runs()).events(runId)).ok).toBe(true);
  });

  it('is deterministic: a second run on the same inputs writes byte-identical artifacts (gate timings aside)', async () => {
    const second = (await h.call('launch_start_run', { run_config: exampleConfig(repos) })).structured
      .run_id as string;
    await waitForStatus(h, second, atRest);
    await fixUntilReady(h, second);
    const artifactsOf = async (id: string) => {
      const status = (await h.call('launch_get_status', { run_id: id })).structured.status as {
        artifacts: { name: string; sha256: string }[];
      };
      return new Map(status.artifacts.map((a) => [a.name, a.sha256]));
    };
    const first = await artifactsOf(runId);
    const other = await artifactsOf(second);
    const compared = [...other.keys()].filter((name) => name !== 'validation_report.json');
    expect(compared.length).toBeGreaterThan(5);
    for (const name of compared) expect(other.get(name), name).toBe(first.get(name));
    expect(maskTimings(await artifactText(h, second, 'validation_report.json'))).toEqual(
      maskTimings(await artifactText(h, runId, 'validation_report.json')),
    );
  });
});

describe('a launch on a real published package', { timeout: 120_000 }, () => {
  it('copies a package the workspace installs into a git repository and reaches READY_FOR_PR with every page passing TruthLock', async () => {
    const packageDir = fs.realpathSync(
      path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'ky'),
    );
    const source = path.join(workDir, 'ky');
    fs.mkdirSync(source, { recursive: true });
    for (const file of fs.readdirSync(packageDir)) {
      if (file === 'distribution' || file === 'node_modules') continue;
      fs.cpSync(path.join(packageDir, file), path.join(source, file), { recursive: true });
    }
    commitFolder(source, 'ky as published');
    const site = await materializeExampleRepos(path.join(workDir, 'ky-site'), { seedFixableProblem: false });
    const config = exampleConfig(
      { sourceRepo: source, siteRepo: site.siteRepo },
      { product_slug: 'ky', product_name: 'Ky', max_fix_attempts: 10 },
    );
    const runId = (await h.call('launch_start_run', { run_config: config })).structured.run_id as string;
    const rested = await waitForStatus(h, runId, atRest);
    expect(['VALIDATING', 'READY_FOR_PR']).toContain(rested.state);
    await fixUntilReady(h, runId);
    expect(((await h.call('launch_get_status', { run_id: runId })).structured.status as Status).state).toBe(
      'READY_FOR_PR',
    );
    const report = ValidationReportSchema.parse(
      JSON.parse(await artifactText(h, runId, 'validation_report.json')),
    );
    expect(gate(report, 'TruthLock')?.ok).toBe(true);
    expect(gate(report, 'InternalLinks')?.ok).toBe(true);
    expect(
      report.issues.filter(
        (issue) => issue.status === 'OPEN' && ['blocker', 'error'].includes(issue.severity),
      ),
    ).toEqual([]);
  });
});
