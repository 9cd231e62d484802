import { SwitchyardError } from '@switchyard/contracts/errors';
import { payloadJson } from './payload-json.js';
import { toolAnswerBytes, toolAnswerFits } from './runtime/answer-bytes.js';
import type { AnswerCut, AnswerPaging } from './tool-spec.js';

/** The environment variable of the answer limit, for messages. */
export const ANSWER_LIMIT_SETTING = 'SWITCHYARD_MAX_ANSWER_BYTES';
/** Room kept for the fields a cut answer gains (a cursor, a warning) before measuring it again. */
const REST_ROOM_BYTES = 1024;

/**
 * The answer bytes one MCP request may still send. A request is one message, or over HTTP a 2025-era
 * JSON-RPC batch: its members share one allowance and are answered one at a time, so that a batch costs no
 * more memory than one answer.
 */
export class AnswerAllowance {
  #remaining: number;
  /** The last turn taken (settled or not); none before the first. */
  #lastTurn: Promise<unknown> | undefined;
  /** A tool answer spent but not yet measured: its payload's JSON and the bytes of its added blocks. */
  #unmeasured: { json: string; blockBytes: number } | undefined;

  constructor(readonly limit: number) {
    this.#remaining = limit;
  }

  get remaining(): number {
    this.#measureSpent();
    return this.#remaining;
  }

  /** True once an earlier answer of the same request spent part of the limit. */
  get shared(): boolean {
    return this.remaining < this.limit;
  }

  spend(bytes: number): void {
    this.#measureSpent();
    this.#remaining = Math.max(0, this.#remaining - bytes);
  }

  /**
   * Spends a tool answer whose payload serializes to `json`, measured (a scan of the whole text) only when this
   * allowance is read again: the answer to a request of one call, the usual request, is never measured twice.
   */
  spendToolAnswer(json: string, blockBytes: number): void {
    this.#measureSpent();
    this.#unmeasured = { json, blockBytes };
  }

  #measureSpent(): void {
    const spent = this.#unmeasured;
    if (spent === undefined) return;
    this.#unmeasured = undefined;
    this.#remaining = Math.max(0, this.#remaining - toolAnswerBytes(spent.json) - spent.blockBytes);
  }

  /**
   * Runs `work` once every earlier turn has ended, so that one answer is built at a time. The first turn (the
   * only one of a request of one call, the usual request) waits for nothing, so it starts at once.
   */
  turn<T>(work: () => Promise<T>): Promise<T> {
    const earlier = this.#lastTurn;
    const result = earlier === undefined ? work() : earlier.then(settled, settled).then(work);
    this.#lastTurn = result;
    return result;
  }
}

/** The refusal of an answer that cannot be cut to fit: the caller's doing in a batch, a defect otherwise. */
export function answerTooLarge(allowance: AnswerAllowance, bytes: number): SwitchyardError {
  if (allowance.shared) {
    return new SwitchyardError(
      'validation',
      `The answers to this batch reached the answer limit (${ANSWER_LIMIT_SETTING}, ${allowance.limit} ` +
        'bytes for a whole request): send this request on its own.',
    );
  }
  return new SwitchyardError(
    'internal',
    `The answer would take ${bytes} bytes, more than the answer limit (${ANSWER_LIMIT_SETTING}, ` +
      `${allowance.limit} bytes), and it cannot be cut`,
    { details: { cause_class: 'AnswerTooLarge' } },
  );
}

/** An earlier turn's outcome, whichever it was: the next turn only waits for it to end. */
function settled(): void {}

type Payload = Record<string, unknown>;

function arrayAt(payload: Payload, path: string): unknown[] {
  let value: unknown = payload;
  for (const key of path.split('.')) value = (value as Payload | undefined)?.[key];
  return Array.isArray(value) ? value : [];
}

/** A copy of `payload` with the array at `path` replaced (the objects along the path copied, not changed). */
function withArrayAt(payload: Payload, path: string, items: unknown[]): Payload {
  const [key, ...rest] = path.split('.') as [string, ...string[]];
  if (rest.length === 0) return { ...payload, [key]: items };
  return { ...payload, [key]: withArrayAt((payload[key] ?? {}) as Payload, rest.join('.'), items) };
}

/** What one item adds to both copies of a tool answer: its JSON, escaped again in the mirror, and a comma. */
function itemBytes(item: unknown): number {
  return toolAnswerBytes(JSON.stringify(item) ?? 'null');
}

export interface FittedAnswer {
  payload: Payload;
  /** `payload` serialized: the text mirror. */
  json: string;
  /** True when lists were cut (the answer is then checked against the contract again). */
  cut: boolean;
}

/**
 * `payload` as it is when it fits in `limit` bytes; else cut at item boundaries as `paging` says (the last
 * items of its first list go first, then the next list's) and given the fields that tell how to get the rest.
 * Throws when it cannot be made to fit.
 */
export function fitAnswer<Input>(
  payload: Payload,
  allowance: AnswerAllowance,
  paging: AnswerPaging<Input> | undefined,
  input: Input,
): FittedAnswer {
  const limit = allowance.remaining;
  const json = payloadJson(payload);
  if (toolAnswerFits(json, limit)) return { payload, json, cut: false };
  const total = toolAnswerBytes(json);
  if (paging === undefined) throw answerTooLarge(allowance, total);
  const lists = paging.lists.map((path) => ({ path, items: arrayAt(payload, path) }));
  // Items in the order they are left out, each with what it costs.
  const removal = lists.flatMap((list, index) =>
    list.items.map((item) => ({ list: index, bytes: itemBytes(item) })).reverse(),
  );
  const kept = lists.map((list) => list.items.length);
  let removed = 0;
  const leaveOut = (bytes: number): void => {
    let freed = 0;
    do {
      const next = removal[removed];
      if (next === undefined) return;
      freed += next.bytes;
      kept[next.list] = (kept[next.list] ?? 0) - 1;
      removed++;
    } while (freed < bytes);
  };
  leaveOut(total - limit + REST_ROOM_BYTES);
  for (;;) {
    const cut: AnswerCut = {
      kept: Object.fromEntries(lists.map((list, i) => [list.path, kept[i] ?? 0])),
      omitted: Object.fromEntries(lists.map((list, i) => [list.path, list.items.length - (kept[i] ?? 0)])),
      limitBytes: allowance.limit,
    };
    // An empty page whose cursor points back at the same item would send a client round in circles.
    if (kept.every((count) => count === 0)) throw answerTooLarge(allowance, total);
    let candidate = payload;
    lists.forEach((list, i) => {
      candidate = withArrayAt(candidate, list.path, list.items.slice(0, kept[i]));
    });
    candidate = { ...candidate, ...paging.rest(cut, input, payload) };
    const candidateJson = payloadJson(candidate);
    if (toolAnswerFits(candidateJson, limit)) return { payload: candidate, json: candidateJson, cut: true };
    if (removed >= removal.length) throw answerTooLarge(allowance, toolAnswerBytes(candidateJson));
    leaveOut(toolAnswerBytes(candidateJson) - limit);
  }
}
