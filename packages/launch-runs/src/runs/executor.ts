import fs from 'node:fs/promises';
import path from 'node:path';
import {
  codeFor,
  describeIssues,
  LAUNCH_ERROR_TABLE,
  retryableFor,
  summarizeIssues,
  SwitchyardError,
  toSwitchyardError,
} from '@switchyard/contracts/errors';
import {
  RunConfigSchema,
  ValidationReportSchema,
  type RunConfig,
  type RunState,
  type ValidationReport,
} from '@switchyard/contracts/launch-runs';
import { redactSecrets } from '@switchyard/resilience/context';
import type { Logger } from '@switchyard/server-kit/runtime';
import type { RunRow } from '../db/schema.js';
import { sha256OfFile } from '../pipeline/file-reads.js';
import type {
  AppliedFix,
  InputsResult,
  LaunchPipeline,
  LinkResult,
  SectionProgress,
  WorkerContext,
} from '../pipeline/types.js';
import type { ArtifactRepository } from '../store/artifact-store.js';
import type { RunEvent } from '../store/event-chain.js';
import { countBlocking } from '../store/issue-store.js';
import type { RunPaths } from '../store/run-paths.js';
import {
  runState,
  sectionStatesOf,
  type RunFailure,
  type LaunchStore,
  type RunPatch,
  type SectionStates,
} from '../store/launch-store.js';
import type { LaunchTelemetry } from '../telemetry/telemetry.js';
import { LeaseLostError, runCancelled } from './errors.js';
import type { LeaseSession } from './lease-session.js';
import { isAtLeast, isTerminal } from './state-machine.js';
import { AUTOMATIC_STEP_COUNT, WORKER_NAMES, type WorkerId } from './worker-ids.js';

/** What a step's worker records on the run as it moves it on. */
interface StepRecord {
  patch?: RunPatch;
  payload?: Record<string, unknown>;
}

function inputsRecord({ source_sha, site_sha }: InputsResult): StepRecord {
  return { patch: { sourceSha: source_sha, siteSha: site_sha }, payload: { source_sha, site_sha } };
}

/** A worker's section progress merged into the run's section states (sections the run has not are dropped). */
function sectionsRecord(result: { sections: SectionProgress }, row: RunRow): StepRecord {
  const sections: SectionStates = { ...sectionStatesOf(row) };
  for (const [section, state] of Object.entries(result.sections)) {
    if (section in sections && state !== undefined) sections[section] = state;
  }
  return { patch: { sectionStates: sections } };
}

function linkRecord(link: LinkResult, row: RunRow): StepRecord {
  return { ...sectionsRecord(link, row), payload: { applied_patch_ids: [...link.applied_patch_ids].sort() } };
}

/** The pipeline calls of automatic steps: the workers that take nothing but their context. */
type StepCall = 'cloneInputs' | 'extractFacts' | 'catalogSnippets' | 'planPages' | 'draftPages' | 'linkPages';

/**
 * An automatic step: from a state, the worker that runs (after entering `enter`), its pipeline call, where it
 * leads and what it records on the way. W7 has no `call`: `validate` records its report and moves the run.
 */
interface Step {
  worker: WorkerId;
  enter?: RunState;
  call?: StepCall;
  to: RunState;
  /** Reads the result of the step's own `call` (a method, so each record may name that result's type). */
  record?(result: unknown, row: RunRow): StepRecord;
}

const STEPS: Readonly<Partial<Record<RunState, Step>>> = {
  CREATED: { worker: 'W1', call: 'cloneInputs', to: 'CLONED_INPUTS', record: inputsRecord },
  CLONED_INPUTS: { worker: 'W2', call: 'extractFacts', to: 'INGESTED' },
  INGESTED: { worker: 'W3', call: 'catalogSnippets', to: 'FACTS_READY' },
  FACTS_READY: { worker: 'W4', call: 'planPages', to: 'PLAN_READY', record: sectionsRecord },
  PLAN_READY: {
    worker: 'W5',
    enter: 'DRAFTING',
    call: 'draftPages',
    to: 'DRAFT_READY',
    record: sectionsRecord,
  },
  DRAFT_READY: { worker: 'W6', call: 'linkPages', to: 'LINKING', record: linkRecord },
  LINKING: { worker: 'W7', to: 'VALIDATING' },
};

const PRECONDITION_CODES = new Set(['ILLEGAL_STATE', 'RUN_NOT_FOUND', 'CANCELLED']);

export interface ProgressUpdate {
  runId: string;
  state: RunState;
  worker?: WorkerId;
  /** Steps finished so far, of `total`. */
  progress: number;
  total: number;
  message: string;
}

