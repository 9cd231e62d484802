// Transit answers are cut to the server's answer limit (SWITCHYARD_MAX_ANSWER_BYTES) at item boundaries,
// most relevant items kept (lists come best first), and say what was left out and what to narrow: in a
// `truncated-results` warning where the contract has warnings, else in the envelope's message.
import type { AnswerCut, AnswerPaging } from '@switchyard/server-kit';

interface Cuttable {
  /** The list's path in the payload. */
  list: string;
  /** What its items are, plural (`departures`). */
  items: string;
  /** What the caller can change to get the rest, e.g. `ask for fewer (limit)`. */
  narrower: string;
}

function leftOut(cut: AnswerCut, lists: readonly Cuttable[]): string {
  const parts = lists
    .map(({ list, items }) => ({ items, count: cut.omitted[list] ?? 0 }))
    .filter(({ count }) => count > 0)
    .map(({ items, count }) => `${count} more ${items}`);
  const narrower = lists.find(({ list }) => (cut.omitted[list] ?? 0) > 0)?.narrower ?? '';
  return (
    `${parts.join(' and ')} left out: the answer passed the server's answer limit (${cut.limitBytes} bytes); ` +
    `${narrower}.`
  );
}

/** Paging that adds a `truncated-results` warning after the answer's own warnings. */
export function warnedPaging(...lists: Cuttable[]): AnswerPaging<unknown, { warnings?: readonly unknown[] }> {
  return {
    lists: lists.map(({ list }) => list),
    rest: (cut, _input, payload) => ({
      warnings: [...(payload.warnings ?? []), { code: 'truncated-results', message: leftOut(cut, lists) }],
    }),
  };
}

/** Paging for a London envelope without warnings (planJourney, get_line_status): the message says it. */
export function messagePaging(...lists: Cuttable[]): AnswerPaging<unknown, { message: string }> {
  return {
    lists: lists.map(({ list }) => list),
    rest: (cut, _input, payload) => ({ message: `${payload.message} ${leftOut(cut, lists)}` }),
  };
}
