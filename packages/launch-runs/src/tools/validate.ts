import {
  LaunchValidateInputSchema,
  LaunchValidateOutputSchema,
  type ValidationReport,
} from '@switchyard/contracts/launch-runs';
import { issuesPaging } from './answer-limit.js';
import { launchTool } from './spec.js';
import { whileRequestOpen } from './progress.js';
import { answerOrTask } from './slow-call.js';

const validateOutput = (runId: string) => (report: ValidationReport) => ({
  ok: true as const,
  run_id: runId,
  validation_report: report,
});

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
  task: 'when-slow',
  handler: (input, call) =>
    answerOrTask(
      call,
      'launch_validate',
      input.run_id,
      whileRequestOpen(call),
      (options) => call.state.runs.validate(input.run_id, options),
      validateOutput(input.run_id),
    ),
});
