import type { LaunchCallState } from '../open.js';
import type { TaskOutputs } from '../tasks/task-board.js';
import type { LaunchRunService } from '../runs/service.js';
import { runState } from '../store/launch-store.js';
import { resumeOutput } from './resume.js';
import { startRunOutput } from './start-run.js';

/** The answers of the tools whose task waits for the run's next stable state, from the run resting there. */
function taskOutputs(service: LaunchRunService): TaskOutputs {
  return {
    launch_start_run: async (run) => startRunOutput({ run_id: run.runId, state: runState(run) }),
    launch_resume: async (run) => resumeOutput(await service.status(run.runId)),
  };
}

/** The launch tools' tasks over the call's run service (Domain.tasks). */
export function launchTaskBoard(state: LaunchCallState) {
  return state.runs.taskBoard(taskOutputs(state.runs));
}