export type ProgressListener = (update: ProgressUpdate) => void;

/** What W8 did: `applied` false is a fix that changes nothing (nothing written, not counted). */
export interface FixAttempt {
  fixed_issue_id: string;
  applied_patch_ids: string[];
  applied: boolean;
}

/** The FIX_APPLYING event: what a fix is about to write, so a resume can tell whether it was written. */
interface FixIntent {
  issue_id: string;
  attempt: number;
  patch_id: string;
  path: string;
  before_sha256: string;
  after_sha256: string;
}

/** The worktree file at a site path recorded by the pipeline; undefined for a path that could leave it. */
function siteFile(siteRoot: string, sitePath: string): string | undefined {
  const segments = sitePath.split('/');
  if (sitePath.startsWith('/') || segments.some((segment) => segment === '' || segment === '..'))
    return undefined;
  return path.join(siteRoot, ...segments);
}

/** One holder of a run's lease doing work on it. */
export interface Execution {
  runId: string;
  session: LeaseSession;
  config: RunConfig;
  onProgress?: ProgressListener;
}

export interface ExecutorDeps {
  store: LaunchStore;
  artifacts: ArtifactRepository;
  paths: RunPaths;
  pipeline: LaunchPipeline;
  telemetry: LaunchTelemetry;
  logger: Logger;
  env: Readonly<Record<string, string | undefined>>;
}

export function configOf(row: RunRow): RunConfig {
  return RunConfigSchema.parse(JSON.parse(row.config));
}

/** The failure as recorded on the run (status details.error), with every registered secret redacted. */
export function failureOf(error: SwitchyardError): RunFailure {
  return JSON.parse(
    redactSecrets(
      JSON.stringify({
        code: codeFor(LAUNCH_ERROR_TABLE, error.kind, error.code),
        message: error.message,
        retryable: retryableFor(LAUNCH_ERROR_TABLE, error),
        details: error.details ?? {},
      }),
    ),
  ) as RunFailure;
}

/**
 * Failures that leave the run where it is, to be retried once the environment is fixed (a missing site
 * generator, a commit service that is down); any other failure fails the run.
 */
function isRecoverable(failure: RunFailure): boolean {
  return failure.code === 'TOOLCHAIN_MISSING' || failure.code === 'COMMIT_SERVICE_ERROR' || failure.retryable;
}

/**
 * Drives a run through the pipeline's workers under a lease: every worker execution is a span and emits
 * WORK_ITEM_STARTED then WORK_ITEM_FINISHED or WORK_ITEM_FAILED; every state change is one transaction
 * with its event. Plain TypeScript: no MCP here.
 */
export class RunExecutor {
  constructor(private readonly deps: ExecutorDeps) {}

  /** The error a caller sees when the work was aborted, by why it was aborted. */
  abortError(execution: Execution): SwitchyardError {
    const reason = execution.session.abortReason;
    if (reason === 'cancelled') return runCancelled(execution.runId);
    return new SwitchyardError(
      'internal',
      reason === 'shutdown'
        ? 'The server shut down during this step; the run is interrupted and can be resumed with launch_resume'
        : 'The step was interrupted before it finished; the run can be resumed with launch_resume',
      { retryable: true, details: { cause_class: 'Interrupted', reason: reason ?? 'lease-lost' } },
    );
  }

  private throwIfAborted(execution: Execution): void {
    if (execution.session.signal.aborted) throw this.abortError(execution);
  }

  /** Runs one worker inside its span with the WORK_ITEM_* events around it. */
  async runWorker<T>(
    execution: Execution,
    worker: WorkerId,
    fn: (ctx: WorkerContext) => Promise<T>,
  ): Promise<T> {
    const { store, telemetry } = this.deps;
    const { runId, session } = execution;
    this.throwIfAborted(execution);
    return telemetry.inSpan(
      `launch.worker ${worker} ${WORKER_NAMES[worker]}`,
      { kind: 'worker', worker, runId },
      async () => {
        const started = performance.now();
        await store.update(
          runId,
          {
            patch: { activeWorker: worker },
            event: { type: 'WORK_ITEM_STARTED', payload: { worker, name: WORKER_NAMES[worker] } },
          },
          { token: session.token },
        );
        await fs.mkdir(this.deps.paths.runDir(runId), { recursive: true });
        const ctx = this.workerContext(execution, worker, session.signal);
        try {
          if (worker !== 'W1') await this.ensureWorkspace(execution, ctx);
          const result = await fn(ctx);
          this.throwIfAborted(execution);
          await store.update(
            runId,
            {
              patch: { activeWorker: null },
              event: {
                type: 'WORK_ITEM_FINISHED',
                payload: {
                  worker,
                  name: WORKER_NAMES[worker],
                  duration_ms: Math.round(performance.now() - started),
                },
              },
            },
            { token: session.token },
          );
          return result;
        } catch (thrown) {
          const error = session.signal.aborted ? this.abortError(execution) : toSwitchyardError(thrown);
          const interrupted =
            session.abortReason === 'shutdown' || session.abortReason === 'request-cancelled';
          await this.recordWorkerFailure(runId, worker, error, { keepActive: interrupted });
          throw thrown instanceof LeaseLostError ? thrown : error;
        }
      },
    );
  }

