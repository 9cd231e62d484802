/** The nine workers of the pipeline, by id, and the names their spans and events carry. */
export type WorkerId = 'W1' | 'W2' | 'W3' | 'W4' | 'W5' | 'W6' | 'W7' | 'W8' | 'W9';

export const WORKER_NAMES: Readonly<Record<WorkerId, string>> = {
  W1: 'inputs',
  W2: 'facts',
  W3: 'snippets',
  W4: 'plan',
  W5: 'draft',
  W6: 'link',
  W7: 'validate',
  W8: 'fix',
  W9: 'pr',
};

/** W1..W7: the position of an automatic step, for progress (1..7 of 7). */
export const AUTOMATIC_STEP_COUNT = 7;
