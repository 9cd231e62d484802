import { randomBytes } from 'node:crypto';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { z } from 'zod';
import type {
  LaunchCancelOutput,
  LaunchOpenPrOutput,
  LaunchStartRunInputSchema,
  LaunchStartRunOutput,
  RunState,
  RunStatus,
  ValidationReport,
} from '@switchyard/contracts/launch-runs';
import type { RunRow } from '../db/schema.js';
import type { PullRequestResult, SubmittedDraft } from '../pipeline/types.js';
import type { ArtifactContent } from '../store/artifact-store.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import type { RunEvent } from '../store/event-chain.js';
import { runState, type ListFilter } from '../store/launch-store.js';
import { cancelled, recorded, taskEnded, taskOpened, transitioned } from '../store/run-writes.js';
import { removeWorkspaceIfEnded, sweepEndedWorkspaces } from './ended-workspace.js';
import { runNotFound } from './model/errors.js';
import { Execution, type AdvanceUntil, type ExecutorDeps, type ProgressListener } from './executor.js';
import { fixNext, settleInterruptedFix, type FixOutcome } from './fix.js';
import { pageRoundsOf, waitsForDrafts } from './drafts.js';
import { assertDraftSize, submitDraft, type DraftOutcome, type SampledDraft } from './submit-draft.js';
import { heldHere, isRetiredHereLately } from './model/lease.js';
import { Lease } from './lease.js';
import { isTransitional, rewindTarget } from './model/state-machine.js';
import { buildStatus } from './status.js';
import { LaunchTaskBoard, type TaskOutputs } from '../tasks/task-board.js';
import { TaskDrafts } from '../tasks/task-drafts.js';
import { cancelRefusal, refusal, type LeasedTool } from './tool-rules.js';
import type { NewTask } from '../store/task-rows.js';

export interface RunServiceDeps extends ExecutorDeps {
  leaseMs: number;
  /**
   * Replicas on one database (PostgreSQL): every this many milliseconds the service claims one run whose
   * executor died and continues it, and removes the workspaces on this machine of runs another replica
   * ended. Unset: runs a dead process left are marked interrupted at start (open-runs.ts) and wait for
   * launch_resume.
   */
  takeoverMs?: number;
  /**
   * Active runs one principal may have at once (LAUNCH_MAX_ACTIVE_RUNS): unfinished ones, and DONE ones
   * being validated (store/active-runs.ts).
   */
  maxActiveRuns: number;
  /** The maxTokens of each sampling request for a draft (LAUNCH_DRAFT_MAX_TOKENS). */
  draftMaxTokens: number;
}

/** launch_start_run's input as its schema parses it. */
export type StartRunInput = z.output<typeof LaunchStartRunInputSchema>;

type StartedRun = Omit<LaunchStartRunOutput, 'ok'> & { created: boolean };

/** Work done as the holder of a run's lease, on the run as taking the lease left it. */
type Work<T> = (execution: Execution, row: RunRow) => Promise<T>;

/** launch_resume's work: the run continued to its next stable state. */
const resumed: Work<void> = (execution, row) => continueRun(execution, row, 'next stable state');

/** The work under a lease just taken, and the run as taking it left it; or the run another holds (`busy`). */
type Hold<T, Taken> = { row: RunRow; done: Promise<T> } | { busy: Taken };

export interface CallOptions {
  /** The calling request's signal: cancelling the request interrupts the step (resumable). */
  signal?: AbortSignal;
  /**
   * The calling request's JSON-RPC id as JSON text, kept with the lease: its client's cancel reaches the step
   * through the store when another process (or server instance) receives it (stateless HTTP).
   */
  request?: string;
  onProgress?: ProgressListener;
  /** Told when the work holds the run's lease and when it ends, before the release (a call become a task). */
  watch?: WorkWatch;
}

