import { LaunchValidateInputSchema, LaunchValidateOutputSchema } from '@switchyard/contracts/launch-runs';
import { issuesPaging } from './answer-limit.js';
import { launchTool } from './spec.js';
import { whileRequestOpen } from './progress.js';

export const validateTool = launchTool({
  name: 'launch_validate',
  title: 'Validate a launch run worktree',
  description:
    'Runs the validation gates (W7) on the run site worktree now and returns the validation_report. ' +
    'Needs the run at LINKING or later. ok=true means the validator ran; whether the gates passed is ' +
    'validation_report.ok. A passing report moves the run to READY_FOR_PR.',
  input: LaunchValidateInputSchema,
  output: LaunchValidateOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  view: 'run-dashboard',
  paging: issuesPaging('validation_report.issues'),
  handler: async (input, call) => {
    const report = await call.state.runs.validate(input.run_id, whileRequestOpen(call));
    return { ok: true as const, run_id: input.run_id, validation_report: report };
  },
});
