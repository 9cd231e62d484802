import fs from 'node:fs';
import path from 'node:path';
import {
  LaunchErrorPayloadSchema,
  LaunchFixNextOutputSchema,
  LaunchValidateOutputSchema,
} from '@switchyard/contracts/launch-runs';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { contractErrorOf, errorOf } from '@switchyard/server-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, startHarnessOn } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import {
  atRest,
  runConfig,
  startAndSettle,
  startHarness,
  waitForStatus,
  type Harness,
} from './support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ILLEGAL_DETAILS = ['current_state', 'required_state', 'allowed_states'];

describe.each(DIALECTS)('launch_validate (%s)', (dialect) => {
  it('before LINKING is ILLEGAL_STATE naming the current and required state', async () => {
    const pipeline = new FakePipeline();
    const held = pipeline.hold('W5');
    h = await startHarnessOn(dialect, { pipeline });
    const started = (await h.call('launch_start_run', { run_config: runConfig() })).structured;
    await held.reached;
    const error = contractErrorOf(
      await h.call('launch_validate', { run_id: started.run_id }),
      LaunchErrorPayloadSchema,
    );
    expect(error.code).toBe('ILLEGAL_STATE');
    expect(Object.keys(error.details)).toEqual(expect.arrayContaining(ILLEGAL_DETAILS));
    expect(error.details).toMatchObject({ current_state: 'DRAFTING', required_state: 'LINKING' });
    expect(error.retryable).toBe(false);
    held.release();
    await waitForStatus(h, started.run_id as string, atRest);
  });

  it('runs W7 on the worktree and records the report; gate failure is inside the report, not an error', async () => {
    const pipeline = new FakePipeline({ seededProblems: 1 });
    h = await startHarnessOn(dialect, { pipeline });
    const { runId } = await startAndSettle(h);
    const payload = (await h.call('launch_validate', { run_id: runId })).structured;
    const parsed = LaunchValidateOutputSchema.parse(payload);
    expect(parsed.ok).toBe(true);
    expect(parsed.validation_report.ok).toBe(false);
    expect(parsed.validation_report.issues).toHaveLength(1);
    expect(pipeline.calls.filter((w) => w === 'W7')).toHaveLength(2);
    const events = (await (await h.state.runs()).events(runId)).filter(
      (e) => e.type.startsWith('WORK_ITEM_') && e.payload.worker === 'W7',
    );
    expect(events.map((e) => e.type)).toEqual([
      'WORK_ITEM_STARTED',
      'WORK_ITEM_FINISHED',
      'WORK_ITEM_STARTED',
      'WORK_ITEM_FINISHED',
    ]);
    // The worktree changed behind the run's back: re-validation reflects it and moves the run on.
    const page = path.join(
      h.dataDir,
      'launch-runs',
      'runs',
      runId,
      'workspace',
      'site',
      'content',
      'products',
      'example-product.md',
    );
    fs.writeFileSync(page, fs.readFileSync(page, 'utf8').replaceAll(' __FIXME__', ''));
    const after = LaunchValidateOutputSchema.parse(
      (await h.call('launch_validate', { run_id: runId })).structured,
    );
    expect(after.validation_report.ok).toBe(true);
    expect((await h.call('launch_get_status', { run_id: runId })).structured.status).toMatchObject({
      state: 'READY_FOR_PR',
      open_issues: [],
    });
  });

  it('a missing toolchain is TOOLCHAIN_MISSING; the run halts at LINKING (not FAILED, not interrupted)', async () => {
    let missing = true;
    const toolchain = () =>
      new SwitchyardError('internal', 'SiteBuild needs `hugo`, which is not installed', {
        code: 'TOOLCHAIN_MISSING',
        details: { gate: 'SiteBuild', tool: 'hugo' },
      });
    const pipeline = new FakePipeline({ seededProblems: 0 });
    const original = pipeline.validateSite.bind(pipeline);
    pipeline.validateSite = async (ctx) => {
      if (missing) throw toolchain();
      return original(ctx);
    };
    h = await startHarnessOn(dialect, { pipeline });
    const { runId, status } = await startAndSettle(h, runConfig({ validation_profile: 'ci' }));
    expect(status.state).toBe('LINKING');
    expect(status.details).toMatchObject({ interrupted: false, error: { code: 'TOOLCHAIN_MISSING' } });
    const error = errorOf(await h.call('launch_validate', { run_id: runId }), 'TOOLCHAIN_MISSING');
    expect(error.details).toMatchObject({ gate: 'SiteBuild', tool: 'hugo' });
    missing = false;
    const report = LaunchValidateOutputSchema.parse(
      (await h.call('launch_validate', { run_id: runId })).structured,
    );
    expect(report.validation_report.ok).toBe(true);
    const after = (await h.call('launch_get_status', { run_id: runId })).structured.status as {
      state: string;
      details: Record<string, unknown>;
    };
    expect(after.state).toBe('READY_FOR_PR');
    expect(after.details.error).toBeUndefined();
  });
});

