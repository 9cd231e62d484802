export { createLaunchRunsModule, type LaunchRunsModule, type LaunchRunsModuleOptions } from './module.js';
export {
  loadLaunchRunsConfig,
  LaunchRunsConfigSchema,
  type LaunchRunsConfig,
  type LaunchRunsConfigInput,
} from './config.js';
export {
  LaunchRunService,
  type FixOutcome,
  type ListRunsPage,
  type StartRunInput,
  type CallOptions,
} from './runs/service.js';
export { type ProgressUpdate, type ProgressListener, type WorkerId, WORKER_NAMES } from './runs/executor.js';
export { canTransition, isStable, isTerminal, isTransitional } from './runs/state-machine.js';
export { verifyEventChain, type RunEvent, type ChainVerification } from './store/event-log.js';
export type * from './pipeline/types.js';
export {
  createLaunchPipeline,
  exampleRunConfig,
  materializeExampleRepos,
  type LaunchPipelineOptions,
  type ExampleRepos,
  type MaterializeOptions,
} from './pipeline/index.js';
