import { createRequire } from 'node:module';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createLogger, type DomainContext, type DomainModule, type Logger } from '@switchyard/server-kit';
import { LaunchRunsConfigSchema, type LaunchRunsConfigInput } from './config.js';
import { openLaunchDatabase } from './db/open.js';
import { createLaunchPipeline } from './pipeline/index.js';
import type { LaunchPipeline } from './pipeline/types.js';
import { LaunchRunService } from './runs/service.js';
import { ArtifactRepository } from './store/artifact-store.js';
import { RunPaths } from './store/run-paths.js';
import { RunStore } from './store/run-store.js';
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
  /** The runs themselves, without MCP (benchmarks, embedding, tests). */
  readonly runs: LaunchRunService;
  /** Runs found interrupted by a dead process when this module started. */
  readonly interruptedAtStartup: readonly string[];
  /** Writes buffered spans now (they are written every 250 ms and on close anyway). */
  flushTelemetry(): Promise<void>;
}

/**
 * The launch-runs domain: nine launch_* tools, artifact and event resources, one SQLite database under the
 * data directory, background execution of runs. The database is opened (and migrated) here, once;
 * `register` only wires handlers, once per MCP session.
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
  const store = new RunStore(database.db, () => telemetry.current());
  const paths = new RunPaths(config.dataDir);
  const service = new LaunchRunService({
    store,
    artifacts: new ArtifactRepository(store, paths),
    paths,
    pipeline: options.pipeline ?? createLaunchPipeline(),
    telemetry,
    logger,
    env: options.env ?? process.env,
    leaseMs: config.leaseMs,
  });
  const interruptedAtStartup = service.sweepInterrupted();
  if (interruptedAtStartup.length > 0) {
    logger.warn('runs interrupted by a previous process; resume them with launch_resume', {
      runs: interruptedAtStartup,
    });
  }
  let closed = false;

  return {
    name: 'launch-runs',
    version,
    runs: service,
    interruptedAtStartup,
    flushTelemetry: () => telemetry.flush(),
    register(server: McpServer, ctx: DomainContext) {
      registerLaunchTools(server, ctx, { service, telemetry });
    },
    ready() {
      return !closed && database.sqlite.open;
    },
    async close() {
      if (closed) return;
      closed = true;
      await service.close();
      await telemetry.shutdown();
      database.sqlite.close();
    },
  };
}
