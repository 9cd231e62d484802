import { SwitchyardError } from '@switchyard/contracts/errors';
import { lazy } from '@switchyard/server-kit/runtime';
import type { ResolvedPipelineOptions } from './options.js';
import type { LaunchPipeline } from './types.js';
import type * as Workers from './workers.js';

export type PipelineWorkers = typeof Workers;

/** The worker modules, loaded once, on the first worker call of the process. */
export const loadWorkers = lazy<PipelineWorkers>(() => import('./workers.js'));

/**
 * A broken install (a dependency missing or unreadable) is not the run's fault: the run keeps its state
 * and can be resumed once the package is repaired (retryable, so the executor halts rather than fails it).
 */
function pipelineUnavailable(error: unknown): SwitchyardError {
  const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  return new SwitchyardError(
    'internal',
    `The launch pipeline could not be loaded (${reason}). Reinstall @switchyard/launch-runs and its ` +
      'dependencies, then retry; a run halted by this continues with launch_resume.',
    {
      retryable: true,
      details: {
        reason: 'pipeline_unavailable',
        cause_class: error instanceof Error ? error.constructor.name : typeof error,
      },
      cause: error,
    },
  );
}

/** A LaunchPipeline whose workers are loaded by `load` when one is first called. */
export function lazyPipeline(
  load: () => Promise<PipelineWorkers>,
  options: ResolvedPipelineOptions,
): LaunchPipeline {
  const workers = async (): Promise<PipelineWorkers> => {
    try {
      return await load();
    } catch (error) {
      throw pipelineUnavailable(error);
    }
  };
  return {
    cloneInputs: async (ctx) => (await workers()).cloneInputs(ctx, options),
    extractFacts: async (ctx) => (await workers()).extractFacts(ctx, options),
    catalogSnippets: async (ctx) => (await workers()).catalogSnippets(ctx, options),
    planPages: async (ctx) => (await workers()).planPages(ctx),
    draftPages: async (ctx) => (await workers()).draftPages(ctx),
    publishWritingBrief: async (ctx) => (await workers()).publishWritingBrief(ctx),
    acceptDraft: async (ctx, draft) => (await workers()).acceptDraft(ctx, draft),
    fallBackDraft: async (ctx, fallback) => (await workers()).fallBackDraft(ctx, fallback),
    linkPages: async (ctx) => (await workers()).linkPages(ctx, options),
    validateSite: async (ctx) => (await workers()).validateSite(ctx, options),
    planFix: async (ctx, report) => (await workers()).planFix(ctx, report),
    applyFix: async (ctx, plan) => (await workers()).applyFix(ctx, plan),
    openPullRequest: async (ctx) => (await workers()).openPullRequest(ctx, options),
    restoreWorkspace: async (ctx, restore) => (await workers()).restoreWorkspace(ctx, restore, options),
  };
}
