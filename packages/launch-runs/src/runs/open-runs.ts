import type Database from 'better-sqlite3';
import type { Logger } from '@switchyard/server-kit/runtime';
import { launchDb } from '../db/drizzle.js';
import type { LaunchPipeline } from '../pipeline/types.js';
import { ArtifactRepository } from '../store/artifact-store.js';
import { RunPaths } from '../store/run-paths.js';
import { RunStore } from '../store/run-store.js';
import type { LaunchTelemetry } from '../telemetry/telemetry.js';
import { LaunchRunService } from './service.js';

export interface OpenRunsOptions {
  /** The opened, migrated launch database (db/open.ts). */
  sqlite: Database.Database;
  dataDir: string;
  pipeline: LaunchPipeline;
  telemetry: LaunchTelemetry;
  logger: Logger;
  env: Readonly<Record<string, string | undefined>>;
  leaseMs: number;
}

export interface OpenedRuns {
  service: LaunchRunService;
  /** The runs the sweep found abandoned mid-step by a dead process and marked interrupted. */
  interrupted: readonly string[];
}

/**
 * The run store (drizzle's query builder over the database) and the service over it, then the sweep that
 * marks runs a dead process left mid-step. open.ts loads this file on the first call that needs runs.
 */
export function openRuns(options: OpenRunsOptions): OpenedRuns {
  const { telemetry } = options;
  const store = new RunStore(launchDb(options.sqlite), () => telemetry.current());
  const paths = new RunPaths(options.dataDir);
  const service = new LaunchRunService({
    store,
    artifacts: new ArtifactRepository(store, paths),
    paths,
    pipeline: options.pipeline,
    telemetry,
    logger: options.logger,
    env: options.env,
    leaseMs: options.leaseMs,
  });
  return { service, interrupted: service.sweepInterrupted() };
}
