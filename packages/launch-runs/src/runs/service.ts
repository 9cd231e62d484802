import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  ValidationReportSchema,
  type RunConfig,
  type RunState,
  type RunStatus,
  type RunSummary,
  type ValidationReport,
} from '@switchyard/contracts/launch-runs';
import type { RunRow } from '../db/schema.js';
import type { PullRequestResult } from '../pipeline/types.js';
import type { ArtifactContent } from '../store/artifact-store.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import {
  eventsToNdjson,
  verifyEventChain,
  type ChainVerification,
  type RunEvent,
} from '../store/event-chain.js';
import { countBlocking } from '../store/issue-store.js';
import { runState } from '../store/launch-store.js';
import { illegalState, runNotFound } from './errors.js';
import {
  configOf,
  RunExecutor,
  type Execution,
  type ExecutorDeps,
  type ProgressListener,
} from './executor.js';
import { newLeaseToken, retireLeaseToken } from './lease.js';
import { LeaseSession } from './lease-session.js';
import { newRunId } from './run-id.js';
import { isStable, isTransitional, rewindTarget } from './state-machine.js';
import { buildStatus, isInterrupted, summarize } from './status.js';
import { cancelRefusal, heldElsewhere, refusal, TOOL_RULES, type LeasedTool } from './tool-rules.js';

const PAGE_SIZE = 50;

export interface RunServiceDeps extends ExecutorDeps {
  leaseMs: number;
  /**
   * Replicas on one database (PostgreSQL): every this many milliseconds the service claims one run whose
   * executor died and continues it. Unset: runs a dead process left are marked interrupted at start
   * (sweepInterrupted) and wait for launch_resume.
   */
  takeoverMs?: number;
  now?: () => number;
}

export interface StartRunInput {
  run_config: RunConfig;
  idempotency_key?: string | undefined;
}

export interface CallOptions {
  /** The calling request's signal: cancelling the request interrupts the step (resumable). */
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

export interface FixOutcome {
  run_id: string;
  fixed_issue_id: string;
  applied_patch_ids: string[];
  remaining_blockers: number;
  validation_report: ValidationReport;
}

export interface ListRunsPage {
  runs: RunSummary[];
  next_cursor: string | null;
}

function encodeCursor(row: RunRow): string {
  return Buffer.from(JSON.stringify([row.createdMs, row.runId]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdMs: number; runId: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && Number.isInteger(value[0]) && typeof value[1] === 'string') {
      return { createdMs: value[0] as number, runId: value[1] };
    }
  } catch {
    // fall through to the validation error
  }
  throw new SwitchyardError('validation', 'cursor is not a next_cursor returned by launch_list_runs', {
    code: 'INVALID_INPUT',
    details: { reason: 'invalid_cursor' },
  });
}

/**
 * The launch runs: everything the tools do, as plain TypeScript over the store, the executor and the
 * pipeline. Every mutating operation holds the run's lease while it works, so there is one executor per
 * run at a time, in this process and across processes sharing the database.
 */
export class LaunchRunService {
  private readonly executor: RunExecutor;
  /** The leases this service holds right now, to abort on cancel and shutdown. */
  private readonly sessions = new Set<LeaseSession>();
  private readonly background = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();
  private readonly now: () => number;

  private readonly takeoverTimer: NodeJS.Timeout | undefined;
  private claiming = false;

  constructor(private readonly deps: RunServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.executor = new RunExecutor(deps);
    if (deps.takeoverMs !== undefined) {
      this.takeoverTimer = setInterval(() => this.watchForAbandonedRuns(), deps.takeoverMs);
      this.takeoverTimer.unref();
      this.watchForAbandonedRuns();
    }
  }

  private watchForAbandonedRuns(): void {
    if (this.claiming) return;
    this.claiming = true;
    void this.takeOverOne()
      .catch((error: unknown) => this.deps.logger.warn('could not look for abandoned runs', { error }))
      .finally(() => (this.claiming = false));
  }

  // ---- queries ------------------------------------------------------------------------------------

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
    const row = await this.requireRow(runId);
    const [artifacts, issues] = await Promise.all([
      this.deps.artifacts.list(runId),
      this.deps.store.openIssues(runId),
    ]);
    return buildStatus(row, artifacts, issues, this.now());
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

