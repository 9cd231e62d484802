import { LaunchResumeInputSchema, LaunchResumeOutputSchema } from '@switchyard/contracts/launch-runs';
import { issuesPaging } from './answer-limit.js';
import { launchTool } from './spec.js';
import { whileRequestOpen } from './progress.js';

export const resumeTool = launchTool({
  name: 'launch_resume',
  title: 'Resume a launch run',
  description:
    'Continues a run to its next stable boundary (PLAN_READY, DRAFT_READY, VALIDATING or READY_FOR_PR) and ' +
    'returns its status. A run interrupted by a crash or restart (status details.interrupted=true) is first ' +
    'rewound to its last stable state; nothing already written is lost or duplicated.',
  input: LaunchResumeInputSchema,
  output: LaunchResumeOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  view: 'run-dashboard',
  paging: issuesPaging('status.open_issues'),
  handler: async (input, call) => {
    const status = await call.state.runs.resume(input.run_id, whileRequestOpen(call));
    return { ok: true as const, status };
  },
});
