import { RUN_STATES, type RunState } from '@switchyard/contracts/launch-runs';
import { describe, expect, it } from 'vitest';
import {
  assertTransition,
  canTransition,
  IllegalTransitionError,
  isAtLeast,
  isStable,
  isTerminal,
  isTransitional,
  rewindTarget,
} from '../src/runs/model/state-machine.js';
import { newRunId } from '../src/runs/service.js';
import { RUN_ID_PATTERN } from './support/harness.js';

const MAIN_LINE: [RunState, RunState][] = [
  ['CREATED', 'CLONED_INPUTS'],
  ['CLONED_INPUTS', 'INGESTED'],
  ['INGESTED', 'FACTS_READY'],
  ['FACTS_READY', 'PLAN_READY'],
  ['PLAN_READY', 'DRAFTING'],
  ['DRAFTING', 'DRAFT_READY'],
  ['DRAFT_READY', 'LINKING'],
  ['LINKING', 'VALIDATING'],
  ['VALIDATING', 'FIXING'],
  ['FIXING', 'VALIDATING'],
  ['VALIDATING', 'READY_FOR_PR'],
  ['READY_FOR_PR', 'PR_OPENED'],
  ['PR_OPENED', 'DONE'],
];

describe('run state machine', () => {
  it('allows exactly the design transitions, plus FAILED/CANCELLED from any non-terminal state', () => {
    const allowed = new Set(MAIN_LINE.map(([a, b]) => `${a}>${b}`));
    for (const from of RUN_STATES) {
      for (const to of RUN_STATES) {
        const expected =
          !isTerminal(from) && (allowed.has(`${from}>${to}`) || to === 'FAILED' || to === 'CANCELLED');
        expect(canTransition(from, to), `${from} → ${to}`).toBe(expected);
      }
    }
  });

  it('refuses anything else as a bug', () => {
    expect(() => assertTransition('CREATED', 'PLAN_READY')).toThrow(IllegalTransitionError);
    expect(() => assertTransition('LINKING', 'READY_FOR_PR')).toThrow(
      'Illegal run state transition LINKING → READY_FOR_PR',
    );
    expect(() => assertTransition('DONE', 'FAILED')).toThrow(IllegalTransitionError);
    expect(() => assertTransition('CANCELLED', 'CANCELLED')).toThrow(IllegalTransitionError);
    expect(() => assertTransition('READY_FOR_PR', 'VALIDATING')).toThrow(IllegalTransitionError);
  });

  it('classifies terminal, stable and transitional states', () => {
    expect(RUN_STATES.filter(isTerminal)).toEqual(['DONE', 'FAILED', 'CANCELLED']);
    expect(RUN_STATES.filter(isStable)).toEqual(['PLAN_READY', 'DRAFT_READY', 'VALIDATING', 'READY_FOR_PR']);
    expect(RUN_STATES.filter(isTransitional)).toEqual([
      'CREATED',
      'CLONED_INPUTS',
      'INGESTED',
      'FACTS_READY',
      'DRAFTING',
      'LINKING',
      'FIXING',
      'PR_OPENED',
    ]);
    expect(isAtLeast('LINKING', 'LINKING')).toBe(true);
    expect(isAtLeast('DONE', 'LINKING')).toBe(true);
    expect(isAtLeast('DRAFT_READY', 'LINKING')).toBe(false);
    expect(isAtLeast('FAILED', 'LINKING')).toBe(false);
  });

  it('rewinds an interrupted run to its last stable state, or to CREATED', () => {
    expect(rewindTarget('DRAFTING', 'PLAN_READY')).toBe('PLAN_READY');
    expect(rewindTarget('FIXING', 'VALIDATING')).toBe('VALIDATING');
    expect(rewindTarget('FACTS_READY', null)).toBe('CREATED');
    expect(rewindTarget('VALIDATING', 'VALIDATING')).toBe('VALIDATING');
  });

  it('makes run ids r_<UTC YYYY-MM-DDTHH-MM-SSZ>_<8 hex> within the contract pattern', () => {
    const id = newRunId(Date.UTC(2026, 0, 21, 10, 0, 0));
    expect(id).toMatch(/^r_2026-01-21T10-00-00Z_[0-9a-f]{8}$/);
    expect(id).toMatch(RUN_ID_PATTERN);
    expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(newRunId()).not.toBe(newRunId());
  });
});