// A missing workspace differs by design: SQLite's one machine refuses; on PostgreSQL another replica may be
// validating, so the workspace is rebuilt from the run (pipeline.restoreWorkspace).
describe('launch_validate on SQLite only', () => {
  it('without a site worktree is ILLEGAL_STATE with reason site_worktree_missing', async () => {
    h = await startHarness({ pipeline: new FakePipeline() });
    const { runId } = await startAndSettle(h);
    fs.rmSync(path.join(h.dataDir, 'launch-runs', 'runs', runId, 'workspace', 'site'), { recursive: true });
    const error = errorOf(await h.call('launch_validate', { run_id: runId }), 'ILLEGAL_STATE');
    expect(error.details).toMatchObject({
      current_state: 'VALIDATING',
      required_state: 'LINKING',
      reason: 'site_worktree_missing',
    });
  });
});

describe('launch_validate on PostgreSQL only', () => {
  it('without a site worktree rebuilds it from the run and validates it', async () => {
    h = await startHarnessOn('postgres', { pipeline: new FakePipeline({ seededProblems: 1 }) });
    const { runId } = await startAndSettle(h);
    const site = path.join(h.dataDir, 'launch-runs', 'runs', runId, 'workspace', 'site');
    fs.rmSync(site, { recursive: true });
    const report = LaunchValidateOutputSchema.parse(
      (await h.call('launch_validate', { run_id: runId })).structured,
    );
    expect(report.validation_report.issues).toHaveLength(1);
    expect(fs.existsSync(path.join(site, 'content', 'docs', 'example-product.md'))).toBe(true);
  });
});