  /** `owner`'s runs, newest first. */
  async list(
    owner: string,
    filter: { product_slug?: string; state?: RunState },
    cursor: string | undefined,
    limit = PAGE_SIZE,
  ): Promise<ListRunsPage> {
    const size = Math.min(Math.max(limit, 1), PAGE_SIZE);
    const rows = await this.deps.store.list({
      owner,
      productSlug: filter.product_slug,
      state: filter.state,
      before: cursor === undefined ? undefined : decodeCursor(cursor),
      limit: size + 1,
    });
    const page = rows.slice(0, size);
    const last = page[page.length - 1];
    return {
      runs: page.map(summarize),
      next_cursor: rows.length > size && last !== undefined ? encodeCursor(last) : null,
    };
  }

  async events(runId: string): Promise<RunEvent[]> {
    await this.requireRow(runId);
    return this.deps.store.events(runId);
  }

  async eventsNdjson(runId: string): Promise<string> {
    return eventsToNdjson(await this.events(runId));
  }

  async verifyEvents(runId: string): Promise<ChainVerification> {
    return verifyEventChain(await this.events(runId));
  }

  // ---- launch_start_run -----------------------------------------------------------------------------

  /**
   * Records the run (CREATED) and starts the background work; returns at once. The same idempotency key
   * with the same config hash returns the existing run (the unique index decides between concurrent
   * callers, also across processes); with a different config it is INVALID_INPUT.
   */
  async startRun(
    owner: string,
    input: StartRunInput,
    onProgress?: ProgressListener,
  ): Promise<{ run_id: string; state: RunState; created: boolean }> {
    const config = canonicalJson(input.run_config);
    const configHash = sha256Hex(config);
    const key = input.idempotency_key;
    if (key !== undefined) {
      const existing = await this.deps.store.getByIdempotencyKey(owner, key);
      if (existing !== undefined) return this.existingRun(existing, configHash);
    }
    const token = newLeaseToken();
    const { row, created } = await this.deps.store.insert({
      runId: newRunId(this.now()),
      owner,
      productSlug: input.run_config.product_slug,
      config,
      configHash,
      idempotencyKey: key,
      sectionStates: Object.fromEntries(
        input.run_config.required_sections.map((section) => [section, 'NOT_STARTED']),
      ),
      leaseOwner: token,
      leaseMs: this.deps.leaseMs,
    });
    if (!created) {
      retireLeaseToken(token);
      return this.existingRun(row, configHash);
    }
    this.runInBackground(row.runId, token, onProgress);
    return { run_id: row.runId, state: 'CREATED', created: true };
  }

  private existingRun(
    row: RunRow,
    configHash: string,
  ): { run_id: string; state: RunState; created: boolean } {
    if (row.configHash !== configHash) {
      throw new SwitchyardError(
        'validation',
        'idempotency_key was already used for a run with a different run_config; use a new key or the same config',
        { code: 'INVALID_INPUT', details: { reason: 'idempotency_key_reused', run_id: row.runId } },
      );
    }
    return { run_id: row.runId, state: runState(row), created: false };
  }

  private runInBackground(runId: string, token: string, onProgress?: ProgressListener): void {
    this.inBackground(runId, () =>
      this.underLease(runId, token, onProgress, (execution) => this.executor.advance(execution, () => false)),
    );
  }

  private inBackground(runId: string, work: () => Promise<void>): void {
    const job = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => this.deps.logger.error('background run failed', { run_id: runId, error }));
    this.background.add(job);
    void job.finally(() => this.background.delete(job));
  }

  /**
   * Background work on a run whose lease `token` already holds (a new run; a claimed one): W1..W7 until
   * VALIDATING (report not ok) or READY_FOR_PR; a failure is settled on the run and logged.
   */
  private async underLease(
    runId: string,
    token: string,
    onProgress: ProgressListener | undefined,
    work: (execution: Execution, row: RunRow) => Promise<unknown>,
  ): Promise<void> {
    const acquired = await LeaseSession.acquire(this.deps.store, runId, this.deps.leaseMs, {
      token,
      signals: { shutdown: this.shutdown.signal },
      now: this.now,
    });
    if ('busy' in acquired) {
      retireLeaseToken(token);
      return;
    }
    const execution = this.execution(acquired.session, acquired.row, onProgress);
    try {
      await work(execution, acquired.row);
      const row = await this.deps.store.get(runId);
      this.deps.logger.info('run reached a stop', { run_id: runId, state: row?.state });
    } catch (thrown) {
      const error = await this.executor.settleFailure(execution, thrown);
      this.deps.logger.info('run stopped', { run_id: runId, code: error.code, message: error.message });
    } finally {
      await this.endSession(acquired.session);
    }
  }

