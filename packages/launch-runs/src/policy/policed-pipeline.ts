import type { LaunchPipeline, WorkerContext } from '../pipeline/types.js';
import { checkRunConfigPolicy, type LaunchPolicy } from './launch-policy.js';

/**
 * Every worker, and whether the operator's policy is checked right before it: W1 and restoreWorkspace clone,
 * W9 pushes and opens the PR. A record of every key, so a new worker cannot be added without deciding.
 */
const POLICED: Record<keyof LaunchPipeline, boolean> = {
  cloneInputs: true,
  extractFacts: false,
  catalogSnippets: false,
  planPages: false,
  draftPages: false,
  publishWritingBrief: false,
  acceptDraft: false,
  fallBackDraft: false,
  linkPages: false,
  validateSite: false,
  planFix: false,
  applyFix: false,
  openPullRequest: true,
  restoreWorkspace: true,
};

type AnyWorker = (ctx: WorkerContext, ...rest: unknown[]) => Promise<unknown>;

/**
 * `pipeline` with the operator's policy checked right before W1, W9 and a workspace restore. launch_start_run
 * checks it already; checking again here covers runs recorded before the policy was narrowed, whichever
 * pipeline the module was given (its workers are called on it, so class instances work too).
 */
export function withLaunchPolicy(pipeline: LaunchPipeline, policy: LaunchPolicy): LaunchPipeline {
  const workers = Object.entries(POLICED).map(([name, policed]) => {
    const worker = (pipeline[name as keyof LaunchPipeline] as AnyWorker).bind(pipeline);
    if (!policed) return [name, worker];
    const checked: AnyWorker = async (ctx, ...rest) => {
      checkRunConfigPolicy(ctx.config, policy);
      return worker(ctx, ...rest);
    };
    return [name, checked];
  });
  return Object.fromEntries(workers) as LaunchPipeline;
}
