import { lazyPipeline, loadWorkers } from './lazy-pipeline.js';
import { resolvePipelineOptions, type LaunchPipelineOptions } from './options.js';
import type { LaunchPipeline } from './types.js';

export type * from './types.js';
export type { LaunchPipelineOptions, SiteBuildCommand, GithubClientOptions } from './options.js';
export type {
  Claim,
  Evidence,
  EvidenceMap,
  FixPatch,
  FixRecord,
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
export { quotingDraft } from './quoting-writer.js';
// Published under this name since the first release: the artifact form (indented, trailing newline).
export { canonicalJsonDocument as canonicalJson } from '../canonical-json.js';

/**
 * The launch pipeline: workers W1..W9 as plain functions over git repositories and files (no MCP, no
 * database). The runtime calls them in order, persists their artifacts and owns the run's state. The
 * workers' code is loaded when a run first executes one (see lazy-pipeline.ts), not at startup.
 */
export function createLaunchPipeline(options: LaunchPipelineOptions = {}): LaunchPipeline {
  return lazyPipeline(loadWorkers, resolvePipelineOptions(options));
}
