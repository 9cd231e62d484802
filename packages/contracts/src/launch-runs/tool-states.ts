// The run states, and the ones each run tool may start in: plain data without zod, so that a view's page can
// hold them (zod would take it over its size limit). status.ts builds the schemas on these lists.

export const RUN_STATES = [
  'CREATED',
  'CLONED_INPUTS',
  'INGESTED',
  'FACTS_READY',
  'PLAN_READY',
  'DRAFTING',
  'DRAFT_READY',
  'LINKING',
  'VALIDATING',
  'FIXING',
  'READY_FOR_PR',
  'PR_OPENED',
  'DONE',
  'FAILED',
  'CANCELLED',
] as const;
type State = (typeof RUN_STATES)[number];

export const TERMINAL_STATES: readonly State[] = ['DONE', 'FAILED', 'CANCELLED'];

/** What a run tool needs of the run's state: the contract's words and the states that satisfy them. */
export interface ToolStateRequirement {
  readonly required: string;
  readonly allowed: readonly State[];
}

/** The main line from `first` to `last`, both included. */
function from(first: State, last: State): State[] {
  return RUN_STATES.slice(RUN_STATES.indexOf(first), RUN_STATES.indexOf(last) + 1);
}

/**
 * The run states in which each tool that works on a run's state may start: the launch rules
 * (`@switchyard/launch-runs`) refuse it in any other with ILLEGAL_STATE (these are its `allowed_states`), and
 * the run dashboard view enables its button only in these.
 */
export const LAUNCH_TOOL_STATES = {
  // "run state MUST be at least LINKING": DONE included (its workspace is rebuilt for the call).
  launch_validate: { required: 'LINKING', allowed: from('LINKING', 'DONE') },
  launch_fix_next: { required: 'VALIDATING', allowed: ['VALIDATING'] },
  // launch_cancel needs the same.
  launch_resume: {
    required: 'a non-terminal state',
    allowed: RUN_STATES.filter((state) => !TERMINAL_STATES.includes(state)),
  },
  launch_open_pr: { required: 'READY_FOR_PR', allowed: ['READY_FOR_PR'] },
  // A run_config.drafting "model" run waiting for the page's draft.
  launch_submit_draft: { required: 'DRAFTING', allowed: ['DRAFTING'] },
} as const satisfies Record<string, ToolStateRequirement>;

export type StateRuledTool = keyof typeof LAUNCH_TOOL_STATES;

/** Whether `tool` may start on a run in `state`. */
export function stateAllows(tool: StateRuledTool, state: State): boolean {
  const allowed: readonly State[] = LAUNCH_TOOL_STATES[tool].allowed;
  return allowed.includes(state);
}
