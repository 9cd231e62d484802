import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  ElicitRequestFormParams,
  InputRequest,
  InputRequests,
} from '@modelcontextprotocol/server';

/**
 * A handler's answer "ask the client this, then call me again" (multi round-trip requests, SEP-2322): keyed
 * client requests and the handler's own state. The server seals the state (HMAC, request-state.ts) and answers
 * `resultType: "input_required"`; the client's next call carries the responses under the same keys and the
 * sealed state, and the handler sees both (`inputResponses`, `requestState`). Over a 2025-era connection
 * (stdio) the server sends the requests to the client itself and calls the handler again: one code path.
 */
export class AskClient {
  constructor(
    readonly requests: InputRequests,
    /** Any JSON value; it travels signed, not encrypted: the client can read it, never change it. */
    readonly state?: unknown,
  ) {}
}

/** `return askClient({ key: ask.elicit(...) }, state)` from a tool, prompt or resource handler. */
export function askClient(requests: InputRequests, state?: unknown): AskClient {
  if (Object.keys(requests).length === 0) throw new TypeError('askClient needs at least one request');
  return new AskClient(requests, state);
}

/** The embedded client requests, as the SDK types them (its builders live in the SDK's runtime, loaded later). */
export const ask = {
  elicit: (params: Omit<ElicitRequestFormParams, 'mode'>): InputRequest => ({
    method: 'elicitation/create',
    params: { mode: 'form', ...params },
  }),
  sample: (params: CreateMessageRequestParams): InputRequest => ({
    method: 'sampling/createMessage',
    params,
  }),
  listRoots: (): InputRequest => ({ method: 'roots/list', params: {} }),
} as const;

/** The client capabilities a handler may ask for, by the method of the request that needs it. */
export type ClientCapabilityName = 'sampling' | 'elicitation' | 'roots';

const CAPABILITY_OF_METHOD: Readonly<Record<InputRequest['method'], ClientCapabilityName>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** What a handler learns about the client and its answers (every field untrusted, as every argument is). */
export interface ClientInput {
  /** The capabilities the request (2026-07-28) or the connection's `initialize` (2025) declared; {} if none. */
  clientCapabilities: ClientCapabilities;
  /** The client's answers to the last `askClient`, by key (raw: validate before use); {} on a first call. */
  inputResponses: Readonly<Record<string, unknown>>;
  /** The state the handler gave `askClient`, back after its seal was checked; undefined on a first call. */
  requestState: unknown;
}

/** True when the client declared `capability` (a handler asks only for what the client can answer). */
export function declares(capabilities: ClientCapabilities, capability: ClientCapabilityName): boolean {
  return capabilities[capability] !== undefined && capabilities[capability] !== null;
}

/**
 * The capabilities `needed` that `declared` lacks, in the `ClientCapabilities` shape the spec's -32021 error
 * carries (`{ sampling: {} }`), or undefined when none is missing.
 */
export function missingCapabilities(
  needed: Iterable<ClientCapabilityName>,
  declared: ClientCapabilities,
): Record<string, object> | undefined {
  const missing = [...new Set(needed)].filter((capability) => !declares(declared, capability));
  return missing.length === 0 ? undefined : Object.fromEntries(missing.map((name) => [name, {}]));
}

/** The capabilities the requests of `asked` need. */
export function capabilitiesAsked(asked: AskClient): ClientCapabilityName[] {
  return Object.values(asked.requests).map((request) => CAPABILITY_OF_METHOD[request.method]);
}

/** An accepted elicitation's content for `key`, or undefined (missing, declined, cancelled, another kind). */
export function elicited(input: ClientInput, key: string): Record<string, unknown> | undefined {
  const answer = input.inputResponses[key];
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { action, content } = answer as { action?: unknown; content?: unknown };
  if (action !== 'accept' || typeof content !== 'object' || content === null || Array.isArray(content))
    return undefined;
  return content as Record<string, unknown>;
}

/** A sampling answer's text for `key`, or undefined (missing, another kind, not text). */
export function sampledText(input: ClientInput, key: string): string | undefined {
  const answer = input.inputResponses[key];
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { role, content } = answer as { role?: unknown; content?: unknown };
  if (role !== 'assistant') return undefined;
  const blocks: unknown[] = Array.isArray(content) ? content : [content];
  const texts = blocks.flatMap((block) =>
    typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text'
      ? [String((block as { text?: unknown }).text)]
      : [],
  );
  return texts.length === 0 ? undefined : texts.join('\n');
}

/** A roots answer's URIs for `key`, or undefined (missing, another kind). */
export function listedRoots(input: ClientInput, key: string): string[] | undefined {
  const answer = input.inputResponses[key];
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { roots } = answer as { roots?: unknown };
  if (!Array.isArray(roots)) return undefined;
  return roots.flatMap((root) =>
    typeof root === 'object' && root !== null && typeof (root as { uri?: unknown }).uri === 'string'
      ? [(root as { uri: string }).uri]
      : [],
  );
}
