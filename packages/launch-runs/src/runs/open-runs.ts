import { ArtifactRepository } from '../store/artifact-store.js';
import type { LaunchStore } from '../store/launch-store.js';
import { RunPaths } from '../store/run-paths.js';
import { changed } from '../store/run-writes.js';
import { sweepEndedWorkspaces } from './ended-workspace.js';
import { LaunchRunService, type RunServiceDeps } from './service.js';
import { isInterrupted } from './model/interrupted.js';

/** The service's dependencies, with where runs live and how often a replica looks for runs to take over. */
type OpenRunsOptions = Omit<RunServiceDeps, 'artifacts' | 'paths'> & { dataDir: string; takeoverMs: number };

export interface OpenedRuns {
  service: LaunchRunService;
  /** The runs the sweep found abandoned mid-step by a dead process and marked interrupted. */
  interrupted: readonly string[];
}

/**
 * The service over the run store, then the sweep that marks runs a dead process left mid-step (SQLite) or
 * the watch that takes them over (PostgreSQL), and the one that removes the workspaces ended runs left on
 * this machine (on PostgreSQL, the watch repeats it). open.ts loads this file on the first call that needs
 * runs.
 */
export async function openRuns(options: OpenRunsOptions): Promise<OpenedRuns> {
  const { store } = options;
  const paths = new RunPaths(options.dataDir);
  await sweepEndedWorkspaces({ ...options, paths });
  const service = new LaunchRunService({
    ...options,
    artifacts: new ArtifactRepository(store, paths),
    paths,
    // Replicas share the database: a run whose executor died is taken over, never marked and left waiting.
    takeoverMs: store.sharedByReplicas ? options.takeoverMs : undefined,
  });
  return { service, interrupted: store.sharedByReplicas ? [] : await sweepInterrupted(store) };
}

/**
 * Runs a dead process left mid-step are marked interrupted (RUN_INTERRUPTED) and their lease freed, so
 * launch_get_status reports details.interrupted=true and launch_resume can take them.
 */
async function sweepInterrupted(store: LaunchStore): Promise<string[]> {
  const marked: string[] = [];
  for (const candidate of await store.unfinished()) {
    let interrupted = false;
    const mark = changed((row) => {
      if (row.interruptedAt !== null || !isInterrupted(row, Date.now())) return undefined;
      interrupted = true;
      return { type: 'RUN_INTERRUPTED', payload: { state: row.state, active_worker: row.activeWorker } };
    });
    await store.append(candidate.runId, null, mark);
    if (interrupted) marked.push(candidate.runId);
  }
  return marked;
}
