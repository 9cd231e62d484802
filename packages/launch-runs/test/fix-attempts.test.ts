import fs from 'node:fs';
import { LaunchFixNextOutputSchema } from '@switchyard/contracts/launch-runs';
import { errorOf } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { DIALECTS, storageFor, type Dialect } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import {
  cleanedAfterEach,
  type Harness,
  runConfig,
  startAndSettle,
  startHarness,
  waitForStatus,
} from './support/harness.js';
import { verifyEventChain } from '../src/store/event-chain.js';

/**
 * max_fix_attempts counts fixes that were applied. A launch_fix_next whose request goes away before its fix
 * is written (the client cancels, times out or disconnects) leaves the run as it was: VALIDATING, the same
 * attempt count, the same report; the next call fixes. A fix written but not yet counted when the process
 * stops is counted by launch_resume.
 */

const cleanup = cleanedAfterEach();
const harness = async (options: Parameters<typeof startHarness>[0]) =>
  cleanup.kept(await startHarness(options));

type Status = { state: string; details: Record<string, unknown>; open_issues: unknown[] };
const statusOf = async (h: Harness, runId: string) =>
  (await h.call('launch_get_status', { run_id: runId })).structured.status as Status;
/** Nobody holds the run's lease any more (the call that went away has let go of it). */
const notBusy = (status: Record<string, unknown>) =>
  (status.details as { busy?: boolean } | undefined)?.busy === false;
const eventTypes = async (h: Harness, runId: string) =>
  (await (await h.state.runs()).events(runId)).map((event) => event.type);

/**
 * A run whose fix has written its file (FIX_APPLYING recorded, FIX_APPLIED not) when its process stops;
 * `whileStopped` gets the fixed page and its content before the fix.
 */
async function stopBetweenWriteAndCount(
  dialect: Dialect,
  whileStopped: (page: string, unfixed: string) => void = () => undefined,
): Promise<{ runId: string; dataDir: string; storage: Awaited<ReturnType<typeof storageFor>> }> {
  const dataDir = cleanup.folder('fix-attempts');
  const storage = await storageFor(dialect);
  const pipeline = new FakePipeline({ seededProblems: 2 });
  const first = await harness({ pipeline, dataDir, ...storage });
  const { runId } = await startAndSettle(first);
  const page = `${dataDir}/launch-runs/runs/${runId}/workspace/site/content/docs/example-product.md`;
  const unfixed = fs.readFileSync(page, 'utf8');
  const written = pipeline.hold('W8:written');
  const fix = first.call('launch_fix_next', { run_id: runId });
  await written.reached;
  await first.state.close();
  expect(fs.readFileSync(page, 'utf8')).not.toBe(unfixed);
  whileStopped(page, unfixed);
  written.release();
  expect((await fix).structured.ok).toBe(false);
  return { runId, dataDir, storage };
}

const WAYS_TO_GO_AWAY = {
  /** The SDK's cancel (notifications/cancelled), with a reason that spells launch_cancel's own. */
  cancels: async (h: Harness, runId: string, reached: Promise<void>) => {
    const controller = new AbortController();
    const call = h.client.callTool(
      { name: 'launch_fix_next', arguments: { run_id: runId } },
      {
        signal: controller.signal,
      },
    );
    await reached;
    controller.abort('cancelled');
    await expect(call).rejects.toThrow();
  },
  /** The SDK's request timeout, which cancels the request as well. */
  'times out': async (h: Harness, runId: string, reached: Promise<void>) => {
    const call = h.client.callTool(
      { name: 'launch_fix_next', arguments: { run_id: runId } },
      {
        timeout: 1_000,
      },
    );
    await reached;
    await expect(call).rejects.toThrow(/timed out/i);
  },
  /** The client's connection closes while the fix runs. */
  disconnects: async (h: Harness, runId: string, reached: Promise<void>) => {
    const client = await h.connect();
    const call = client.callTool({ name: 'launch_fix_next', arguments: { run_id: runId } });
    await reached;
    await client.close();
    await expect(call).rejects.toThrow();
  },
};

