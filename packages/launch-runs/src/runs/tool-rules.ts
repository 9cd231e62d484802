import fs from 'node:fs';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { RunState } from '@switchyard/contracts/launch-runs';
import {
  LAUNCH_TOOL_STATES,
  stateAllows,
  type ToolStateRequirement as StateRequirement,
} from '@switchyard/contracts/launch-runs/tool-states';
import type { RunRow } from '../db/schema.js';
import type { RunPaths } from '../store/run-paths.js';
import { runState, type LaunchStore } from '../store/launch-store.js';
import { runCancelled } from './model/errors.js';
import { isTerminal } from './model/state-machine.js';
import { waitsForDrafts } from './drafts.js';
import { isInterrupted } from './model/interrupted.js';

/** What a rule says against the run; the ILLEGAL_STATE it becomes adds the states. */
interface Objection {
  message: string;
  hint?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

/** ILLEGAL_STATE with the details the contract asks for: current_state, required_state, allowed_states. */
export function illegalState(
  refusal: Objection & { current: RunState; rule: StateRequirement; retryable?: boolean },
): SwitchyardError {
  const { message, current, rule, hint } = refusal;
  return new SwitchyardError('conflict', message, {
    code: 'ILLEGAL_STATE',
    retryable: refusal.retryable ?? false,
    hint,
    details: {
      current_state: current,
      required_state: rule.required,
      allowed_states: [...rule.allowed],
      ...refusal.details,
    },
  });
}

/** Another executor (a background run, a concurrent call, another process) holds the run right now. */
function runBusy(current: RunState, rule: StateRequirement): SwitchyardError {
  return illegalState({
    message: `Run is busy (state ${current}): another step is executing on it; retry when it has finished`,
    current,
    rule,
    retryable: true,
    details: { reason: 'run_busy' },
  });
}

/** Where runs live, and whether another executor holds the run's lease. */
interface RuleContext {
  paths: RunPaths;
  store: Pick<LaunchStore, 'sharedByReplicas'>;
  busy: boolean;
}

interface ToolRule extends StateRequirement {
  /** States in which a run another executor holds is busy (retryable) rather than in the wrong state. */
  busyIn?: readonly RunState[];
  /** Why the tool may not work on the run as `row` shows it (without the caller's own lease), if it may not. */
  check(row: RunRow, current: RunState, context: RuleContext): Objection | undefined;
}

const NOT_FINISHED: StateRequirement = LAUNCH_TOOL_STATES.launch_resume;

/**
 * The state rules of the tools that work under the run's lease, checked once, on the run as the lease
 * attempt found it, in its transaction (LaunchRunService.leased). A FAILED or CANCELLED run is refused
 * before any of them.
 */
export const TOOL_RULES = {
  launch_validate: {
    ...LAUNCH_TOOL_STATES.launch_validate,
    check(row, current, { paths, store }) {
      if (!stateAllows('launch_validate', current)) {
        return {
          message: `launch_validate needs the run at LINKING or later; it is ${current}`,
          hint: 'Wait for the run to reach LINKING (launch_get_status), or continue it with launch_resume.',
        };
      }
      // Runs move between replicas (PostgreSQL): a missing workspace is rebuilt rather than refused. A DONE
      // run's was removed when it ended: rebuilt for the call too. With one data directory (SQLite), an
      // unfinished run's missing site worktree means someone removed it: the run cannot validate.
      const rebuilt = store.sharedByReplicas || current === 'DONE';
      if (!rebuilt && !fs.existsSync(paths.siteWorktree(row.runId))) {
        return {
          message: `Run ${row.runId} has no site worktree to validate`,
          details: { reason: 'site_worktree_missing' },
        };
      }
      return undefined;
    },
  },
  launch_fix_next: {
    ...LAUNCH_TOOL_STATES.launch_fix_next,
    busyIn: ['FIXING'],
    check(row, current) {
      if (!stateAllows('launch_fix_next', current)) {
        const interrupted = isInterrupted(row, Date.now());
        return {
          message: `launch_fix_next needs the run in VALIDATING; it is ${current}`,
          hint:
            current === 'READY_FOR_PR'
              ? 'The report is ok: open the PR with launch_open_pr.'
              : interrupted
                ? 'The run was interrupted: continue it with launch_resume.'
                : undefined,
          details: interrupted ? { interrupted: true } : undefined,
        };
      }
      if (row.lastReportOk === null) {
        return {
          message: `Run ${row.runId} has no validation report yet; run launch_validate first`,
          details: { reason: 'no_validation_report', last_report_ok: null },
        };
      }
      if (row.lastReportOk) {
        return {
          message: `The last validation report of run ${row.runId} is ok: nothing to fix`,
          details: { reason: 'validation_report_ok', last_report_ok: true },
        };
      }
      return undefined;
    },
  },
  launch_resume: {
    ...NOT_FINISHED,
    check: (row, current) =>
      current === 'DONE' ? { message: `Run ${row.runId} is DONE: there is nothing to resume` } : undefined,
  },
  launch_open_pr: {
    ...LAUNCH_TOOL_STATES.launch_open_pr,
    check(row, current) {
      if (!stateAllows('launch_open_pr', current)) {
        return { message: `launch_open_pr needs the run in READY_FOR_PR; it is ${current}` };
      }
      if (row.lastReportOk !== true) {
        return {
          message: `The last validation report of run ${row.runId} is not ok`,
          details: { reason: 'validation_report_not_ok', last_report_ok: row.lastReportOk },
        };
      }
      return undefined;
    },
  },
  launch_submit_draft: {
    ...LAUNCH_TOOL_STATES.launch_submit_draft,
    check(row, current) {
      if (waitsForDrafts(row)) return undefined;
      return {
        message:
          `launch_submit_draft needs a run of run_config.drafting "model" waiting for drafts in DRAFTING; ` +
          `run ${row.runId} is ${current} and waits for none`,
        details: { waiting_for_drafts: [] },
      };
    },
  },
} satisfies Record<string, ToolRule>;

export type LeasedTool = keyof typeof TOOL_RULES;

/**
 * Why `tool` may not work on the run as `row` shows it; undefined when it may. A run another executor holds
 * (`context.busy`) is always refused: by the rule, or else as busy (retry later; a DONE run stays DONE).
 */
export function refusal(tool: LeasedTool, row: RunRow, context: RuleContext): SwitchyardError | undefined {
  const rule: ToolRule = TOOL_RULES[tool];
  const current = runState(row);
  if (current === 'CANCELLED') return runCancelled(row.runId);
  if (current === 'FAILED') {
    return illegalState({ message: `Run ${row.runId} has FAILED; start a new run`, current, rule });
  }
  if (context.busy && rule.busyIn?.includes(current)) return runBusy(current, rule);
  const objection = rule.check(row, current, context);
  if (objection !== undefined) return illegalState({ ...objection, current, rule });
  if (!context.busy) return undefined;
  if (current !== 'DONE') return runBusy(current, rule);
  return illegalState({ message: `Run ${row.runId} is ${current}`, current, rule });
}

/**
 * launch_cancel, checked in its own transaction (it takes no lease): a DONE or FAILED run is final. A
 * CANCELLED one is not refused: cancelling it again changes nothing.
 */
export function cancelRefusal(row: RunRow): SwitchyardError | undefined {
  const current = runState(row);
  if (!isTerminal(current) || current === 'CANCELLED') return undefined;
  const message = `Run ${row.runId} is already ${current} and cannot be cancelled`;
  return illegalState({ message, current, rule: NOT_FINISHED });
}

/**
 * A task's work whose executor stopped before the work ended (a process that died, a shutdown): what the tool
 * answers for an interrupted run, ILLEGAL_STATE pointing at launch_resume.
 */
export function workInterrupted(row: RunRow): SwitchyardError {
  return illegalState({
    message: `The work on run ${row.runId} stopped before it ended: its executor was interrupted`,
    hint: 'Continue the run with launch_resume, then call the tool again if it is still needed.',
    current: runState(row),
    rule: NOT_FINISHED,
    details: { reason: 'interrupted', interrupted: true },
  });
}
