import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { RunIdSchema } from '@switchyard/contracts/launch-runs';
import type { Logger } from '@switchyard/server-kit/runtime';
import type { RunRow } from '../db/schema.js';
import { runState, type LaunchStore } from '../store/launch-store.js';
import type { RunPaths } from '../store/run-paths.js';
import { Lease } from './lease.js';
import { heldHere } from './model/lease.js';
import { isTerminal } from './model/state-machine.js';

// An ended run (DONE, FAILED, CANCELLED) keeps its record, events and artifacts, never its working copies:
// two clones of up to LAUNCH_CLONE_MAX_BYTES each, which nothing reads once the run has ended
// (launch_validate on a DONE run rebuilds them for the call, as a replica without them does).

export interface WorkspaceDeps {
  store: LaunchStore;
  paths: RunPaths;
  logger: Logger;
  leaseMs: number;
}

function hasEnded(row: RunRow | undefined): row is RunRow {
  return row !== undefined && isTerminal(runState(row));
}

/**
 * What an ended run leaves on this machine that nothing reads again. On replicas (PostgreSQL), its whole folder:
 * its artifacts live in the database, and the takeover tick's sweep walks every run folder, so only the runs
 * still under way may keep one. With one data directory, its workspace: its artifacts stay beside it.
 */
function endedRunFiles({ paths, store }: WorkspaceDeps, runId: string): string {
  return store.sharedByReplicas ? paths.runDir(runId) : paths.workspaceDir(runId);
}

/** Whether the run's workspace is gone (a failure to remove it is logged: the next sweep tries again). */
async function removeWorkspace(deps: WorkspaceDeps, runId: string): Promise<boolean> {
  const { logger } = deps;
  try {
    await fs.rm(endedRunFiles(deps, runId), { recursive: true, force: true, maxRetries: 2 });
    return true;
  } catch (error) {
    logger.warn('could not remove the workspace of an ended run', { run_id: runId, error });
    return false;
  }
}

/**
 * The run's workspace, removed if the run has ended. For the holder of the run's lease before it lets go
 * (so no launch_validate of a DONE run can be working in it), and for launch_cancel (no executor can take a
 * CANCELLED run; one still winding down elsewhere removes what it wrote as it lets go).
 */
export async function removeWorkspaceIfEnded(deps: WorkspaceDeps, runId: string): Promise<void> {
  try {
    if (hasEnded(await deps.store.get(runId))) await removeWorkspace(deps, runId);
  } catch (error) {
    deps.logger.warn('could not check whether a run has ended', { run_id: runId, error });
  }
}

/** A DONE run's workspace only under its lease: a launch_validate working in it keeps it, and removes it later. */
async function removeUnheld(deps: WorkspaceDeps, row: RunRow): Promise<boolean> {
  if (row.state !== 'DONE') return removeWorkspace(deps, row.runId);
  const { store, leaseMs } = deps;
  const acquire = async (token: string) => (await store.acquireLease(row.runId, token, leaseMs)).row;
  const acquired = await Lease.take(store, leaseMs, {}, acquire);
  if ('busy' in acquired) return false;
  try {
    return await removeWorkspace(deps, row.runId);
  } finally {
    await acquired.lease.release();
  }
}

/**
 * The workspaces of ended runs left on this machine's disk (a process died as its run ended; a run resting
 * or worked on here was ended from another process or replica), removed when the run store loads and, on
 * replicas, on every takeover tick. A run work of this process still holds is left to that work, which
 * removes the workspace as it lets go. Returns the runs whose workspace went (and logs them).
 */
export async function sweepEndedWorkspaces(deps: WorkspaceDeps): Promise<string[]> {
  const { paths, store } = deps;
  if (!existsSync(paths.root)) return [];
  const removed: string[] = [];
  for (const entry of await fs.readdir(paths.root, { withFileTypes: true })) {
    const runId = entry.name;
    if (!entry.isDirectory() || !RunIdSchema.safeParse(runId).success) continue;
    if (!existsSync(endedRunFiles(deps, runId)) || heldHere(runId).length > 0) continue;
    const row = await store.get(runId);
    if (hasEnded(row) && (await removeUnheld(deps, row))) removed.push(runId);
  }
  if (removed.length > 0) deps.logger.info('removed the workspaces of ended runs', { runs: removed });
  return removed;
}
