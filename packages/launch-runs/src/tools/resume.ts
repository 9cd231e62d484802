import {
  LaunchResumeInputSchema,
  LaunchResumeOutputSchema,
  type RunStatus,
} from '@switchyard/contracts/launch-runs';
import { taskStarted } from '@switchyard/server-kit';
import { issuesPaging } from './answer-limit.js';
import { launchTool } from './spec.js';
import { whileRequestOpen } from './progress.js';
import { newTaskOf } from './task-call.js';

/** launch_resume's answer: the run's status where the resume left it (at once, or as its task ends). */
export function resumeOutput(status: RunStatus) {
  return { ok: true as const, status };
}

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
  // A task-aware client follows the resume through its task: completed at the next stable state.
  task: 'always',
  handler: async (input, call) => {
    const task = newTaskOf(call, 'launch_resume', 'next-stable-state');
    if (task === undefined)
      return resumeOutput(await call.state.runs.resume(input.run_id, whileRequestOpen(call)));
    await call.state.runs.resumeAsTask(input.run_id, task);
    return taskStarted(task.taskId);
  },
});