describe.each(DIALECTS)('launch_fix_next counts applied fixes only (%s)', (dialect) => {
  it.each(Object.keys(WAYS_TO_GO_AWAY) as (keyof typeof WAYS_TO_GO_AWAY)[])(
    'a client that %s mid-fix leaves the run as it was; resume, then the next fix runs and counts',
    async (way) => {
      const pipeline = new FakePipeline({ seededProblems: 2 });
      const h = await harness({ pipeline, ...(await storageFor(dialect)) });
      const { runId, status: before } = await startAndSettle(h, runConfig({ max_fix_attempts: 1 }));
      expect(before).toMatchObject({ state: 'VALIDATING', details: { fix_attempts: 0 } });

      const held = pipeline.hold('W8');
      await WAYS_TO_GO_AWAY[way](h, runId, held.reached);
      expect(await held.aborted).toBeDefined();
      const after = await waitForStatus(h, runId, notBusy);
      expect(after).toMatchObject({
        state: 'VALIDATING',
        details: { fix_attempts: 0, interrupted: false, active_worker: null, last_report_ok: false },
      });
      expect((after as unknown as Status).open_issues).toEqual(before.open_issues);
      const types = await eventTypes(h, runId);
      expect(types).not.toContain('FIX_APPLYING');
      expect(types).not.toContain('FIX_APPLIED');
      expect((await (await h.state.runs()).events(runId)).at(-1)?.payload).toMatchObject({
        from: 'FIXING',
        to: 'VALIDATING',
        reason: 'fix_not_applied',
      });

      const resumed = (await h.call('launch_resume', { run_id: runId })).structured;
      expect(resumed).toMatchObject({ ok: true, status: { state: 'VALIDATING' } });
      const fixed = LaunchFixNextOutputSchema.parse(
        (await h.call('launch_fix_next', { run_id: runId })).structured,
      );
      expect(fixed.remaining_blockers).toBe(1);
      expect((await statusOf(h, runId)).details.fix_attempts).toBe(1);
      // That was the one attempt max_fix_attempts allows.
      errorOf(await h.call('launch_fix_next', { run_id: runId }), 'FIX_EXHAUSTED');
      expect(verifyEventChain(await (await h.state.runs()).events(runId)).ok).toBe(true);
    },
  );

  it('launch_cancel during a fix: CANCELLED, the attempt not counted', async () => {
    const pipeline = new FakePipeline({ seededProblems: 2 });
    const h = await harness({ pipeline, ...(await storageFor(dialect)) });
    const { runId } = await startAndSettle(h);
    const held = pipeline.hold('W8');
    const fix = h.call('launch_fix_next', { run_id: runId });
    await held.reached;
    expect((await h.call('launch_cancel', { run_id: runId })).structured.state).toBe('CANCELLED');
    errorOf(await fix, 'CANCELLED');
    const status = await waitForStatus(h, runId, notBusy);
    expect(status).toMatchObject({ state: 'CANCELLED', details: { fix_attempts: 0 } });
  });

  it('a fix written when the process stopped, before it was counted, is counted by launch_resume', async () => {
    const { runId, dataDir, storage } = await stopBetweenWriteAndCount(dialect);
    const pipeline = new FakePipeline({ seededProblems: 2 });
    const second = await harness({ pipeline, dataDir, ...storage });
    const stopped = await statusOf(second, runId);
    expect(stopped).toMatchObject({ state: 'FIXING', details: { interrupted: true, fix_attempts: 0 } });
    const resumed = (await second.call('launch_resume', { run_id: runId })).structured;
    expect(resumed).toMatchObject({ ok: true, status: { state: 'VALIDATING' } });
    expect(pipeline.calls).toEqual(['W7']);
    const status = await statusOf(second, runId);
    expect(status.details.fix_attempts).toBe(1);
    expect(status.open_issues).toHaveLength(1);
    const applied = (await (await second.state.runs()).events(runId)).filter((e) => e.type === 'FIX_APPLIED');
    expect(applied.map((event) => event.payload)).toEqual([
      expect.objectContaining({ attempt: 1, recovered: true }),
    ]);
  });

  it('a fix stopped after FIX_APPLYING but before its file was written is not counted by launch_resume', async () => {
    // The write is undone while the process is stopped, as if it had died just before writing.
    const { runId, dataDir, storage } = await stopBetweenWriteAndCount(dialect, (page, unfixed) =>
      fs.writeFileSync(page, unfixed),
    );
    const second = await harness({ pipeline: new FakePipeline({ seededProblems: 2 }), dataDir, ...storage });
    expect((await second.call('launch_resume', { run_id: runId })).structured).toMatchObject({ ok: true });
    const status = await statusOf(second, runId);
    expect(status).toMatchObject({ state: 'VALIDATING', details: { fix_attempts: 0 } });
    expect(status.open_issues).toHaveLength(2);
    expect(await eventTypes(second, runId)).not.toContain('FIX_APPLIED');
  });
});
