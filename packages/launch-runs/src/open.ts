import { createRequire } from 'node:module';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  createLogger,
  lazy,
  type DomainContext,
  type DomainModule,
  type Logger,
} from '@switchyard/server-kit';
import {
  LaunchRunsConfigSchema,
  pipelineOptionsOf,
  siteBuildOptionsOf,
  type LaunchRunsConfigInput,
} from './config.js';
import { openLaunchDatabase } from './db/open.js';
import { createLaunchPipeline } from './pipeline/index.js';
import type { LaunchPipeline } from './pipeline/types.js';
import { resolveLaunchPolicy } from './policy/launch-policy.js';
import { withLaunchPolicy } from './policy/policed-pipeline.js';
import { moduleClosed, storeUnavailable } from './runs/errors.js';
import type { OpenedRuns } from './runs/open-runs.js';
import { hasRunsToRecover } from './runs/recovery-check.js';
import type { LaunchRunService } from './runs/service.js';
import { LaunchTelemetry } from './telemetry/telemetry.js';
import { errorCodeOf } from './tools/launch-tool.js';
import { registerLaunchTools } from './tools/index.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

export interface LaunchRunsModuleOptions {
  /** The workers; `createLaunchPipeline()` by default. Tests inject their own. */
  pipeline?: LaunchPipeline;
  /** Environment the workers read (pr.github.token_env); process.env by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Logger for background work (tool calls log through the server's logger). */
  logger?: Logger;
}

export interface LaunchRunsModule extends DomainModule {
  /**
   * The runs themselves, without MCP (benchmarks, embedding, tests). The run store loads with the first
   * call (or at creation, when the database holds runs to recover); a failed load rejects with INTERNAL
   * (retryable) and the next call tries again.
   */
  runs(): Promise<LaunchRunService>;
  /** Runs found interrupted by a dead process when the run store was opened (loads it, like `runs()`). */
  interruptedAtStartup(): Promise<readonly string[]>;
  /** Writes buffered spans now (they are written every 250 ms and on close anyway). */
  flushTelemetry(): Promise<void>;
}

/**
 * The launch-runs domain: nine launch_* tools, artifact and event resources, one SQLite database under the
 * data directory, background execution of runs. The database is opened (and migrated) here, once;
 * `register` only wires handlers, once per MCP session. The run store (drizzle and everything over it) is
 * the one lazily loaded part: the first call that needs it loads it and sweeps interrupted runs; when the
 * database holds a run to recover, that starts here already, so recovery (and its warning) happens at start.
 */
export function createLaunchRunsModule(
  configInput: LaunchRunsConfigInput,
  options: LaunchRunsModuleOptions = {},
): LaunchRunsModule {
  const config = LaunchRunsConfigSchema.parse(configInput);
  const logger = options.logger ?? createLogger().child({ domain: 'launch-runs' });
  const database = openLaunchDatabase(config.dataDir);
  const telemetry = new LaunchTelemetry({
    sqlite: database.sqlite,
    serviceName: config.serviceName,
    serviceVersion: version,
    ...(config.otlpTracesUrl === undefined ? {} : { otlpTracesUrl: config.otlpTracesUrl }),
    errorCodeOf,
    onError: (message, error) => logger.warn(message, { error }),
  });
  const policy = resolveLaunchPolicy(config);
  const pipeline = withLaunchPolicy(
    options.pipeline ?? createLaunchPipeline({ ...pipelineOptionsOf(config), ...siteBuildOptionsOf(config) }),
    policy,
  );
  let closed = false;

  const loadRuns = lazy(async (): Promise<OpenedRuns> => {
    const { openRuns } = await import('./runs/open-runs.js');
    if (closed) throw moduleClosed();
    const opened = openRuns({
      sqlite: database.sqlite,
      dataDir: config.dataDir,
      pipeline,
      telemetry,
      logger,
      env: options.env ?? process.env,
      leaseMs: config.leaseMs,
    });
    if (opened.interrupted.length > 0) {
      logger.warn('runs interrupted by a previous process; resume them with launch_resume', {
        runs: opened.interrupted,
      });
    }
    return opened;
  });
  /** The latest load, so close() can wait for one in flight and close what it opened. */
  let loading: Promise<OpenedRuns> | undefined;
  const opened = async (): Promise<OpenedRuns> => {
    loading = loadRuns();
    try {
      return await loading;
    } catch (error) {
      throw storeUnavailable(error);
    }
  };
  const runs = async (): Promise<LaunchRunService> => (await opened()).service;

  if (hasRunsToRecover(database.sqlite)) {
    opened().catch((error: unknown) =>
      logger.warn('could not recover interrupted runs at start; the next call retries', { error }),
    );
  }

  return {
    name: 'launch-runs',
    version,
    runs,
    interruptedAtStartup: async () => (await opened()).interrupted,
    flushTelemetry: () => telemetry.flush(),
    register(server: McpServer, ctx: DomainContext) {
      registerLaunchTools(server, ctx, { service: runs, telemetry, policy });
    },
    ready() {
      return !closed && database.sqlite.open;
    },
    async close() {
      if (closed) return;
      closed = true;
      const loaded = await loading?.catch(() => undefined);
      await loaded?.service.close();
      await telemetry.shutdown();
      database.sqlite.close();
    },
  };
}
