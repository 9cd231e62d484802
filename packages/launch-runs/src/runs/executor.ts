import fs from 'node:fs/promises';
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
import type {
  BriefResult,
  InputsResult,
  LaunchPipeline,
  LinkResult,
  SectionProgress,
  WorkerContext,
} from '../pipeline/types.js';
import type { ArtifactRepository } from '../store/artifact-store.js';
import { countBlocking } from '../store/issue-store.js';
import type { RunPaths } from '../store/run-paths.js';
import { changed, recorded, transitioned, validationRecorded } from '../store/run-writes.js';
import { runState, type LaunchStore } from '../store/launch-store.js';
import type { LaunchTelemetry } from '../telemetry/telemetry.js';
import { LeaseLostError, runCancelled } from './model/errors.js';
import type { RunFailure } from './model/errors.js';
import type { DraftRecord, RunEventInput, StateChanged } from './model/events.js';
import { fixHistoryOf } from './fix-history.js';
import type { Lease } from './lease.js';
import { isAtLeast, isStable, isTerminal } from './model/state-machine.js';
import { AUTOMATIC_STEP_COUNT, WORKER_NAMES, type WorkerId } from './worker-ids.js';

/** What a step records on its STATE_CHANGED. */
type Recording = Partial<StateChanged>;

function inputs({ source_sha, site_sha }: InputsResult): Recording {
  return { source_sha, site_sha };
}

function sections(result: { sections: SectionProgress }): Recording {
  return { section_states: result.sections };
}

function links(link: LinkResult): Recording {
  return { ...sections(link), applied_patch_ids: [...link.applied_patch_ids].sort() };
}

function waitingForDrafts({ page_ids }: BriefResult): Recording {
  return { waiting_for_drafts: page_ids };
}

/** The pipeline calls of automatic steps: the workers that take nothing but their context. */
type StepCall =
  | 'cloneInputs'
  | 'extractFacts'
  | 'catalogSnippets'
  | 'planPages'
  | 'draftPages'
  | 'publishWritingBrief'
  | 'linkPages';

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
  record?(result: unknown): Recording;
}

const STEPS: Readonly<Partial<Record<RunState, Step>>> = {
  CREATED: { worker: 'W1', call: 'cloneInputs', to: 'CLONED_INPUTS', record: inputs },
  CLONED_INPUTS: { worker: 'W2', call: 'extractFacts', to: 'INGESTED' },
  INGESTED: { worker: 'W3', call: 'catalogSnippets', to: 'FACTS_READY' },
  FACTS_READY: { worker: 'W4', call: 'planPages', to: 'PLAN_READY', record: sections },
  PLAN_READY: { worker: 'W5', enter: 'DRAFTING', call: 'draftPages', to: 'DRAFT_READY', record: sections },
  DRAFT_READY: { worker: 'W6', call: 'linkPages', to: 'LINKING', record: links },
  LINKING: { worker: 'W7', to: 'VALIDATING' },
};

/**
 * The steps run_config.drafting "model" takes instead: W5 publishes the writing brief and the run rests in
 * DRAFTING (no step) until launch_submit_draft has had every page accepted (LaunchRunService.submitDraft).
 */
const MODEL_DRAFTING_STEPS: Readonly<Partial<Record<RunState, Step>>> = {
  PLAN_READY: { worker: 'W5', call: 'publishWritingBrief', to: 'DRAFTING', record: waitingForDrafts },
};

const PRECONDITION_CODES = new Set(['ILLEGAL_STATE', 'RUN_NOT_FOUND', 'CANCELLED']);
/**
 * Failures that leave the run where it is, to be retried once the environment is fixed (a missing site
 * generator, a commit service that is down), as retryable ones do; any other failure fails the run.
 */
const RECOVERABLE_CODES = new Set(['TOOLCHAIN_MISSING', 'COMMIT_SERVICE_ERROR']);

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

/** How far a run's automatic steps go: launch_resume stops at the next stable state. */
export type AdvanceUntil = 'next stable state' | 'no step left';

export interface ExecutorDeps {
  store: LaunchStore;
  artifacts: ArtifactRepository;
  paths: RunPaths;
  pipeline: LaunchPipeline;
  telemetry: LaunchTelemetry;
  logger: Logger;
  env: Readonly<Record<string, string | undefined>>;
  /** Bytes of one page a caller's model submits (LAUNCH_MAX_DRAFT_BYTES). */
  maxDraftBytes: number;
  /** Drafts of one page a run's task asks the client's model for before the extractive one (LAUNCH_DRAFT_MAX_ROUNDS). */
  draftMaxRounds: number;
}

/** The failure as recorded on the run (status details.error), with every registered secret redacted. */
function failureOf(error: SwitchyardError): RunFailure {
  const failure: RunFailure = {
    code: codeFor(LAUNCH_ERROR_TABLE, error.kind, error.code),
    message: error.message,
    retryable: retryableFor(LAUNCH_ERROR_TABLE, error),
    details: error.details ?? {},
  };
  return JSON.parse(redactSecrets(JSON.stringify(failure))) as RunFailure;
}