  /**
   * The run's workspace (source clone, site worktree) on this machine: a run another replica worked on, or
   * one whose workspace is gone, gets it rebuilt from the repositories at the pinned commits, the recorded
   * patch bundle and the applied fixes in order (pipeline.restoreWorkspace; nothing when it is there).
   */
  async ensureWorkspace(execution: Execution, ctx?: WorkerContext): Promise<void> {
    if (this.deps.paths.hasWorkspace(execution.runId)) return;
    const row = await this.requireRow(execution.runId);
    if (row.sourceSha === null || row.siteSha === null || runState(row) === 'CREATED') return;
    await this.deps.pipeline.restoreWorkspace(
      ctx ?? this.workerContext(execution, 'W1', execution.session.signal),
      {
        inputs: { source_sha: row.sourceSha, site_sha: row.siteSha },
        linked: isAtLeast(runState(row), 'LINKING'),
        fixes: appliedFixes(await this.deps.store.events(execution.runId)),
      },
    );
  }

  /** What a worker gets: the run, its artifacts and `signal`, the one its writes stop on. */
  private workerContext(execution: Execution, worker: WorkerId, signal: AbortSignal): WorkerContext {
    const { runId, session } = execution;
    return {
      runId,
      config: execution.config,
      runDir: this.deps.paths.runDir(runId),
      artifacts: this.deps.artifacts.writer(runId, worker, { token: session.token, signal }),
      signal,
      logger: this.deps.logger.child({ run_id: runId, worker }),
      env: this.deps.env,
    };
  }

  private async recordWorkerFailure(
    runId: string,
    worker: WorkerId,
    error: SwitchyardError,
    options: { keepActive: boolean },
  ): Promise<void> {
    try {
      const failure = failureOf(error);
      await this.deps.store.updateIf(runId, (row) => ({
        patch: options.keepActive || row.activeWorker !== worker ? {} : { activeWorker: null },
        event: {
          type: 'WORK_ITEM_FAILED',
          payload: { worker, name: WORKER_NAMES[worker], code: failure.code, message: failure.message },
        },
      }));
    } catch (recordError) {
      this.deps.logger.warn('could not record a worker failure', {
        run_id: runId,
        worker,
        error: recordError,
      });
    }
  }

  /**
   * Runs automatic steps (W1..W7) until `stop(state, stepsDone)` says so, the run has no automatic step
   * left (VALIDATING, READY_FOR_PR) or it ends. Returns the run row at the end.
   */
  async advance(
    execution: Execution,
    stop: (state: RunState, stepsDone: number) => boolean,
  ): Promise<RunRow> {
    let steps = 0;
    for (;;) {
      this.throwIfAborted(execution);
      const row = await this.requireRow(execution.runId);
      const state = runState(row);
      const step = STEPS[state];
      if (isTerminal(state) || step === undefined || stop(state, steps)) return row;
      await this.runStep(execution, row, state, step);
      steps += 1;
    }
  }

  private async requireRow(runId: string): Promise<RunRow> {
    const row = await this.deps.store.get(runId);
    if (row === undefined) throw new LeaseLostError(runId);
    return row;
  }

  private async runStep(execution: Execution, row: RunRow, state: RunState, step: Step): Promise<void> {
    const { store, pipeline } = this.deps;
    const { runId, session } = execution;
    const token = session.token;
    if (step.enter !== undefined) await store.transition(runId, state, step.enter, { token });
    const call = step.call;
    if (call === undefined) {
      await this.validate(execution);
    } else {
      const result = await this.runWorker<unknown>(execution, step.worker, (ctx) => pipeline[call](ctx));
      await store.transition(runId, step.enter ?? state, step.to, { token, ...step.record?.(result, row) });
    }
    const after = runState(await this.requireRow(runId));
    execution.onProgress?.({
      runId,
      state: after,
      worker: step.worker,
      progress: Number(step.worker.slice(1)),
      total: AUTOMATIC_STEP_COUNT,
      message: `${step.worker} ${WORKER_NAMES[step.worker]} done: ${after}`,
    });
  }

