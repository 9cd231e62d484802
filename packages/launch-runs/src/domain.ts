import { readFileSync } from 'node:fs';
import { defineDomain, type Domain } from '@switchyard/server-kit';
import { describeStorage } from '@switchyard/server-kit/runtime';
import { loadLaunchRunsConfig, type LaunchRunsConfig } from './config.js';
import { DATABASE_URL_VARIABLE, POSTGRES_MIGRATIONS_FOLDER } from './db/open.js';
import {
  launchCallState,
  openLaunchRuns,
  version,
  type LaunchCallState,
  type LaunchRunsSeams,
  type LaunchRunsState,
} from './open.js';
import { launchDocsPrompt } from './prompts/launch-docs.js';
import { writeDocsPrompt } from './prompts/write-docs.js';
import { cancelTool } from './tools/cancel.js';
import { fixNextTool } from './tools/fix-next.js';
import { getArtifactTool } from './tools/get-artifact.js';
import { getStatusTool } from './tools/get-status.js';
import { listRunsTool } from './tools/list-runs.js';
import { openPrTool } from './tools/open-pr.js';
import {
  artifactPartResource,
  artifactResource,
  eventsPartResource,
  eventsResource,
} from './tools/resources.js';
import { resumeTool } from './tools/resume.js';
import { startRunTool } from './tools/start-run.js';
import { submitDraftTool } from './tools/submit-draft.js';
import { launchTaskBoard } from './tools/task-outputs.js';
import { toolSpans } from './tools/tracing.js';
import { validateTool } from './tools/validate.js';

export type LaunchRunsDomain = Domain<LaunchRunsConfig, LaunchRunsState, LaunchCallState>;

/**
 * The launch-runs domain opened over `seams` instead of the defaults: tests (and embedders) give it their
 * own pipeline. The pipeline is not part of the configuration on purpose: the configuration is what an
 * operator sets in the environment (`config(env)`), plain data a server reads before it opens anything,
 * while a pipeline is code with state. Everything else is the same declaration as `launchRunsDomain`.
 */
export function launchRunsDomainWith(seams: LaunchRunsSeams): LaunchRunsDomain {
  return defineDomain({
    name: 'launch-runs',
    version,
    title: 'Documentation launch runs',
    instructions:
      'Durable, evidence-grounded documentation launches: launch_start_run takes a run_config (a product ' +
      'source repository and a Hugo site repository) and works in the background from evidence to drafted, ' +
      'linked and validated pages; poll launch_get_status until VALIDATING or READY_FOR_PR. launch_fix_next ' +
      'fixes one validation issue per call, launch_validate re-runs the gates, launch_open_pr commits, pushes ' +
      'and opens the pull request. launch_resume continues an interrupted run, launch_cancel stops one, ' +
      'launch_list_runs lists them. With run_config.drafting "model" the run waits in DRAFTING for your ' +
      'model to write each page from writing_brief.json and send it with launch_submit_draft. Artifacts and event logs are also resources (launch://runs/{run_id}/...).',
    toolPrefix: 'launch',
    // OAuth: launch:run for the runs; opening a pull request (launch_open_pr) asks launch:pr on top.
    scopes: { read: 'launch:run', write: 'launch:run' },
    // Drawn for Switchyard (MIT, like the code); shipped in the package's icons/ folder.
    icon: readFileSync(new URL('../icons/launch-runs.svg', import.meta.url), 'utf8'),
    // Runs move to PostgreSQL with LAUNCH_DATABASE_URL (or SWITCHYARD_DATABASE_URL).
    postgres: { variable: DATABASE_URL_VARIABLE, migrationsFolder: POSTGRES_MIGRATIONS_FOLDER },
    config: loadLaunchRunsConfig,
    describe: (config, dataDir) => describeStorage(config.database, dataDir),
    open: (config, runtime) => openLaunchRuns(config, runtime, seams),
    callState: launchCallState,
    tools: [
      startRunTool,
      getStatusTool,
      getArtifactTool,
      validateTool,
      fixNextTool,
      resumeTool,
      cancelTool,
      openPrTool,
      listRunsTool,
      submitDraftTool,
    ],
    // A part's template first: the whole artifact's `{+name}` would also match its `?offset=`.
    resources: [artifactPartResource, artifactResource, eventsPartResource, eventsResource],
    prompts: [launchDocsPrompt, writeDocsPrompt],
    middleware: [toolSpans],
    // The tasks launch_start_run and launch_resume answer with, in the run store (any replica serves them).
    tasks: launchTaskBoard,
  });
}

/**
 * The launch-runs domain: the nine launch_* tools of seed 002 and launch_submit_draft, run artifacts and event logs as resources
 * (with run id completion), a span per tool call. Configuration comes from the environment
 * (`loadLaunchRunsConfig`); opening it opens launch-runs.sqlite in the server's data directory.
 */
export const launchRunsDomain: LaunchRunsDomain = launchRunsDomainWith({});