/** What a call that may become a task (tools/slow-call.ts) hears of its work under the lease. */
export interface WorkWatch {
  /** The work holds the run's lease under `token`. */
  leased(token: string): void;
  /** The work ended with its value or the error it throws; called before the lease is released. */
  ended(end: { value: unknown } | { error: unknown }): Promise<void>;
}

/**
 * The launch runs: everything the tools do, as plain TypeScript over the store, executions (executor.ts)
 * and the pipeline. Every mutating operation holds the run's lease while it works, so there is one
 * executor per run at a time, in this process and across processes sharing the database.
 */
export class LaunchRunService {
  private readonly background = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();

  private readonly takeoverTimer: NodeJS.Timeout | undefined;
  /** The upkeep under way: each kind runs one at a time (a database round trip may outlast a tick). */
  private readonly upkeep = new Set<'takeover' | 'sweep'>();

  constructor(private readonly deps: RunServiceDeps) {
    if (deps.takeoverMs !== undefined) {
      this.takeoverTimer = setInterval(() => {
        this.keepUp('takeover', () => this.takeOverOne());
        this.keepUp('sweep', () => this.removeEndedWorkspaces());
      }, deps.takeoverMs);
      this.takeoverTimer.unref();
      this.keepUp('takeover', () => this.takeOverOne());
    }
  }

  /** Work that close() waits for. */
  private track(job: Promise<void>): void {
    this.background.add(job);
    void job.finally(() => this.background.delete(job));
  }

  /** `job` as tracked work, unless one of its kind is still under way or the service is closing. */
  private keepUp(kind: 'takeover' | 'sweep', job: () => Promise<void>): void {
    if (this.upkeep.has(kind) || this.shutdown.signal.aborted) return;
    this.upkeep.add(kind);
    this.track(job().finally(() => this.upkeep.delete(kind)));
  }

  private async requireRow(runId: string): Promise<RunRow> {
    const row = await this.deps.store.get(runId);
    if (row === undefined) throw runNotFound(runId);
    return row;
  }

  /** RUN_NOT_FOUND unless the run exists and `owner` started it: another's run answers as a missing one. */
  async assertOwned(runId: string, owner: string): Promise<void> {
    if ((await this.deps.store.get(runId))?.owner !== owner) throw runNotFound(runId);
  }

  async status(runId: string): Promise<RunStatus> {
    let snapshot = await this.deps.store.snapshot(runId);
    // Read again when the run names a lease this process released since: between two steps, not interrupted.
    if (snapshot !== undefined && isRetiredHereLately(snapshot.run, Date.now()))
      snapshot = await this.deps.store.snapshot(runId);
    if (snapshot === undefined) throw runNotFound(runId);
    const status = buildStatus(snapshot, Date.now());
    if (!waitsForDrafts(snapshot.run)) return status;
    const waiting = await pageRoundsOf(this.deps.store, runId);
    return { ...status, waiting_for_drafts: waiting.map((entry) => entry.page) };
  }

  async artifact(runId: string, name: string): Promise<ArtifactContent> {
    await this.requireRow(runId);
    const content = await this.deps.artifacts.read(runId, name);
    if (content === undefined) {
      const available = (await this.deps.artifacts.list(runId)).map((row) => row.name);
      throw new SwitchyardError('validation', `Run ${runId} has no artifact named ${name}`, {
        code: 'INVALID_INPUT',
        hint: 'Use a name from the artifacts list of launch_get_status.',
        details: { reason: 'artifact_not_found', artifact_name: name, available: available.slice(0, 100) },
      });
    }
    return content;
  }

  /** The run's event log, or with `part` its events after event `after` up to event `until`. */
  async events(runId: string, part?: { after: number; until: number }): Promise<RunEvent[]> {
    await this.requireRow(runId);
    return this.deps.store.eventsAfter({ runId, after: part?.after ?? 0, until: part?.until });
  }

