import type { LaunchPipeline, WorkerContext } from '../pipeline/types.js';
import { checkRunConfigPolicy, type LaunchPolicy } from './launch-policy.js';

/** The workers that reach repositories and tokens: W1 and restoreWorkspace clone, W9 pushes and opens the PR. */
const POLICED_WORKERS = new Set<PropertyKey>([
  'cloneInputs',
  'restoreWorkspace',
  'openPullRequest',
] satisfies (keyof LaunchPipeline)[]);

/**
 * `pipeline` with the operator's policy checked right before W1, W9 and a workspace restore (it clones).
 * launch_start_run checks it already; checking again here covers runs recorded before the policy was
 * narrowed, whichever pipeline the module was given. Every other worker is the pipeline's own, called on it
 * (a proxy, so that this stays right for any LaunchPipeline, classes included).
 */
export function withLaunchPolicy(pipeline: LaunchPipeline, policy: LaunchPolicy): LaunchPipeline {
  return new Proxy(pipeline, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const worker = value as (ctx: WorkerContext, ...rest: unknown[]) => unknown;
      if (!POLICED_WORKERS.has(property)) return worker.bind(target);
      return async (ctx: WorkerContext, ...rest: unknown[]) => {
        checkRunConfigPolicy(ctx.config, policy);
        return worker.call(target, ctx, ...rest);
      };
    },
  });
}
