import { LaunchFixNextInputSchema, LaunchFixNextOutputSchema } from '@switchyard/contracts/launch-runs';
import { issuesPaging } from './answer-limit.js';
import { TaskStarted } from '@switchyard/server-kit';
import { stoppedByRequest } from './progress.js';
import { answerOrTask } from './slow-call.js';
import { launchTool } from './spec.js';

export const fixNextTool = launchTool({
  name: 'launch_fix_next',
  title: 'Fix the next validation issue',
  description:
    'Fixes exactly one issue of the last failing validation report (the first open blocker/error, chosen ' +
    'deterministically) with the smallest change, then re-validates. Needs the run in VALIDATING with a ' +
    'report that is not ok. Each applied fix counts against max_fix_attempts (FIX_EXHAUSTED at the limit); ' +
    'a call cancelled before its fix was written changes nothing. Call again until READY_FOR_PR.',
  input: LaunchFixNextInputSchema,
  output: LaunchFixNextOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  view: 'run-dashboard',
  paging: issuesPaging('validation_report.issues'),
  task: 'when-slow',
  handler: async (input, call) => {
    const service = call.state.runs;
    await call.progress.report(0, 2, 'W8 fix');
    const outcome = await answerOrTask(
      call,
      'launch_fix_next',
      input.run_id,
      stoppedByRequest(call),
      (options) => service.fixNext(input.run_id, options),
      (fixed) => ({ ok: true as const, ...fixed }),
    );
    if (outcome instanceof TaskStarted) return outcome;
    await call.progress.report(
      2,
      2,
      `fixed ${outcome.fixed_issue_id}; ${outcome.remaining_blockers} blocking issues left`,
    );
    return outcome;
  },
});
