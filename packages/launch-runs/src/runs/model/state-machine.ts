import { RUN_STATES, STABLE_STATES, TERMINAL_STATES, type RunState } from '@switchyard/contracts/launch-runs';

/**
 * The run lifecycle of the design:
 * CREATED → CLONED_INPUTS → INGESTED → FACTS_READY → PLAN_READY → DRAFTING → DRAFT_READY → LINKING →
 * VALIDATING → (FIXING → VALIDATING)* → READY_FOR_PR → PR_OPENED → DONE, and FAILED or CANCELLED from any
 * non-terminal state. Anything else is a bug and is refused.
 */
const FORWARD: Readonly<Partial<Record<RunState, readonly RunState[]>>> = {
  CREATED: ['CLONED_INPUTS'],
  CLONED_INPUTS: ['INGESTED'],
  INGESTED: ['FACTS_READY'],
  FACTS_READY: ['PLAN_READY'],
  PLAN_READY: ['DRAFTING'],
  DRAFTING: ['DRAFT_READY'],
  DRAFT_READY: ['LINKING'],
  LINKING: ['VALIDATING'],
  VALIDATING: ['FIXING', 'READY_FOR_PR'],
  FIXING: ['VALIDATING'],
  READY_FOR_PR: ['PR_OPENED'],
  PR_OPENED: ['DONE'],
};

export function isTerminal(state: RunState): boolean {
  return TERMINAL_STATES.includes(state);
}

export function isStable(state: RunState): boolean {
  return STABLE_STATES.includes(state);
}

/** Neither stable nor terminal: a run left here by a dead process was interrupted mid-step. */
export function isTransitional(state: RunState): boolean {
  return !isStable(state) && !isTerminal(state);
}

export function canTransition(from: RunState, to: RunState): boolean {
  if (isTerminal(from)) return false;
  if (to === 'FAILED' || to === 'CANCELLED') return true;
  return FORWARD[from]?.includes(to) ?? false;
}

/** Thrown for a transition the lifecycle does not have: a programming error, never a user error. */
export class IllegalTransitionError extends Error {
  constructor(
    readonly from: RunState,
    readonly to: RunState,
  ) {
    super(`Illegal run state transition ${from} → ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

export function assertTransition(from: RunState, to: RunState): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
}

/** True for states at or after `threshold` on the main line (DONE included, FAILED/CANCELLED excluded). */
export function isAtLeast(state: RunState, threshold: RunState): boolean {
  return (
    !['FAILED', 'CANCELLED'].includes(state) && RUN_STATES.indexOf(state) >= RUN_STATES.indexOf(threshold)
  );
}

/**
 * Where `launch_resume` rewinds an interrupted run: the last stable state it reached, or CREATED when it
 * never reached one. Workers are deterministic and re-runnable, so redoing the steps after it is safe.
 */
export function rewindTarget(state: RunState, lastStable: RunState | null): RunState {
  if (!isTransitional(state)) return state;
  return lastStable ?? 'CREATED';
}