  private execution(session: LeaseSession, row: RunRow, onProgress?: ProgressListener): Execution {
    this.sessions.add(session);
    return { runId: session.runId, session, config: configOf(row), onProgress };
  }

  private async endSession(session: LeaseSession): Promise<void> {
    this.sessions.delete(session);
    try {
      await session.release();
    } catch (error) {
      this.deps.logger.warn('could not release a run lease', { run_id: session.runId, error });
    }
  }

  /**
   * Runs `tool`'s `work` under the run's lease once the tool's rule (tool-rules.ts) accepts the run as the
   * lease attempt found it; a run another executor holds is refused by the rule, or else answered busy.
   * `answered` gives the answer a run already holds (no work needed). A failure of `work` is settled
   * (recorded, or the run FAILED) and rethrown.
   */
  private async withLease<T>(
    runId: string,
    tool: LeasedTool,
    options: CallOptions,
    work: (execution: Execution, row: RunRow) => Promise<T>,
    answered?: (row: RunRow) => T | undefined,
  ): Promise<T> {
    const acquired = await LeaseSession.acquire(this.deps.store, runId, this.deps.leaseMs, {
      signals: { shutdown: this.shutdown.signal, request: options.signal },
      now: this.now,
    });
    const session = 'busy' in acquired ? undefined : acquired.session;
    const row = 'busy' in acquired ? acquired.busy : acquired.row;
    try {
      const answer = answered?.(row);
      if (answer !== undefined) return answer;
      // The rule reads the run as it stood before this call: without the lease just taken.
      const refused = refusal(tool, session === undefined ? row : { ...row, leaseOwner: null }, {
        nowMs: this.now(),
        paths: this.deps.paths,
        workspaceRebuilt: this.deps.store.dialect === 'postgres',
        busy: session === undefined,
      });
      if (refused !== undefined) throw refused;
      if (session === undefined) throw heldElsewhere(tool, row);
      const execution = this.execution(session, row, options.onProgress);
      try {
        return await work(execution, row);
      } catch (thrown) {
        throw await this.executor.settleFailure(execution, thrown);
      }
    } finally {
      if (session !== undefined) await this.endSession(session);
    }
  }

  // ---- launch_validate ------------------------------------------------------------------------------

