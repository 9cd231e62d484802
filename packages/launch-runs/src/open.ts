import { createRequire } from 'node:module';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { DomainLifecycle, DomainRuntime } from '@switchyard/server-kit';
import {
  lazyStore,
  reportingUnreachable,
  type Logger,
  type PostgresSettings,
} from '@switchyard/server-kit/runtime';
import { pipelineOptionsOf, siteBuildOptionsOf, type LaunchRunsConfig } from './config.js';
import { openLaunchDatabase, type LaunchDatabase } from './db/open.js';
import { createLaunchPipeline } from './pipeline/index.js';
import type { LaunchPipeline } from './pipeline/types.js';
import { resolveLaunchPolicy, type LaunchPolicy } from './policy/launch-policy.js';
import { withLaunchPolicy } from './policy/policed-pipeline.js';
import { errorCodeOf, runDatabaseUnreachable } from './runs/model/errors.js';
import type { OpenedRuns } from './runs/open-runs.js';
import { hasRunsToRecover } from './runs/model/interrupted.js';
import type { LaunchRunService } from './runs/service.js';
import type { TraceIds } from './store/event-chain.js';
import type { LaunchStore } from './store/launch-store.js';
import { LaunchTelemetry } from './telemetry/telemetry.js';

export const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/**
 * The run store (drizzle and everything over it, loaded with the first call that needs it) could not be
 * loaded or opened: a broken install, or the start-up sweep failing on a busy database. Nothing was
 * changed, so the call can be retried; the next call loads again.
 */
function storeUnavailable(error: unknown): SwitchyardError {
  if (error instanceof SwitchyardError) return error;
  const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  return new SwitchyardError(
    'internal',
    `The launch run store could not be loaded (${reason}). Retry the call; if it keeps failing, reinstall ` +
      '@switchyard/launch-runs and its dependencies.',
    {
      retryable: true,
      details: {
        reason: 'store_unavailable',
        cause_class: error instanceof Error ? error.constructor.name : typeof error,
      },
      cause: error,
    },
  );
}

/** A call that reaches a module already closed (the server is shutting down). */
function moduleClosed(): SwitchyardError {
  return new SwitchyardError(
    'internal',
    'The launch-runs server is shutting down; retry on a new connection',
    {
      retryable: true,
      details: { reason: 'shutting_down', cause_class: 'ShutDown' },
    },
  );
}

/** The opened launch-runs domain: what its tools get as `call.state`, and what tests and embedders reach. */
export interface LaunchRunsState extends DomainLifecycle {
  /**
   * The runs themselves, without MCP (benchmarks, embedding, tests). The run store loads with the first
   * call (or at open, when the database holds runs to recover); a failed load rejects with INTERNAL
   * (retryable) and the next call tries again.
   */
  runs(): Promise<LaunchRunService>;
  /** Runs found interrupted by a dead process when the run store was opened (loads it, like `runs()`). */
  interruptedAtStartup(): Promise<readonly string[]>;
  /** Writes buffered spans now (they are written every 250 ms and on close anyway). */
  flushTelemetry(): Promise<void>;
  /** The operator's policy as resolved at open: what a run_config may name (launch_start_run checks it). */
  readonly policy: LaunchPolicy;
  /** Spans of tool calls and workers (the domain's tracing middleware opens one per call). */
  readonly telemetry: LaunchTelemetry;
  /** The databases are open (SQLite) or answer now (PostgreSQL: a bounded probe). */
  ready(): Promise<boolean>;
}

/**
 * What launch tools, resources and prompts receive as `call.state` (the domain's `callState`): the run service
 * loaded, so handlers never wait on a loader themselves.
 */
export interface LaunchCallState {
  readonly runs: LaunchRunService;
  readonly policy: LaunchPolicy;
  readonly telemetry: LaunchTelemetry;
}

/** Loads the run store if this is the first call that needs it (a failed load is the call's INTERNAL error). */
export async function launchCallState(state: LaunchRunsState): Promise<LaunchCallState> {
  return { runs: await state.runs(), policy: state.policy, telemetry: state.telemetry };
}

/** What a test or an embedding replaces; production opens with none. */
export interface LaunchRunsSeams {
  /** The workers W1..W9; `createLaunchPipeline()` over the configuration's options by default. */
  pipeline?: LaunchPipeline;
}

/** Where runs live: launch-runs.sqlite in the data directory, or the operator's PostgreSQL. */
interface RunsBackend {
  /** The store over the open database (its query code is imported only now). */
  store(trace: () => TraceIds | undefined): Promise<LaunchStore>;
  /** Whether a run waits for recovery, so the store should load at start (SQLite: a raw query). */
  hasRunsToRecover(): boolean;
  /** The SQLite file is open; PostgreSQL answers a probe now. */
  reachable(): Promise<boolean>;
  close(): Promise<void>;
}