/**
 * A step's failure on the run as it is, in the appending transaction: a recoverable one keeps the state and
 * records the error (RUN_HALTED: the step can be retried); any other moves the run to FAILED, keeping the
 * failure as its last error (sections not DONE become BLOCKED). Nothing on a run that has ended.
 */
function settled(row: RunRow, failure: RunFailure): RunEventInput | undefined {
  const state = runState(row);
  if (isTerminal(state)) return undefined;
  const { code, message, details } = failure;
  if (failure.retryable || RECOVERABLE_CODES.has(code))
    return { type: 'RUN_HALTED', payload: { state, code, message, error: failure } };
  const detail = typeof details.reason === 'string' ? { detail_reason: details.reason } : {};
  const payload = { reason: code, message, ...detail, error: failure, from: state, to: 'FAILED' as const };
  return { type: 'STATE_CHANGED', payload };
}

/**
 * One holder of a run's lease doing work on it: drives the run through the pipeline's workers. Every worker
 * execution is a span and emits WORK_ITEM_STARTED then WORK_ITEM_FINISHED or WORK_ITEM_FAILED; every state
 * change is one transaction with its event. Plain TypeScript: no MCP here.
 */
export class Execution {
  readonly runId: string;
  readonly config: RunConfig;

  constructor(
    readonly deps: ExecutorDeps,
    readonly lease: Lease,
    row: RunRow,
    readonly onProgress?: ProgressListener,
  ) {
    this.runId = lease.runId;
    this.config = RunConfigSchema.parse(JSON.parse(row.config));
  }

  /** The error a caller sees when the work was aborted, by why it was aborted. */
  abortError(): SwitchyardError {
    const reason = this.lease.abortReason;
    if (reason === 'cancelled') return runCancelled(this.runId);
    // A request its client cancelled is the cancelled kind (logged as a cancellation, not a server fault);
    // its code stays INTERNAL, as CANCELLED would say the run was cancelled, which it was not.
    return new SwitchyardError(
      reason === 'request-cancelled' ? 'cancelled' : 'internal',
      reason === 'shutdown'
        ? 'The server shut down during this step; the run is interrupted and can be resumed with launch_resume'
        : 'The step was interrupted before it finished; the run can be resumed with launch_resume',
      {
        code: 'INTERNAL',
        retryable: true,
        details: { cause_class: 'Interrupted', reason: reason ?? 'lease-lost' },
      },
    );
  }

  throwIfAborted(): void {
    if (this.lease.signal.aborted) throw this.abortError();
  }