  async validate(runId: string, options: CallOptions = {}): Promise<ValidationReport> {
    return this.withLease(runId, 'launch_validate', options, async (execution) => {
      const { report, row } = await this.executor.validate(execution);
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

  // ---- launch_fix_next ------------------------------------------------------------------------------

  private async lastReport(runId: string): Promise<ValidationReport | undefined> {
    const content = await this.deps.artifacts.read(runId, 'validation_report.json');
    if (content === undefined) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(Buffer.from(content.bytes).toString('utf8'));
    } catch {
      json = undefined;
    }
    const parsed = ValidationReportSchema.safeParse(json);
    if (!parsed.success) {
      throw new SwitchyardError('validation', 'validation_report.json breaks its schema', {
        code: 'SCHEMA_VALIDATION_FAILED',
        details: { artifact: 'validation_report.json' },
      });
    }
    return parsed.data;
  }

  /** FIX_EXHAUSTED: the run FAILS from `state` with `details`, and the caller gets the same code. */
  private async exhausted(
    execution: Execution,
    state: RunState,
    message: string,
    details: Record<string, unknown>,
  ): Promise<SwitchyardError> {
    await this.executor.fail(execution, state, { code: 'FIX_EXHAUSTED', message, retryable: false, details });
    return new SwitchyardError('conflict', message, { code: 'FIX_EXHAUSTED', details });
  }

  /**
   * One fix (W8) for the next issue of the last report, then re-validation (W7). Applied fixes count
   * against max_fix_attempts: at the limit the run FAILS with FIX_EXHAUSTED; a fix that changes nothing
   * FAILS it with details.reason = fix_no_op. A call whose request goes away before its fix is written
   * leaves the run as it was (see RunExecutor.fix).
   */
  async fixNext(runId: string, options: CallOptions = {}): Promise<FixOutcome> {
    return this.withLease(runId, 'launch_fix_next', options, async (execution, row) => {
      const max = execution.config.max_fix_attempts;
      if (row.fixAttempts >= max) {
        throw await this.exhausted(
          execution,
          'VALIDATING',
          `max_fix_attempts (${max}) reached with blocking issues left; the run has FAILED`,
          { fix_attempts: row.fixAttempts, max_fix_attempts: max },
        );
      }
      const report = await this.lastReport(runId);
      if (report === undefined) {
        throw illegalState({
          message: `Run ${runId} has no validation_report.json`,
          current: 'VALIDATING',
          rule: TOOL_RULES.launch_fix_next,
          details: { reason: 'no_validation_report' },
        });
      }
      const fix = await this.executor.fix(execution, report, row.fixAttempts + 1);
      if (!fix.applied) {
        throw await this.exhausted(
          execution,
          'FIXING',
          `The fix for issue ${fix.fixed_issue_id} changed nothing; the run has FAILED`,
          { reason: 'fix_no_op', issue_id: fix.fixed_issue_id, fix_attempts: row.fixAttempts },
        );
      }
      const { report: next } = await this.executor.validate(execution);
      return {
        run_id: runId,
        fixed_issue_id: fix.fixed_issue_id,
        applied_patch_ids: fix.applied_patch_ids,
        remaining_blockers: countBlocking(next),
        validation_report: next,
      };
    });
  }

  // ---- launch_resume --------------------------------------------------------------------------------

  /**
   * Continues a run to its next stable boundary: an interrupted run is first rewound to its last stable
   * state (CREATED when it reached none); a run resting in PLAN_READY or DRAFT_READY takes the next steps;
   * VALIDATING re-validates only after an interruption (the fix loop is launch_fix_next's);
   * READY_FOR_PR is left for launch_open_pr.
   */
  async resume(runId: string, options: CallOptions = {}): Promise<RunStatus> {
    await this.withLease(runId, 'launch_resume', options, (execution, row) =>
      this.continueRun(execution, row, (current, steps) => steps > 0 && isStable(current)),
    );
    return this.status(runId);
  }

  /**
   * A run as its last executor left it, continued: artifacts reconciled, the workspace rebuilt when this
   * machine lacks it, an interrupted step rewound (a fix settled first), then the automatic steps until
   * `stop` (launch_resume: the next stable state; a takeover: as far as the run's own drive would go).
   */
  private async continueRun(
    execution: Execution,
    row: RunRow,
    stop: (state: RunState, stepsDone: number) => boolean,
  ): Promise<void> {
    const { store } = this.deps;
    const { runId } = execution;
    const token = execution.session.token;
    let state = runState(row);
    await this.deps.artifacts.reconcile(runId);
    if (state === 'PR_OPENED') {
      await store.transition(runId, 'PR_OPENED', 'DONE', {
        token,
        patch: { activeWorker: null, sectionStates: this.allDone(row) },
      });
      return;
    }
    const disturbed =
      isTransitional(state) || row.activeWorker !== null || row.interruptedAt !== null || row.lastError !== null;
    if (disturbed) {
      if (state === 'FIXING') {
        await this.executor.ensureWorkspace(execution);
        await this.executor.settleInterruptedFix(execution);
      }
      const target = rewindTarget(state, (row.lastStableState as RunState | null) ?? null);
      await store.rewind(runId, token, state, target);
      state = target;
    }
    if (state === 'VALIDATING') {
      if (disturbed) await this.executor.validate(execution);
      return;
    }
    if (state === 'READY_FOR_PR') return;
    await this.executor.advance(execution, stop);
  }

  // ---- takeover (PostgreSQL: replicas) --------------------------------------------------------------

  /** Claims one run whose executor died (its lease expired unreleased) and continues it here. */
  private async takeOverOne(): Promise<void> {
    if (this.shutdown.signal.aborted) return;
    const token = newLeaseToken();
    const claimed = await this.deps.store.claimAbandoned(token, this.deps.leaseMs);
    if (claimed === undefined) {
      retireLeaseToken(token);
      return;
    }
    this.deps.logger.warn('taking over a run whose executor stopped', {
      run_id: claimed.runId,
      state: claimed.state,
      active_worker: claimed.activeWorker,
    });
    this.inBackground(claimed.runId, () =>
      this.underLease(claimed.runId, token, undefined, (execution, row) =>
        this.continueRun(execution, row, () => false),
      ),
    );
  }

  private allDone(row: RunRow): Record<string, 'DONE'> {
    return Object.fromEntries(
      Object.keys(JSON.parse(row.sectionStates) as object).map((section) => [section, 'DONE' as const]),
    );
  }

  // ---- launch_cancel --------------------------------------------------------------------------------

  /** CANCELLED at once (artifacts kept); local work is aborted now, other processes' within their next tick. */
  async cancel(runId: string): Promise<{ run_id: string; cancelled: true; state: 'CANCELLED' }> {
    await this.deps.store.cancel(runId, cancelRefusal);
    for (const session of this.sessions) if (session.runId === runId) session.abort('cancelled');
    return { run_id: runId, cancelled: true, state: 'CANCELLED' };
  }

  // ---- launch_open_pr -------------------------------------------------------------------------------

  /** The PR of a run that has opened one (PR_OPENED or DONE): launch_open_pr answers with it again. */
  private openedPr(row: RunRow): PullRequestResult | undefined {
    const state = runState(row);
    if (state !== 'PR_OPENED' && state !== 'DONE') return undefined;
    if (row.prUrl === null || row.branch === null || row.commitSha === null) return undefined;
    return { pr_url: row.prUrl, branch: row.branch, commit_sha: row.commitSha };
  }

  /** W9 once: a run already PR_OPENED or DONE answers with the PR it has (no second PR). */
  async openPr(runId: string, options: CallOptions = {}): Promise<PullRequestResult & { run_id: string }> {
    const pr = await this.withLease(
      runId,
      'launch_open_pr',
      options,
      async (execution, row) => {
        const { store, pipeline } = this.deps;
        const token = execution.session.token;
        const opened = await this.executor.runWorker(execution, 'W9', (ctx) => pipeline.openPullRequest(ctx));
        await store.transition(runId, 'READY_FOR_PR', 'PR_OPENED', {
          token,
          patch: {
            prUrl: opened.pr_url,
            branch: opened.branch,
            commitSha: opened.commit_sha,
            lastError: null,
          },
          payload: { pr_url: opened.pr_url, branch: opened.branch, commit_sha: opened.commit_sha },
        });
        await store.transition(runId, 'PR_OPENED', 'DONE', {
          token,
          patch: { sectionStates: this.allDone(row) },
        });
        return opened;
      },
      (row) => this.openedPr(row),
    );
    return { run_id: runId, pr_url: pr.pr_url, branch: pr.branch, commit_sha: pr.commit_sha };
  }

  // ---- lifecycle ------------------------------------------------------------------------------------

  /**
   * Startup: runs a dead process left mid-step are marked interrupted (RUN_INTERRUPTED) and their lease
   * freed, so launch_get_status reports details.interrupted=true and launch_resume can take them.
   */
  async sweepInterrupted(): Promise<string[]> {
    const { store } = this.deps;
    const marked: string[] = [];
    for (const candidate of await store.unfinished()) {
      if (candidate.interruptedAt !== null || !isInterrupted(candidate, this.now())) continue;
      const changed = await store.updateIf(candidate.runId, (row) => {
        if (row.interruptedAt !== null || !isInterrupted(row, this.now())) return undefined;
        return {
          patch: { interruptedAt: new Date(this.now()).toISOString(), leaseOwner: null, leaseExpiresMs: null },
          event: { type: 'RUN_INTERRUPTED', payload: { state: row.state, active_worker: row.activeWorker } },
        };
      });
      if (changed !== undefined) marked.push(changed.runId);
    }
    return marked;
  }

  /**
   * `owner`'s newest runs first, optionally only those whose id starts with `runIdPrefix` (resource listings,
   * completions).
   */
  recentRuns(owner: string, limit: number, runIdPrefix?: string): Promise<RunRow[]> {
    return this.deps.store.list({ owner, limit, runIdPrefix });
  }

  /** Aborts background work (runs stay resumable), waits for it to settle. */
  async close(): Promise<void> {
    clearInterval(this.takeoverTimer);
    this.shutdown.abort('shutdown');
    for (const session of this.sessions) session.abort('shutdown');
    await Promise.allSettled([...this.background]);
  }
}