describe.each(DIALECTS)('launch_fix_next (%s)', (dialect) => {
  it('outside VALIDATING is ILLEGAL_STATE with current and required state', async () => {
    h = await startHarnessOn(dialect, { pipeline: new FakePipeline({ seededProblems: 0 }) });
    const { runId } = await startAndSettle(h);
    const error = errorOf(await h.call('launch_fix_next', { run_id: runId }), 'ILLEGAL_STATE');
    expect(error.details).toMatchObject({
      current_state: 'READY_FOR_PR',
      required_state: 'VALIDATING',
      allowed_states: ['VALIDATING'],
    });
  });

  it('fixes one issue per call, re-validates, and reaches READY_FOR_PR', async () => {
    const pipeline = new FakePipeline({ seededProblems: 2 });
    h = await startHarnessOn(dialect, { pipeline });
    const { runId, status } = await startAndSettle(h);
    const firstIssue = (status.open_issues as { issue_id: string }[])[0]?.issue_id;
    const first = LaunchFixNextOutputSchema.parse(
      (await h.call('launch_fix_next', { run_id: runId })).structured,
    );
    expect(first).toMatchObject({
      ok: true,
      run_id: runId,
      fixed_issue_id: firstIssue,
      remaining_blockers: 1,
    });
    expect(first.applied_patch_ids).toEqual([`patch_fix_${firstIssue}`]);
    expect(first.validation_report.ok).toBe(false);
    let now = (await h.call('launch_get_status', { run_id: runId })).structured.status as {
      state: string;
      details: Record<string, unknown>;
    };
    expect(now).toMatchObject({ state: 'VALIDATING', details: { fix_attempts: 1 } });
    const second = LaunchFixNextOutputSchema.parse(
      (await h.call('launch_fix_next', { run_id: runId })).structured,
    );
    expect(second.remaining_blockers).toBe(0);
    expect(second.validation_report.ok).toBe(true);
    now = (await h.call('launch_get_status', { run_id: runId })).structured.status as {
      state: string;
      details: Record<string, unknown>;
    };
    expect(now).toMatchObject({ state: 'READY_FOR_PR', details: { fix_attempts: 2, last_report_ok: true } });
    expect(pipeline.calls.slice(7)).toEqual(['W8', 'W7', 'W8', 'W7']);
    const transitions = (await (await h.state.runs()).events(runId))
      .filter((e) => e.type === 'STATE_CHANGED')
      .map((e) => `${String(e.payload.from)}>${String(e.payload.to)}`)
      .slice(-5);
    expect(transitions).toEqual(
      [
        'LINKING>VALIDATING',
        'VALIDATING>FIXING',
        'FIXING>VALIDATING',
        'VALIDATING>FIXING',
        'FIXING>VALIDATING',
        'VALIDATING>READY_FOR_PR',
      ].slice(-5),
    );
    const fixEvents = (await (await h.state.runs()).events(runId)).filter((e) => e.type === 'FIX_APPLIED');
    expect(fixEvents.map((e) => e.payload.attempt)).toEqual([1, 2]);
    expect(status.artifacts).not.toContainEqual(expect.objectContaining({ name: `fix_${firstIssue}.json` }));
    const artifacts = (
      (await h.call('launch_get_status', { run_id: runId })).structured.status as {
        artifacts: { name: string }[];
      }
    ).artifacts;
    expect(artifacts.map((a) => a.name)).toContain(`fix_${firstIssue}.json`);
  });

  it('at max_fix_attempts answers FIX_EXHAUSTED and FAILS the run', async () => {
    const pipeline = new FakePipeline({ seededProblems: 3 });
    h = await startHarnessOn(dialect, { pipeline });
    const { runId } = await startAndSettle(h, runConfig({ max_fix_attempts: 1 }));
    expect((await h.call('launch_fix_next', { run_id: runId })).structured.ok).toBe(true);
    const payload = (await h.call('launch_fix_next', { run_id: runId })).structured;
    expect(payload.run_id).toBe(runId);
    const error = errorOf(payload, 'FIX_EXHAUSTED');
    expect(error.retryable).toBe(false);
    expect(error.details).toMatchObject({ fix_attempts: 1, max_fix_attempts: 1 });
    const status = (await h.call('launch_get_status', { run_id: runId })).structured.status as {
      state: string;
      details: Record<string, unknown>;
    };
    expect(status.state).toBe('FAILED');
    expect(status.details.error).toMatchObject({ code: 'FIX_EXHAUSTED' });
    expect(pipeline.calls.filter((w) => w === 'W8')).toHaveLength(1);
  });

  it('max_fix_attempts 0: the first call is FIX_EXHAUSTED', async () => {
    const pipeline = new FakePipeline({ seededProblems: 1 });
    h = await startHarnessOn(dialect, { pipeline });
    const { runId } = await startAndSettle(h, runConfig({ max_fix_attempts: 0 }));
    errorOf(await h.call('launch_fix_next', { run_id: runId }), 'FIX_EXHAUSTED');
    expect(pipeline.calls).not.toContain('W8');
  });

  it('a fix that changes nothing FAILS the run with details.reason=fix_no_op', async () => {
    h = await startHarnessOn(dialect, { pipeline: new FakePipeline({ seededProblems: 1, noOpFix: true }) });
    const { runId } = await startAndSettle(h);
    const error = contractErrorOf(
      await h.call('launch_fix_next', { run_id: runId }),
      LaunchErrorPayloadSchema,
    );
    expect(error.code).toBe('FIX_EXHAUSTED');
    expect(error.details.reason).toBe('fix_no_op');
    const status = (await h.call('launch_get_status', { run_id: runId })).structured.status as {
      state: string;
      details: Record<string, unknown>;
    };
    expect(status.state).toBe('FAILED');
    expect(status.details.error).toMatchObject({ code: 'FIX_EXHAUSTED', details: { reason: 'fix_no_op' } });
  });

  it('a fix that would write outside allowed_paths is ALLOWED_PATHS_VIOLATION and FAILS the run', async () => {
    const pipeline = new FakePipeline({
      seededProblems: 1,
      fail: {
        W8: () =>
          new SwitchyardError('validation', 'refusing to write static/evil.md: outside allowed_paths', {
            code: 'ALLOWED_PATHS_VIOLATION',
            details: { path: 'static/evil.md' },
          }),
      },
    });
    h = await startHarnessOn(dialect, { pipeline });
    const { runId } = await startAndSettle(h);
    const error = errorOf(await h.call('launch_fix_next', { run_id: runId }), 'ALLOWED_PATHS_VIOLATION');
    expect(error.details).toMatchObject({ path: 'static/evil.md' });
    expect(
      ((await h.call('launch_get_status', { run_id: runId })).structured.status as { state: string }).state,
    ).toBe('FAILED');
  });

  it('two concurrent calls apply one fix; the other is ILLEGAL_STATE with retryable=true', async () => {
    const pipeline = new FakePipeline({ seededProblems: 3 });
    h = await startHarnessOn(dialect, { pipeline });
    const { runId } = await startAndSettle(h);
    const held = pipeline.hold('W8');
    const first = h.call('launch_fix_next', { run_id: runId });
    await held.reached;
    const second = (await h.call('launch_fix_next', { run_id: runId })).structured;
    const error = errorOf(second, 'ILLEGAL_STATE');
    expect(error.retryable).toBe(true);
    expect(error.details).toMatchObject({ current_state: 'FIXING', required_state: 'VALIDATING' });
    held.release();
    expect((await first).structured.ok).toBe(true);
    expect(pipeline.calls.filter((w) => w === 'W8')).toHaveLength(1);
    expect((await (await h.state.runs()).events(runId)).filter((e) => e.type === 'FIX_APPLIED')).toHaveLength(
      1,
    );
    expect(
      (
        (await h.call('launch_get_status', { run_id: runId })).structured.status as {
          details: { fix_attempts: number };
        }
      ).details.fix_attempts,
    ).toBe(1);
  });

  it('two calls fired together without holding: one fix at a time, a refused call retryable', async () => {
    const pipeline = new FakePipeline({ seededProblems: 3 });
    h = await startHarnessOn(dialect, { pipeline });
    const { runId } = await startAndSettle(h);
    const harness = h;
    const results = await Promise.all([0, 1].map(() => harness.call('launch_fix_next', { run_id: runId })));
    const applied = results.filter((r) => r.structured.ok === true).length;
    // When the calls overlap, one is refused; on a busy machine the first may end before the second starts,
    // and then both apply a fix, one after the other.
    for (const refused of results.filter((r) => r.structured.ok === false))
      expect(errorOf(refused.structured, 'ILLEGAL_STATE').retryable).toBe(true);
    expect(applied).toBeGreaterThanOrEqual(1);
    expect(pipeline.calls.filter((w) => w === 'W8')).toHaveLength(applied);
    // Never two fixes at once: each FIX_APPLYING is followed by its FIX_APPLIED before the next.
    const fixEvents = (await (await harness.state.runs()).events(runId))
      .map((event) => event.type)
      .filter((type) => type === 'FIX_APPLYING' || type === 'FIX_APPLIED');
    expect(fixEvents).toEqual(Array.from({ length: applied }, () => ['FIX_APPLYING', 'FIX_APPLIED']).flat());
  });
});