  /**
   * W7, then records the report and moves the run: LINKING or FIXING → VALIDATING, and on to READY_FOR_PR
   * when the report is ok; in later states the report is recorded without a state change. One transaction.
   */
  async validate(execution: Execution): Promise<{ report: ValidationReport; row: RunRow }> {
    const raw = await this.runWorker(execution, 'W7', (ctx) => this.deps.pipeline.validateSite(ctx));
    const parsed = ValidationReportSchema.safeParse(raw);
    if (!parsed.success) {
      throw new SwitchyardError(
        'validation',
        `validation_report breaks its schema: ${describeIssues(parsed.error.issues)}`,
        {
          code: 'SCHEMA_VALIDATION_FAILED',
          details: { artifact: 'validation_report.json', issues: summarizeIssues(parsed.error.issues) },
        },
      );
    }
    const report = parsed.data;
    const { runId, session } = execution;
    const row = await this.deps.store.recordValidation(runId, session.token, report, {
      ok: report.ok,
      profile: report.profile,
      blocking: countBlocking(report),
      issues: report.issues.length,
      gates: report.gates.map((gate) => ({
        name: gate.name,
        ok: gate.ok,
        skipped: gate.skipped ?? false,
      })),
    });
    return { report, row };
  }

  /**
   * W8 around its commit point. VALIDATING → FIXING, then the fix is planned, writing nothing: when the
   * request goes away meanwhile (its client disconnects, times out or cancels) the run goes back to
   * VALIDATING as it was and the attempt does not count. Then FIX_APPLYING records what is about to be
   * written, the file is written and FIX_APPLIED counts the attempt (`fix_attempts`). From FIX_APPLYING on,
   * only launch_cancel or a lost lease stops it; a process that dies in between leaves FIX_APPLYING for
   * launch_resume to settle (`settleInterruptedFix`). A fix that changes nothing is not applied (the caller
   * fails the run with fix_no_op).
   */
  async fix(execution: Execution, report: ValidationReport, attempt: number): Promise<FixAttempt> {
    const { store, pipeline } = this.deps;
    const { runId, session } = execution;
    await store.transition(runId, 'VALIDATING', 'FIXING', {
      token: session.token,
      payload: { attempt, max_fix_attempts: execution.config.max_fix_attempts },
    });
    let applying = false;
    try {
      return await this.runWorker(execution, 'W8', async (ctx) => {
        const plan = await pipeline.planFix(ctx, report);
        if (plan.change === null) {
          await pipeline.applyFix(ctx, plan);
          return { fixed_issue_id: plan.issue_id, applied_patch_ids: [], applied: false };
        }
        this.throwIfAborted(execution);
        const intent: FixIntent = {
          issue_id: plan.issue_id,
          attempt,
          patch_id: plan.change.patch_id,
          path: plan.change.path,
          before_sha256: plan.change.before_sha256,
          after_sha256: plan.change.after_sha256,
        };
        await store.update(
          runId,
          { patch: {}, event: { type: 'FIX_APPLYING', payload: { ...intent } } },
          { token: session.token },
        );
        applying = true;
        await pipeline.applyFix(this.workerContext(execution, 'W8', session.takenSignal), plan);
        await this.recordFixApplied(execution, intent, false);
        return { fixed_issue_id: plan.issue_id, applied_patch_ids: [intent.patch_id], applied: true };
      });
    } catch (thrown) {
      if (!applying && session.abortReason === 'request-cancelled')
        await this.putBackUnappliedFix(execution, attempt);
      throw thrown;
    }
  }

  private async recordFixApplied(execution: Execution, intent: FixIntent, recovered: boolean): Promise<void> {
    await this.deps.store.update(
      execution.runId,
      {
        patch: { fixAttempts: intent.attempt },
        event: {
          type: 'FIX_APPLIED',
          payload: {
            issue_id: intent.issue_id,
            applied_patch_ids: [intent.patch_id],
            attempt: intent.attempt,
            ...(recovered ? { recovered: true } : {}),
          },
        },
      },
      { token: execution.session.token },
    );
  }

  /** A fix whose request went away before anything was written: the run is VALIDATING again, as it was. */
  private async putBackUnappliedFix(execution: Execution, attempt: number): Promise<void> {
    try {
      await this.deps.store.transition(execution.runId, 'FIXING', 'VALIDATING', {
        token: execution.session.token,
        patch: { activeWorker: null },
        payload: { reason: 'fix_not_applied', attempt },
      });
    } catch (error) {
      // The run stays FIXING and reads as interrupted: launch_resume rewinds it.
      this.deps.logger.warn('could not put back a fix that was not applied', {
        run_id: execution.runId,
        error,
      });
    }
  }

