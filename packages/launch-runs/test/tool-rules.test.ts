import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunState } from '@switchyard/contracts/launch-runs';
import type { RunRow } from '../src/db/schema.js';
import { cancelRefusal, refusal, type LeasedTool } from '../src/runs/tool-rules.js';
import { newRunValues } from '../src/store/run-changes.js';
import { RunPaths } from '../src/store/run-paths.js';
import { tempDir } from './support/harness.js';

// The preconditions of the tool contract (binding), checked on the run as the lease attempt finds it:
// launch_fix_next needs VALIDATING and a last report that exists with ok=false; launch_open_pr needs
// READY_FOR_PR and a last report with ok=true; launch_validate needs LINKING or later.

const RUN_ID = 'r_2026-01-21T10-00-00Z_0f3a9c1e';
const dataDir = tempDir('tool-rules');
const paths = new RunPaths(dataDir);
fs.mkdirSync(paths.siteWorktree(RUN_ID), { recursive: true });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A run as the store creates it, then in `state` with `columns`, its lease released. */
function run(state: RunState, columns: Partial<RunRow> = {}): RunRow {
  const created = newRunValues(
    {
      runId: RUN_ID,
      owner: '',
      productSlug: 'p',
      config: '{}',
      configHash: '',
      idempotencyKey: undefined,
      sectionStates: {},
      leaseOwner: '',
      leaseMs: 0,
      maxActiveRuns: 1,
    },
    null,
    Date.now(),
  );
  return { ...created, state, leaseOwner: null, leaseExpiresMs: null, ...columns };
}

/** What a refusal says: code, and the details a client branches on. */
interface Refused {
  code: string;
  retryable?: boolean;
  details?: Record<string, unknown>;
}

const CASES: [string, LeasedTool, RunRow, { busy?: boolean }, Refused | undefined][] = [
  [
    'fix_next: a failed report in VALIDATING is accepted',
    'launch_fix_next',
    run('VALIDATING', { lastReportOk: false }),
    {},
    undefined,
  ],
  [
    'fix_next: no report yet',
    'launch_fix_next',
    run('VALIDATING', { lastReportOk: null }),
    {},
    { code: 'ILLEGAL_STATE', details: { reason: 'no_validation_report', last_report_ok: null } },
  ],
  [
    'fix_next: the last report is ok, nothing to fix',
    'launch_fix_next',
    run('VALIDATING', { lastReportOk: true }),
    {},
    { code: 'ILLEGAL_STATE', details: { reason: 'validation_report_ok', last_report_ok: true } },
  ],
  [
    'fix_next: outside VALIDATING',
    'launch_fix_next',
    run('READY_FOR_PR', { lastReportOk: true }),
    {},
    {
      code: 'ILLEGAL_STATE',
      retryable: false,
      details: {
        current_state: 'READY_FOR_PR',
        required_state: 'VALIDATING',
        allowed_states: ['VALIDATING'],
      },
    },
  ],
  [
    'fix_next: a fix under way elsewhere is busy (retry)',
    'launch_fix_next',
    run('FIXING', { lastReportOk: false }),
    { busy: true },
    { code: 'ILLEGAL_STATE', retryable: true, details: { reason: 'run_busy', current_state: 'FIXING' } },
  ],
  [
    'open_pr: READY_FOR_PR with an ok report is accepted',
    'launch_open_pr',
    run('READY_FOR_PR', { lastReportOk: true }),
    {},
    undefined,
  ],
  [
    'open_pr: the last report is not ok',
    'launch_open_pr',
    run('READY_FOR_PR', { lastReportOk: false }),
    {},
    { code: 'ILLEGAL_STATE', details: { reason: 'validation_report_not_ok', last_report_ok: false } },
  ],
  [
    'open_pr: before READY_FOR_PR',
    'launch_open_pr',
    run('VALIDATING', { lastReportOk: false }),
    {},
    { code: 'ILLEGAL_STATE', details: { current_state: 'VALIDATING', required_state: 'READY_FOR_PR' } },
  ],
  ['validate: LINKING is accepted', 'launch_validate', run('LINKING'), {}, undefined],
  [
    'validate: before LINKING',
    'launch_validate',
    run('DRAFT_READY'),
    {},
    { code: 'ILLEGAL_STATE', details: { current_state: 'DRAFT_READY', required_state: 'LINKING' } },
  ],
  [
    'resume: an interrupted step is accepted',
    'launch_resume',
    run('DRAFTING', { activeWorker: 'W5' }),
    {},
    undefined,
  ],
  [
    'resume: a DONE run has nothing to resume',
    'launch_resume',
    run('DONE'),
    {},
    { code: 'ILLEGAL_STATE', details: { current_state: 'DONE' } },
  ],
  [
    'resume: a DONE run held elsewhere is not busy: it stays DONE',
    'launch_resume',
    run('DONE'),
    { busy: true },
    { code: 'ILLEGAL_STATE', retryable: false, details: { current_state: 'DONE' } },
  ],
  [
    'resume: a run held elsewhere is busy (retry)',
    'launch_resume',
    run('INGESTED'),
    { busy: true },
    { code: 'ILLEGAL_STATE', retryable: true, details: { reason: 'run_busy' } },
  ],
  [
    'any tool: a FAILED run',
    'launch_resume',
    run('FAILED'),
    {},
    { code: 'ILLEGAL_STATE', details: { current_state: 'FAILED' } },
  ],
  [
    'any tool: a CANCELLED run',
    'launch_validate',
    run('CANCELLED'),
    {},
    { code: 'CANCELLED', details: { current_state: 'CANCELLED' } },
  ],
];

describe('the state rules of the leased tools', () => {
  it.each(CASES)('%s', (_name, tool, row, { busy = false }, expected) => {
    const refused = refusal(tool, row, { paths, store: { sharedByReplicas: false }, busy });
    if (expected === undefined) return expect(refused).toBeUndefined();
    expect(refused?.code).toBe(expected.code);
    if (expected.retryable !== undefined) expect(refused?.retryable).toBe(expected.retryable);
    expect(refused?.details).toMatchObject(expected.details ?? {});
  });

  it('launch_validate without the site worktree: refused on one data directory (unless DONE), rebuilt across replicas', () => {
    const elsewhere = new RunPaths(path.join(dataDir, 'empty'));
    const row = run('VALIDATING', { lastReportOk: false });
    const alone = refusal('launch_validate', row, {
      paths: elsewhere,
      store: { sharedByReplicas: false },
      busy: false,
    });
    expect(alone?.details).toMatchObject({ reason: 'site_worktree_missing' });
    const shared = refusal('launch_validate', row, {
      paths: elsewhere,
      store: { sharedByReplicas: true },
      busy: false,
    });
    expect(shared).toBeUndefined();
    // A DONE run's workspace was removed when it ended: rebuilt for the call on one data directory too.
    const done = refusal('launch_validate', run('DONE', { lastReportOk: true }), {
      paths: elsewhere,
      store: { sharedByReplicas: false },
      busy: false,
    });
    expect(done).toBeUndefined();
  });

  it('launch_cancel refuses a DONE or FAILED run, and cancelling a cancelled run again changes nothing', () => {
    expect(cancelRefusal(run('DONE'))?.details).toMatchObject({ current_state: 'DONE' });
    expect(cancelRefusal(run('FAILED'))?.code).toBe('ILLEGAL_STATE');
    expect(cancelRefusal(run('CANCELLED'))).toBeUndefined();
    expect(cancelRefusal(run('FIXING'))).toBeUndefined();
  });
});
