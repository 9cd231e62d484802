import fs from 'node:fs';
import type { LaunchPipeline, WorkerContext } from '../../src/pipeline/types.js';
import type { WorkerId } from '../../src/runs/worker-ids.js';

/** Where a crash test wants the child process to stop (and be killed). */
export interface PausePoint {
  /** Pause when this worker starts (before it does anything). */
  worker?: WorkerId;
  /** Pause right after this artifact has been written (the worker is half done). */
  afterArtifact?: string;
  /** Written (with the run id) when the pause is reached. */
  marker: string;
}

function pauseForever(point: PausePoint, ctx: WorkerContext, where: string): Promise<never> {
  fs.writeFileSync(point.marker, JSON.stringify({ run_id: ctx.runId, where }));
  return new Promise<never>((_, reject) => {
    ctx.signal.addEventListener('abort', () => reject(new Error('aborted while paused')), { once: true });
  });
}

/** Wraps a pipeline so that one point of a run never finishes: the test kills the process there. */
export function pausingPipeline(inner: LaunchPipeline, point: PausePoint | undefined): LaunchPipeline {
  if (point === undefined) return inner;
  let paused = false;
  const wrap =
    <A extends unknown[], R>(worker: WorkerId, fn: (ctx: WorkerContext, ...rest: A) => Promise<R>) =>
    async (ctx: WorkerContext, ...rest: A): Promise<R> => {
      if (!paused && point.worker === worker) {
        paused = true;
        return pauseForever(point, ctx, `start of ${worker}`);
      }
      if (point.afterArtifact === undefined || paused) return fn(ctx, ...rest);
      const artifacts = {
        read: (name: string) => ctx.artifacts.read(name),
        write: async (name: string, content: string | Uint8Array, options?: { contentType?: string }) => {
          const result = await ctx.artifacts.write(name, content, options);
          if (!paused && name === point.afterArtifact) {
            paused = true;
            await pauseForever(point, ctx, `after ${name}`);
          }
          return result;
        },
      };
      return fn({ ...ctx, artifacts }, ...rest);
    };
  return {
    cloneInputs: wrap('W1', (ctx) => inner.cloneInputs(ctx)),
    extractFacts: wrap('W2', (ctx) => inner.extractFacts(ctx)),
    catalogSnippets: wrap('W3', (ctx) => inner.catalogSnippets(ctx)),
    planPages: wrap('W4', (ctx) => inner.planPages(ctx)),
    draftPages: wrap('W5', (ctx) => inner.draftPages(ctx)),
    publishWritingBrief: wrap('W5', (ctx) => inner.publishWritingBrief(ctx)),
    acceptDraft: (ctx, draft) => inner.acceptDraft(ctx, draft),
    fallBackDraft: (ctx, fallback) => inner.fallBackDraft(ctx, fallback),
    linkPages: wrap('W6', (ctx) => inner.linkPages(ctx)),
    validateSite: wrap('W7', (ctx) => inner.validateSite(ctx)),
    planFix: wrap('W8', (ctx, report: Parameters<LaunchPipeline['planFix']>[1]) =>
      inner.planFix(ctx, report),
    ),
    applyFix: (ctx, plan) => inner.applyFix(ctx, plan),
    openPullRequest: wrap('W9', (ctx) => inner.openPullRequest(ctx)),
    restoreWorkspace: (ctx, restore) => inner.restoreWorkspace(ctx, restore),
  };
}