  /**
   * launch_resume on a fix interrupted between FIX_APPLYING and FIX_APPLIED (the process died while writing):
   * the attempt counts when the worktree file holds the planned content, and does not otherwise.
   */
  async settleInterruptedFix(execution: Execution): Promise<void> {
    const { runId } = execution;
    const last = (await this.deps.store.events(runId))
      .filter(
        (event) =>
          event.type === 'FIX_APPLYING' ||
          event.type === 'FIX_APPLIED' ||
          (event.type === 'STATE_CHANGED' && event.payload.to === 'FIXING'),
      )
      .at(-1);
    if (last?.type !== 'FIX_APPLYING') return;
    const intent = last.payload as unknown as FixIntent;
    const file = siteFile(this.deps.paths.siteWorktree(runId), intent.path);
    if (file === undefined) return;
    const info = await fs.lstat(file).catch(() => undefined);
    if (info?.isFile() !== true) return;
    if ((await sha256OfFile(file)) === intent.after_sha256) await this.recordFixApplied(execution, intent, true);
  }

  /**
   * What a failed step leaves behind: a recoverable failure keeps the state and records the error (the
   * step can be retried); any other failure moves the run to FAILED (sections not DONE become BLOCKED).
   * Aborted work and lost leases leave the run alone.
   */
  async settleFailure(execution: Execution, thrown: unknown): Promise<SwitchyardError> {
    if (thrown instanceof LeaseLostError || execution.session.signal.aborted) {
      return execution.session.abortReason === undefined && thrown instanceof LeaseLostError
        ? await this.lostLeaseError(execution.runId)
        : this.abortError(execution);
    }
    const error = toSwitchyardError(thrown);
    const failure = failureOf(error);
    // A refused precondition is an answer to the caller, not a failure of the run.
    if (PRECONDITION_CODES.has(failure.code)) return error;
    const { store } = this.deps;
    try {
      const row = await this.requireRow(execution.runId);
      const state = runState(row);
      if (isTerminal(state)) return error;
      if (isRecoverable(failure)) {
        await store.update(
          execution.runId,
          {
            patch: { lastError: JSON.stringify(failure), activeWorker: null },
            event: { type: 'RUN_HALTED', payload: { state, code: failure.code, message: failure.message } },
          },
          { token: execution.session.token },
        );
      } else {
        await this.fail(execution, state, failure);
      }
    } catch (settleError) {
      this.deps.logger.warn('could not record a run failure', {
        run_id: execution.runId,
        error: settleError,
      });
    }
    return error;
  }

  /** Moves the run to FAILED with `failure` as its last error. */
  async fail(execution: Execution, state: RunState, failure: RunFailure): Promise<RunRow> {
    const row = await this.requireRow(execution.runId);
    const sections: SectionStates = Object.fromEntries(
      Object.entries(sectionStatesOf(row)).map(
        ([section, value]) => [section, value === 'DONE' ? value : 'BLOCKED'] as const,
      ),
    );
    return this.deps.store.transition(execution.runId, state, 'FAILED', {
      token: execution.session.token,
      patch: { lastError: JSON.stringify(failure), activeWorker: null, sectionStates: sections },
      payload: { reason: failure.code, message: failure.message, ...pickReason(failure) },
    });
  }

  private async lostLeaseError(runId: string): Promise<SwitchyardError> {
    const row = await this.deps.store.get(runId);
    if (row?.state === 'CANCELLED') return runCancelled(runId);
    return new SwitchyardError('conflict', `Run ${runId} was taken over by another executor`, {
      code: 'ILLEGAL_STATE',
      retryable: true,
      details: { current_state: row?.state ?? 'unknown', reason: 'lease_lost' },
    });
  }
}

/** The fixes a run's events record as written, in order: each FIX_APPLIED with its FIX_APPLYING intent. */
function appliedFixes(events: readonly RunEvent[]): AppliedFix[] {
  const fixes: AppliedFix[] = [];
  let intent: FixIntent | undefined;
  for (const event of events) {
    if (event.type === 'FIX_APPLYING') intent = event.payload as unknown as FixIntent;
    if (event.type === 'FIX_APPLIED' && intent !== undefined) {
      fixes.push({ issue_id: intent.issue_id, path: intent.path, after_sha256: intent.after_sha256 });
      intent = undefined;
    }
  }
  return fixes;
}

function pickReason(failure: RunFailure): Record<string, unknown> {
  const reason = failure.details.reason;
  return typeof reason === 'string' ? { detail_reason: reason } : {};
}