  /**
   * Records the run (CREATED) and starts the background work; returns at once. The same idempotency key
   * with the same config hash returns the existing run (the unique index decides between concurrent
   * callers, also across processes); with a different config it is INVALID_INPUT, as is a new run of an
   * owner who has `maxActiveRuns` active ones (store/active-runs.ts; retryable).
   */
  async startRun(
    owner: string,
    input: StartRunInput,
    onProgress?: ProgressListener,
    task?: NewTask,
  ): Promise<StartedRun> {
    const config = canonicalJson(input.run_config);
    const configHash = sha256Hex(config);
    const key = input.idempotency_key;
    // A task is bound to the key's run in the insert's transaction: the insert answers a replay too.
    if (key !== undefined && task === undefined) {
      const existing = await this.deps.store.getByIdempotencyKey(owner, key);
      if (existing !== undefined) return this.existingRun(existing, configHash);
    }
    const { store, leaseMs, maxActiveRuns } = this.deps;
    const insert = async (leaseOwner: string) => {
      const { row } = await store.insert({
        runId: newRunId(),
        owner,
        productSlug: input.run_config.product_slug,
        config,
        configHash,
        idempotencyKey: key,
        sectionStates: Object.fromEntries(
          input.run_config.required_sections.map((section) => [section, 'NOT_STARTED']),
        ),
        leaseOwner,
        leaseMs,
        maxActiveRuns,
        task,
      });
      return row;
    };
    const advance: Work<unknown> = (execution) => execution.advance('no step left');
    const held = await this.hold(insert, advance, { onProgress, background: true });
    // The key's run already exists: it holds its own lease, or none.
    if ('busy' in held) return this.existingRun(held.busy, configHash);
    return { run_id: held.row.runId, state: 'CREATED', created: true };
  }

  private existingRun(row: RunRow, configHash: string): StartedRun {
    if (row.configHash !== configHash) {
      throw new SwitchyardError(
        'validation',
        'idempotency_key was already used for a run with a different run_config; use a new key or the same config',
        { code: 'INVALID_INPUT', details: { reason: 'idempotency_key_reused', run_id: row.runId } },
      );
    }
    return { run_id: row.runId, state: runState(row), created: false };
  }

  /**
   * `work` as the holder of the run's lease, which `take` writes under a new token (an insert, a claim, an
   * acquire): a failure of `work` is settled (recorded, or the run FAILED), then the lease released. With
   * `background`, the work starts once the caller has its answer and its outcome is logged. A lease not taken
   * answers the run as `take` left it (`busy`).
   */
  private async hold<T, Taken extends RunRow | undefined>(
    take: (token: string) => Promise<Taken>,
    work: Work<T>,
    { onProgress, watch, signal, background }: CallOptions & { background?: true },
  ): Promise<Hold<T, Taken>> {
    const { store, leaseMs, logger } = this.deps;
    const taken = await Lease.take(store, leaseMs, { shutdown: this.shutdown.signal, request: signal }, take);
    if ('busy' in taken) return taken;
    const { lease, row } = taken;
    const start = background ? new Promise((resolve) => setImmediate(resolve)) : Promise.resolve();
    const done = start.then(async () => {
      try {
        const execution = new Execution(this.deps, lease, row, onProgress);
        watch?.leased(lease.token);
        const value = await work(execution, row).catch(async (thrown: unknown) => {
          const error = await execution.settleFailure(thrown);
          await watch?.ended({ error });
          throw error;
        });
        await watch?.ended({ value });
        return value;
      } finally {
        // Before the release: a launch_validate of a DONE run could take the lease and work in it next.
        await lease
          .release(() => removeWorkspaceIfEnded(this.deps, row.runId))
          .catch((error: unknown) =>
            logger.warn('could not release a run lease', { run_id: row.runId, error }),
          );
      }
    });
    if (background) {
      const logged = this.logOutcome(row.runId, done);
      this.track(
        logged.catch((error: unknown) => logger.error('background run failed', { run_id: row.runId, error })),
      );
    }
    return { row, done };
  }

