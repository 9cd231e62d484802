import { LaunchGetStatusInputSchema, LaunchGetStatusOutputSchema } from '@switchyard/contracts/launch-runs';
import { issuesPaging } from './answer-limit.js';
import { launchTool } from './spec.js';

export const getStatusTool = launchTool({
  name: 'launch_get_status',
  title: 'Get a launch run status',
  description:
    'Returns the current state of a launch run: state, section states, open issues of the latest validation, ' +
    'artifacts with sha256, and details (interrupted, busy, fix attempts, last error, PR). Cheap: poll it.',
  input: LaunchGetStatusInputSchema,
  output: LaunchGetStatusOutputSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  view: 'run-dashboard',
  paging: issuesPaging('status.open_issues'),
  handler: async (input, call) => ({
    ok: true as const,
    status: await call.state.runs.status(input.run_id),
  }),
});
