import { LaunchFixNextInputSchema, LaunchFixNextOutputSchema } from '@switchyard/contracts/launch-runs';
import { issuesPaging } from './answer-limit.js';
import { stoppedByRequest } from './progress.js';
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
  handler: async (input, call) => {
    const service = call.state.runs;
    await call.progress.report(0, 2, 'W8 fix');
    const outcome = await service.fixNext(input.run_id, stoppedByRequest(call));
    await call.progress.report(
      2,
      2,
      `fixed ${outcome.fixed_issue_id}; ${outcome.remaining_blockers} blocking issues left`,
    );
    return { ok: true as const, ...outcome };
  },
});