  /** How background work on a run ended, in the log. */
  private async logOutcome(runId: string, done: Promise<unknown>): Promise<void> {
    const { store, logger } = this.deps;
    try {
      await done;
      logger.info('run reached a stop', { run_id: runId, state: (await store.get(runId))?.state });
    } catch (thrown) {
      const { code, message } = thrown as SwitchyardError;
      logger.info('run stopped', { run_id: runId, code, message });
    }
  }

  /**
   * `work` for `tool` under the run's lease (hold), taken only when the tool's rule (tool-rules.ts), judged in
   * the acquiring transaction, accepts the run (with `task`, the task written in the same transaction); a run
   * another executor holds is refused by the rule, busy at least. `answered` gives the answer a run already
   * holds: no work needed, no lease taken.
   */
  private async leased<T>(
    runId: string,
    tool: LeasedTool,
    options: CallOptions & { background?: true; task?: NewTask },
    work: Work<T>,
    answered: (row: RunRow) => T | undefined = () => undefined,
  ): Promise<Hold<T, RunRow>> {
    const { store, paths, leaseMs, maxActiveRuns } = this.deps;
    const admission = {
      request: options.request,
      // Validating a DONE run rebuilds its workspace: it holds one, as an unfinished run does.
      maxActiveRuns: tool === 'launch_validate' ? maxActiveRuns : undefined,
      admit: (row: RunRow, busy: boolean) => {
        if (answered(row) !== undefined) return false;
        // The rule reads the run as it stood before this call: without a dead executor's lease.
        const refused = refusal(tool, busy ? row : { ...row, leaseOwner: null }, { paths, store, busy });
        if (refused !== undefined) throw refused;
        return true;
      },
      task: options.task,
    };
    const acquire = async (token: string) => (await store.acquireLease(runId, token, leaseMs, admission)).row;
    return this.hold(acquire, work, options);
  }

  /** `leased`, awaited: the work's value, or the answer the run already holds (not taken, and not refused). */
  private async withLease<T>(
    runId: string,
    tool: LeasedTool,
    options: CallOptions,
    work: Work<T>,
    answered?: (row: RunRow) => T | undefined,
  ): Promise<T> {
    const held = await this.leased(runId, tool, options, work, answered);
    return 'busy' in held ? (answered?.(held.busy) as T) : held.done;
  }

  async validate(runId: string, options: CallOptions = {}): Promise<ValidationReport> {
    return this.withLease(runId, 'launch_validate', options, async (execution) => {
      const { report, row } = await execution.validate();
      options.onProgress?.({
        runId,
        state: runState(row),
        worker: 'W7',
        progress: 1,
        total: 1,
        message: `W7 validate done: report ${report.ok ? 'ok' : 'not ok'}`,
      });
      return report;
    });
  }

  /** One fix (W8) and re-validation (W7): fix.ts. */
  async fixNext(runId: string, options: CallOptions = {}): Promise<FixOutcome> {
    return this.withLease(runId, 'launch_fix_next', options, fixNext);
  }

  /**
   * One page of a model-drafting run, from launch_submit_draft or (with its round) from the client's model
   * the run's task asked, verified under the run's lease, and the run continued after the last:
   * submit-draft.ts. Undefined for a stale sampled draft; the tool's is never stale.
   */
  async submitDraft(
    runId: string,
    draft: SubmittedDraft | SampledDraft,
    options: CallOptions = {},
  ): Promise<DraftOutcome | undefined> {
    if (!('round' in draft)) assertDraftSize(draft.markdown, this.deps.maxDraftBytes);
    return this.withLease(runId, 'launch_submit_draft', options, (execution) =>
      submitDraft(execution, draft),
    );
  }