  /**
   * Runs one worker inside its span with the WORK_ITEM_* events around it; `finished` adds what its
   * WORK_ITEM_FINISHED records of the result.
   */
  async runWorker<T>(
    worker: WorkerId,
    fn: (ctx: WorkerContext) => Promise<T>,
    finished: (result: T) => DraftRecord = () => ({}),
  ): Promise<T> {
    const { runId, lease } = this;
    const name = WORKER_NAMES[worker];
    this.throwIfAborted();
    return this.deps.telemetry.inSpan(
      `launch.worker ${worker} ${name}`,
      { kind: 'worker', worker, runId },
      async () => {
        const started = performance.now();
        await lease.append(recorded({ type: 'WORK_ITEM_STARTED', payload: { worker, name } }));
        await fs.mkdir(this.deps.paths.runDir(runId), { recursive: true });
        const ctx = this.workerContext(worker, lease.signal);
        try {
          if (worker !== 'W1') await this.ensureWorkspace(ctx);
          const result = await fn(ctx);
          this.throwIfAborted();
          const duration_ms = Math.round(performance.now() - started);
          await lease.append(
            recorded({
              type: 'WORK_ITEM_FINISHED',
              payload: { worker, name, duration_ms, ...finished(result) },
            }),
          );
          return result;
        } catch (thrown) {
          const error = lease.signal.aborted ? this.abortError() : toSwitchyardError(thrown);
          const interrupted = lease.abortReason === 'shutdown' || lease.abortReason === 'request-cancelled';
          await this.recordWorkerFailure(worker, failureOf(error), interrupted);
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
  async ensureWorkspace(ctx?: WorkerContext): Promise<void> {
    if (this.deps.paths.hasWorkspace(this.runId)) return;
    const row = await this.requireRow();
    if (row.sourceSha === null || row.siteSha === null || runState(row) === 'CREATED') return;
    await this.deps.pipeline.restoreWorkspace(ctx ?? this.workerContext('W1', this.lease.signal), {
      inputs: { source_sha: row.sourceSha, site_sha: row.siteSha },
      linked: isAtLeast(runState(row), 'LINKING'),
      fixes: (await fixHistoryOf(this.deps.store, this.runId)).applied,
    });
  }

  /** What a worker gets: the run, its artifacts and `signal`, the one its writes stop on. */
  workerContext(worker: WorkerId, signal: AbortSignal): WorkerContext {
    const { runId, lease, deps } = this;
    return {
      runId,
      config: this.config,
      runDir: deps.paths.runDir(runId),
      artifacts: deps.artifacts.writer(runId, worker, { token: lease.token, signal }),
      signal,
      logger: deps.logger.child({ run_id: runId, worker }),
      env: deps.env,
    };
  }

  /** WORK_ITEM_FAILED, written without the lease (it may be lost); an interrupted worker stays recorded. */
  private async recordWorkerFailure(worker: WorkerId, { code, message }: RunFailure, interrupted: boolean) {
    const { runId } = this;
    const payload = { worker, name: WORKER_NAMES[worker], code, message, interrupted };
    await this.deps.store
      .append(runId, null, recorded({ type: 'WORK_ITEM_FAILED', payload }))
      .catch((error: unknown) =>
        this.deps.logger.warn('could not record a worker failure', { run_id: runId, worker, error }),
      );
  }

  /**
   * Runs automatic steps (W1..W7) until the run has none left (VALIDATING, READY_FOR_PR) or ends, or, with
   * 'next stable state', reaches a stable state after one step at least. Returns the run row at the end.
   */
  async advance(until: AdvanceUntil): Promise<RunRow> {
    for (let steps = 0; ; steps += 1) {
      this.throwIfAborted();
      const row = await this.requireRow();
      const state = runState(row);
      const step =
        (this.config.drafting === 'model' ? MODEL_DRAFTING_STEPS[state] : undefined) ?? STEPS[state];
      const resting = until === 'next stable state' && steps > 0 && isStable(state);
      if (isTerminal(state) || step === undefined || resting) return row;
      await this.runStep(state, step);
    }
  }

  private async requireRow(): Promise<RunRow> {
    const row = await this.deps.store.get(this.runId);
    if (row === undefined) throw new LeaseLostError(this.runId);
    return row;
  }

  private async runStep(state: RunState, step: Step): Promise<void> {
    const { worker, call } = step;
    if (step.enter !== undefined) await this.lease.append(transitioned(state, step.enter));
    let after: RunRow;
    if (call === undefined) {
      after = (await this.validate()).row;
    } else {
      const result = await this.runWorker<unknown>(worker, (ctx) => this.deps.pipeline[call](ctx));
      after = await this.lease.append(transitioned(step.enter ?? state, step.to, step.record?.(result)));
    }
    const reached = runState(after);
    this.onProgress?.({
      runId: this.runId,
      state: reached,
      worker,
      progress: Number(worker.slice(1)),
      total: AUTOMATIC_STEP_COUNT,
      message: `${worker} ${WORKER_NAMES[worker]} done: ${reached}`,
    });
  }

  /**
   * W7, then records the report and moves the run: LINKING or FIXING → VALIDATING, and on to READY_FOR_PR
   * when the report is ok; in later states the report is recorded without a state change. One transaction.
   */
  async validate(): Promise<{ report: ValidationReport; row: RunRow }> {
    const raw = await this.runWorker('W7', (ctx) => this.deps.pipeline.validateSite(ctx));
    const parsed = ValidationReportSchema.safeParse(raw);
    if (!parsed.success) {
      const { issues } = parsed.error;
      const details = { artifact: 'validation_report.json', issues: summarizeIssues(issues) };
      const message = `validation_report breaks its schema: ${describeIssues(issues)}`;
      throw new SwitchyardError('validation', message, { code: 'SCHEMA_VALIDATION_FAILED', details });
    }
    const report = parsed.data;
    const row = await this.lease.append(
      validationRecorded(report, {
        ok: report.ok,
        profile: report.profile,
        blocking: countBlocking(report),
        issues: report.issues.length,
        gates: report.gates.map(({ name, ok, skipped }) => ({ name, ok, skipped: skipped ?? false })),
      }),
    );
    return { report, row };
  }

  /**
   * What a failed step leaves behind (settled): a refused precondition is an answer to the caller, not a
   * failure of the run; aborted work and lost leases leave the run alone.
   */
  async settleFailure(thrown: unknown): Promise<SwitchyardError> {
    if (this.lease.signal.aborted) return this.abortError();
    if (thrown instanceof LeaseLostError) return this.lostLeaseError();
    const error = toSwitchyardError(thrown);
    const failure = failureOf(error);
    if (PRECONDITION_CODES.has(failure.code)) return error;
    await this.lease
      .append(changed((row) => settled(row, failure)))
      .catch((settleError: unknown) =>
        this.deps.logger.warn('could not record a run failure', { run_id: this.runId, error: settleError }),
      );
    return error;
  }

  private async lostLeaseError(): Promise<SwitchyardError> {
    const { runId } = this;
    const row = await this.deps.store.get(runId);
    if (row?.state === 'CANCELLED') return runCancelled(runId);
    return new SwitchyardError('conflict', `Run ${runId} was taken over by another executor`, {
      code: 'ILLEGAL_STATE',
      retryable: true,
      details: { current_state: row?.state ?? 'unknown', reason: 'lease_lost' },
    });
  }
}