function sqliteBackend(database: LaunchDatabase, expiredTaskBatch: number): RunsBackend {
  return {
    async store(trace) {
      const [{ SqliteLaunchStore }, { launchDb }] = await Promise.all([
        import('./store/sqlite-launch-store.js'),
        import('./db/drizzle.js'),
      ]);
      return new SqliteLaunchStore(launchDb(database.sqlite), trace, Date.now, expiredTaskBatch);
    },
    hasRunsToRecover: () => hasRunsToRecover(database.sqlite),
    reachable: async () => database.sqlite.open,
    close: async () => undefined,
  };
}

async function postgresBackend(
  settings: PostgresSettings,
  logger: Logger,
  expiredTaskBatch: number,
): Promise<RunsBackend> {
  const [{ openLaunchPool }, { postgresReachability }] = await Promise.all([
    import('./db/postgres-database.js'),
    import('@switchyard/server-kit/postgres'),
  ]);
  const pool = await openLaunchPool(settings, logger);
  return {
    store: async (trace) =>
      reportingUnreachable(
        new (await import('./store/postgres-launch-store.js')).PostgresLaunchStore(
          pool,
          trace,
          Date.now,
          expiredTaskBatch,
        ),
        runDatabaseUnreachable,
      ),
    // Replicas take over each other's abandoned runs: the store loads at start to watch for them.
    hasRunsToRecover: () => true,
    reachable: postgresReachability(pool, settings.connectTimeoutMs),
    close: () => pool.end(),
  };
}

/**
 * Opens the launch-runs domain: the runs' database (launch-runs.sqlite in the server's data directory,
 * opened and migrated here; or PostgreSQL when configured, reached and checked here), telemetry (spans in
 * the data directory's SQLite file in both cases), the operator's policy around the pipeline, background
 * execution of runs. The run store (drizzle and everything over it) is the one lazily loaded part: the first
 * call that needs it loads it and sweeps interrupted runs; when the database holds a run to recover (and
 * always on PostgreSQL, where replicas take over each other's abandoned runs), that starts here already.
 * Workers read PR tokens from `runtime.env`.
 */
export async function openLaunchRuns(
  config: LaunchRunsConfig,
  runtime: DomainRuntime,
  seams: LaunchRunsSeams = {},
): Promise<LaunchRunsState> {
  const { logger, dataDir } = runtime;
  const database = openLaunchDatabase(dataDir);
  const backend =
    config.database === undefined
      ? sqliteBackend(database, config.expiredTaskBatch)
      : await postgresBackend(config.database, logger, config.expiredTaskBatch);
  const telemetry = new LaunchTelemetry({
    sqlite: database.sqlite,
    serviceName: config.serviceName,
    serviceVersion: version,
    otlpTracesUrl: config.otlpTracesUrl,
    errorCodeOf,
    onError: (message, error) => logger.warn(message, { error }),
  });
  const policy = resolveLaunchPolicy(config, dataDir);
  const pipeline = withLaunchPolicy(
    seams.pipeline ?? createLaunchPipeline({ ...pipelineOptionsOf(config), ...siteBuildOptionsOf(config) }),
    policy,
  );
  let closed = false;

  const runStore = lazyStore({
    load: async (): Promise<OpenedRuns> => {
      const { openRuns } = await import('./runs/open-runs.js');
      const store = await backend.store(() => telemetry.current());
      if (closed) throw moduleClosed();
      const opened = await openRuns({
        store,
        dataDir,
        pipeline,
        telemetry,
        logger,
        env: runtime.env,
        leaseMs: config.leaseMs,
        takeoverMs: config.takeoverMs,
        maxActiveRuns: config.maxActiveRuns,
        maxDraftBytes: config.maxDraftBytes,
        draftMaxRounds: config.draftMaxRounds,
        draftMaxTokens: config.draftMaxTokens,
      });
      if (opened.interrupted.length > 0) {
        logger.warn('runs interrupted by a previous process; resume them with launch_resume', {
          runs: opened.interrupted,
        });
      }
      return opened;
    },
    unavailable: storeUnavailable,
    close: (opened) => opened.service.close(),
  });

  if (backend.hasRunsToRecover()) {
    runStore
      .get()
      .catch((error: unknown) =>
        logger.warn('could not recover interrupted runs at start; the next call retries', { error }),
      );
  }

  return {
    policy,
    telemetry,
    runs: async () => (await runStore.get()).service,
    cancelRequest: async ({ principal, requestId }) =>
      (await runStore.get()).service.cancelRequest(principal, requestId),
    interruptedAtStartup: async () => (await runStore.get()).interrupted,
    flushTelemetry: () => telemetry.flush(),
    ready: async () => !closed && database.sqlite.open && (await backend.reachable()),
    async close() {
      if (closed) return;
      closed = true;
      await runStore.close();
      await backend.close();
      await telemetry.shutdown();
      database.sqlite.close();
    },
  };
}
