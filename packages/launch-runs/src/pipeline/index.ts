import { catalogSnippets } from './snippets.js';
import { cloneInputs } from './inputs.js';
import { draftPages } from './draft.js';
import { extractFacts } from './facts/extract.js';
import { fixNext } from './fix.js';
import { linkPages } from './link.js';
import { openPullRequest } from './open-pr.js';
import { resolvePipelineOptions, type LaunchPipelineOptions } from './options.js';
import { planPages } from './plan.js';
import type { LaunchPipeline } from './types.js';
import { validateSite } from './validate.js';

export type * from './types.js';
export type { LaunchPipelineOptions, SiteBuildCommand, GithubClientOptions } from './options.js';
export type {
  Claim,
  Evidence,
  EvidenceMap,
  PagePlan,
  PatchBundle,
  PlannedPage,
  PrRecord,
  ProductFacts,
  RepoInventory,
  Snippet,
  SnippetCatalog,
} from './artifact-schemas.js';
export {
  EXAMPLES_DIR,
  exampleRunConfig,
  materializeExampleRepos,
  type ExampleRepos,
  type MaterializeOptions,
} from './examples.js';
export { canonicalJson } from './canonical-json.js';

/**
 * The launch pipeline: workers W1..W9 as plain functions over git repositories and files (no MCP, no
 * database). The runtime calls them in order, persists their artifacts and owns the run's state.
 */
export function createLaunchPipeline(options: LaunchPipelineOptions = {}): LaunchPipeline {
  const resolved = resolvePipelineOptions(options);
  return {
    cloneInputs: (ctx) => cloneInputs(ctx, resolved),
    extractFacts: (ctx) => extractFacts(ctx),
    catalogSnippets: (ctx) => catalogSnippets(ctx),
    planPages: (ctx) => planPages(ctx),
    draftPages: (ctx) => draftPages(ctx),
    linkPages: (ctx) => linkPages(ctx, resolved),
    validateSite: (ctx) => validateSite(ctx, resolved),
    fixNext: (ctx, report) => fixNext(ctx, report),
    openPullRequest: (ctx) => openPullRequest(ctx, resolved),
  };
}
