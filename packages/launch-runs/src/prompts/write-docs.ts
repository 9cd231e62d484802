import { SwitchyardError } from '@switchyard/contracts/errors';
import { launchErrorPayload, RunIdSchema } from '@switchyard/contracts/launch-runs';
import type { RequestCall } from '@switchyard/server-kit';
import type { LaunchCallState } from '../open.js';
import { prompt } from '../tools/spec.js';

/** How many of the caller's drafting runs the run id completion offers. */
const COMPLETED_RUNS = 100;

/** The caller's runs in DRAFTING whose id starts with what was typed: the ones that may wait for drafts. */
async function draftingRunIds(value: string, call: RequestCall<LaunchCallState>): Promise<string[]> {
  const runs = await call.state.runs.recentRuns(call.principal, {
    limit: COMPLETED_RUNS,
    state: 'DRAFTING',
    runIdPrefix: value,
  });
  return runs.map((run) => run.runId);
}

/** "Write the pages of a launch": brief, write, submit and revise, until the run waits for no page. */
export const writeDocsPrompt = prompt({
  name: 'launch_write_docs',
  title: 'Write the pages of a launch run',
  description:
    'Walks you through writing every page of a run started with run_config.drafting "model": read the ' +
    'writing brief, write each page citing its evidence, submit it, revise it on the issues, until no page ' +
    'is left.',
  arguments: [
    {
      name: 'run_id',
      description: 'A run waiting for drafts (state DRAFTING), e.g. r_2026-01-21T10-00-00Z_0f3a9c1e',
      required: true,
      complete: draftingRunIds,
    },
  ],
  tools: ['launch_get_status', 'launch_get_artifact', 'launch_submit_draft'],
  get: async ({ run_id }) => {
    if (!RunIdSchema.safeParse(run_id).success)
      throw new SwitchyardError('validation', 'run_id must match ^[A-Za-z0-9_-]{8,64}$', {
        code: 'INVALID_INPUT',
      });
    return [
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            `Write the documentation pages of launch run ${run_id}. Call launch_get_status with ` +
            `{"run_id":"${run_id}"}: waiting_for_drafts lists the pages to write. Read the writing brief with ` +
            `launch_get_artifact {"run_id":"${run_id}","artifact_name":"writing_brief.json"} (ask for the rest ` +
            'with next_offset while it is not null). For each waiting page, write its body in Markdown from ' +
            "that page's entry only: follow the brief's rules, use its sections in order, end every sentence " +
            'that states a fact with the claim markers of the evidence items it states (the claim marker of ' +
            'the brief), say nothing those items do not say, show code only as a listed snippet copied byte ' +
            'for byte below its snippet marker, link only to the listed pages. Submit it with ' +
            `launch_submit_draft {"run_id":"${run_id}","page":"<page_id>","markdown":"<body>"}. If it is not ` +
            'accepted, revise exactly the sentences its issues name, as each message says, and submit again. ' +
            'Go on until remaining_pages is empty, then tell me the run state (launch_get_status) and which ' +
            'pages needed revisions and why.',
        },
      },
    ];
  },
  errorPayload: (error) => launchErrorPayload(error),
});