  /**
   * Continues a run to its next stable boundary: an interrupted run is first rewound to its last stable
   * state (CREATED when it reached none); a run resting in PLAN_READY or DRAFT_READY takes the next steps;
   * VALIDATING re-validates only after an interruption (the fix loop is launch_fix_next's);
   * READY_FOR_PR is left for launch_open_pr.
   */
  async resume(runId: string, options: CallOptions = {}): Promise<RunStatus> {
    await this.withLease(runId, 'launch_resume', options, resumed);
    return this.status(runId);
  }

  /**
   * launch_resume as a task: the lease taken with `task` in one transaction (refused as resume refuses), then
   * the run continued to its next stable state in the background; returns once the task is durable.
   */
  async resumeAsTask(runId: string, task: NewTask): Promise<void> {
    const held = await this.leased(runId, 'launch_resume', { task, background: true }, resumed);
    // The resume rule refuses every run it does not lease (busy included): no lease, no task, no answer.
    if ('busy' in held) throw new Error(`launch_resume neither leased nor refused run ${runId}`);
  }

  /** Records a call's task on `runId`, bound to the lease `token` its work holds (tools/slow-call.ts). */
  async recordTask(task: NewTask, runId: string, token: string): Promise<void> {
    await this.deps.store.append(runId, null, taskOpened(task, token));
  }

  /** Stores how a call's task on `runId` ended (task-end.ts JSON), unless it has an end already. */
  async endTask(runId: string, taskId: string, outcome: string): Promise<void> {
    await this.deps.store.append(runId, null, taskEnded(taskId, outcome));
  }

  /** The tasks of this service's runs (server-kit's TaskBoard), answering with `outputs`. */
  taskBoard(outputs: TaskOutputs): LaunchTaskBoard {
    const drafts = new TaskDrafts({
      artifacts: this.deps.artifacts,
      index: this.deps.store,
      submit: (runId, draft) => this.submitDraft(runId, draft),
      maxTokens: this.deps.draftMaxTokens,
      logger: this.deps.logger,
    });
    return new LaunchTaskBoard(this.deps.store, (runId) => this.cancel(runId), outputs, drafts);
  }

  /** Claims one run whose executor died (its lease expired unreleased) and continues it here. */
  private async takeOverOne(): Promise<void> {
    const { store, leaseMs, logger } = this.deps;
    try {
      const claim = (token: string) => store.claimAbandoned(token, leaseMs);
      const continued: Work<void> = (execution, run) => continueRun(execution, run, 'no step left');
      const held = await this.hold(claim, continued, { background: true });
      if ('busy' in held) return;
      const { runId, state, activeWorker } = held.row;
      logger.warn('taking over a run whose executor stopped', {
        run_id: runId,
        state,
        active_worker: activeWorker,
      });
    } catch (error) {
      logger.warn('could not look for abandoned runs', { error });
    }
  }

  /**
   * The workspaces on this machine of runs another replica ended (finished, failed or cancelled there) go
   * now, not at this replica's next start; runs local work holds are left to it (ended-workspace.ts).
   */
  private async removeEndedWorkspaces(): Promise<void> {
    await sweepEndedWorkspaces(this.deps).catch((error: unknown) =>
      this.deps.logger.warn('could not remove the workspaces of ended runs', { error }),
    );
  }

  /**
   * CANCELLED at once (artifacts kept); local work is aborted now, other processes' within their next tick.
   * The workspace goes now, or when local work on it has stopped.
   */
  async cancel(runId: string): Promise<Omit<LaunchCancelOutput, 'ok'>> {
    await this.deps.store.append(runId, null, cancelled(cancelRefusal));
    const local = heldHere(runId).filter((lease) => lease.working);
    for (const lease of local) lease.abort('cancelled');
    if (local.length === 0) await removeWorkspaceIfEnded(this.deps, runId);
    return { run_id: runId, cancelled: true, state: 'CANCELLED' };
  }

  /**
   * `owner`'s client cancelled its tool call `request` (JSON-RPC id as JSON text) and the cancel reached this
   * process, not necessarily the one running the call (stateless HTTP): the lease that call holds is marked,
   * and its executor's watch aborts the step as for a cancel that reached it directly.
   */
  async cancelRequest(owner: string, request: string): Promise<void> {
    await this.deps.store.cancelRequest(owner, request);
  }

