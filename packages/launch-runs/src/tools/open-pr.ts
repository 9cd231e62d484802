import { LaunchOpenPrInputSchema, LaunchOpenPrOutputSchema } from '@switchyard/contracts/launch-runs';
import { stoppedByRequest } from './progress.js';
import { answerOrTask } from './slow-call.js';
import { launchTool } from './spec.js';

export const openPrTool = launchTool({
  name: 'launch_open_pr',
  title: 'Open the launch pull request',
  description:
    'Commits the run worktree on branch launch/<run_id>/<product_slug>, pushes it and opens the pull request ' +
    'through the configured commit service (W9); the run becomes DONE. Needs READY_FOR_PR with a passing ' +
    'report. Calling it again returns the same PR (never a second one).',
  input: LaunchOpenPrInputSchema,
  output: LaunchOpenPrOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  // Pushes and opens a PR with the operator's credentials: its own OAuth scope, beyond launch:run.
  scope: 'launch:pr',
  task: 'when-slow',
  handler: (input, call) =>
    answerOrTask(
      call,
      'launch_open_pr',
      input.run_id,
      stoppedByRequest(call),
      (options) => call.state.runs.openPr(input.run_id, options),
      (opened) => ({ ok: true as const, ...opened }),
    ),
});
