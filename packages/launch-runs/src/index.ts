export { launchRunsDomain, launchRunsDomainWith, type LaunchRunsDomain } from './domain.js';
export type { LaunchRunsSeams, LaunchRunsState } from './open.js';
export {
  loadLaunchRunsConfig,
  LaunchRunsConfigSchema,
  SERVER_SECRET_VARIABLES,
  type LaunchRunsConfig,
  type LaunchRunsConfigInput,
} from './config.js';
// Types only from the run store's modules: importing the package must not load drizzle (see open.ts).
export type { LaunchRunService, StartRunInput, CallOptions } from './runs/service.js';
export type { FixOutcome } from './runs/fix.js';
export type { ListRunsPage } from './tools/list-runs.js';
export type { ProgressUpdate, ProgressListener } from './runs/executor.js';
export { type WorkerId, WORKER_NAMES } from './runs/worker-ids.js';
export { canTransition, isStable, isTerminal, isTransitional } from './runs/model/state-machine.js';
export { verifyEventChain, type RunEvent, type ChainVerification } from './store/event-chain.js';
export { DEFAULT_GITHUB_API_URLS, DEFAULT_REMOTE_HOSTS, type LaunchPolicy } from './policy/launch-policy.js';
export type { HugoSecurity } from './gates/hugo-lockdown.js';
export type * from './pipeline/types.js';
export {
  createLaunchPipeline,
  exampleRunConfig,
  materializeExampleRepos,
  quotingDraft,
  type LaunchPipelineOptions,
  type ExampleRepos,
  type MaterializeOptions,
} from './pipeline/index.js';