  /** W9 once: a run already PR_OPENED or DONE answers with the PR it has (no second PR). */
  async openPr(runId: string, options: CallOptions = {}): Promise<Omit<LaunchOpenPrOutput, 'ok'>> {
    const open = async (execution: Execution): Promise<PullRequestResult> => {
      const opened = await execution.runWorker('W9', (ctx) => this.deps.pipeline.openPullRequest(ctx));
      const { pr_url, branch, commit_sha } = opened;
      await execution.lease.append(transitioned('READY_FOR_PR', 'PR_OPENED', { pr_url, branch, commit_sha }));
      await markDone(execution);
      return { pr_url, branch, commit_sha };
    };
    return { run_id: runId, ...(await this.withLease(runId, 'launch_open_pr', options, open, openedPr)) };
  }

  /** `owner`'s runs, newest first (launch_list_runs pages them; resource listings, completions). */
  recentRuns(owner: string, filter: Omit<ListFilter, 'owner'>): Promise<RunRow[]> {
    return this.deps.store.list({ ...filter, owner });
  }

  /** Aborts background work (runs stay resumable), waits for it to settle. */
  async close(): Promise<void> {
    clearInterval(this.takeoverTimer);
    // Every lease's signal follows this one.
    this.shutdown.abort('shutdown');
    await Promise.allSettled([...this.background]);
  }
}

/** The PR of a run that has opened one (PR_OPENED or DONE): launch_open_pr answers with it again. */
function openedPr(row: RunRow): PullRequestResult | undefined {
  const state = runState(row);
  if (state !== 'PR_OPENED' && state !== 'DONE') return undefined;
  if (row.prUrl === null || row.branch === null || row.commitSha === null) return undefined;
  return { pr_url: row.prUrl, branch: row.branch, commit_sha: row.commitSha };
}

/** PR_OPENED → DONE: the PR is open, every section is DONE. */
async function markDone({ lease }: Execution): Promise<void> {
  await lease.append(transitioned('PR_OPENED', 'DONE'));
}

/**
 * A run as its last executor left it, continued: artifacts reconciled, the workspace rebuilt when this
 * machine lacks it, an interrupted step rewound (a fix settled first), then the automatic steps: to the
 * next stable state (launch_resume) or as far as the run's own drive would go (a takeover).
 */
async function continueRun(execution: Execution, row: RunRow, until: AdvanceUntil): Promise<void> {
  const { runId, lease } = execution;
  let state = runState(row);
  await execution.deps.artifacts.reconcile(runId);
  if (state === 'PR_OPENED') return markDone(execution);
  const disturbed =
    isTransitional(state) ||
    row.activeWorker !== null ||
    row.interruptedAt !== null ||
    row.lastError !== null;
  if (disturbed) {
    if (state === 'FIXING') {
      await execution.ensureWorkspace();
      await settleInterruptedFix(execution);
    }
    const target = rewindTarget(state, (row.lastStableState as RunState | null) ?? null);
    await lease.append(recorded({ type: 'RUN_REWOUND', payload: { from: state, to: target } }));
    state = target;
  }
  // VALIDATING re-validates only after an interruption; it and READY_FOR_PR have no automatic step.
  if (state === 'VALIDATING' && disturbed) await execution.validate();
  else await execution.advance(until);
}

/** `r_<UTC time as YYYY-MM-DDTHH-MM-SSZ>_<8 hex>`, e.g. r_2026-01-21T10-00-00Z_0f3a9c1e. */
export function newRunId(nowMs: number = Date.now()): string {
  const stamp = new Date(nowMs).toISOString().slice(0, 19).replace(/:/g, '-') + 'Z';
  return `r_${stamp}_${randomBytes(4).toString('hex')}`;
}
