// Scenario selection shared by the mocks: a standing scenario, plus a queue of
// "the next N requests answer X" entries that are consumed first.
import type { RecordedRequest } from './http.js';
import { reply, type HeaderMap, type MockReply } from './reply.js';

export interface ScenarioContext {
  /** 0-based index of this request among those answered by the same `scenario()` selection. */
  readonly callIndex: number;
  /** 0-based index of this request among all requests the endpoint answered since start/reset. */
  readonly requestIndex: number;
  /** The mock's clock. */
  readonly now: Date;
}

/**
 * A custom scenario: return a reply, the name of a built-in scenario to answer as,
 * or `undefined` for the default behaviour.
 */
export type ScenarioHandler<Name extends string> = (
  request: RecordedRequest,
  context: ScenarioContext,
) => MockReply | Name | undefined | Promise<MockReply | Name | undefined>;

export interface ScenarioOptions {
  /** Answer only the next `times` requests this way, then fall back to the standing scenario. */
  readonly times?: number;
  /** Wait this long before answering (cancelled by `close()`). */
  readonly delayMs?: number;
  /** `Retry-After` value (seconds) for the rate-limited scenarios; default 1. */
  readonly retryAfterSeconds?: number;
  /** Body size of the `oversized-*` scenarios in bytes; default 200 MiB (`Infinity`: endless, chunked). */
  readonly bodyBytes?: number;
}

export interface ScenarioEntry<Name extends string> {
  readonly spec: Name | ScenarioHandler<Name>;
  readonly options: ScenarioOptions;
  remaining: number;
  calls: number;
  /** How many plans the routing mock made under this selection (a scenario may change after the first). */
  planCalls: number;
}

/** The scenario a request is answered with: a built-in name, or the reply a custom handler made. */
export interface Chosen<Name extends string> {
  readonly scenario: Name | MockReply;
  readonly entry: ScenarioEntry<Name>;
}

export class ScenarioController<Name extends string> {
  /** The queued "next N requests" entries, then the standing scenario (never used up). */
  private entries: ScenarioEntry<Name>[] = [];
  private requestCount = 0;

  constructor(
    readonly defaultName: Name,
    private readonly names: readonly Name[],
  ) {
    this.set(defaultName);
  }

  /** Throws on names that are not scenarios of this mock (handlers may come from untyped code). */
  check(name: string): Name {
    const found = this.names.find((n) => n === name);
    if (found === undefined)
      throw new RangeError(`unknown scenario "${name}"; expected one of: ${this.names.join(', ')}`);
    return found;
  }

  /** Without `times`: the standing scenario (clears queued ones). With `times`: queued after earlier ones. */
  set(spec: Name | ScenarioHandler<Name>, options: ScenarioOptions = {}): void {
    if (typeof spec === 'string') this.check(spec);
    const entry = { spec, options, remaining: options.times ?? Infinity, calls: 0, planCalls: 0 };
    if (options.times === undefined) {
      this.entries = [entry];
      return;
    }
    if (!Number.isInteger(options.times) || options.times < 1)
      throw new RangeError('times must be an integer >= 1');
    this.entries.splice(-1, 0, entry);
  }

  /**
   * The scenario of the next request, counted, once its delay (`wait`) has passed; a custom handler's answer
   * is a reply or a built-in name (undefined: the default).
   */
  async choose(
    request: RecordedRequest,
    now: Date,
    wait: (ms: number) => Promise<void>,
  ): Promise<Chosen<Name>> {
    const entry = this.entries[0]!;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.entries.shift();
    const context = { callIndex: entry.calls, requestIndex: this.requestCount, now };
    entry.calls += 1;
    this.requestCount += 1;
    if (entry.options.delayMs) await wait(entry.options.delayMs);
    if (typeof entry.spec !== 'function') return { scenario: entry.spec, entry };
    const result = (await entry.spec(request, context)) ?? this.defaultName;
    return { scenario: typeof result === 'string' ? this.check(result) : result, entry };
  }

  reset(): void {
    this.set(this.defaultName);
    this.requestCount = 0;
  }
}

/** The faults both upstreams answer, each in its own format. */
export const STATUS_FAULTS = [
  /** 403: TfL's ApiError even though a key was sent; Digitransit's gateway out of call volume quota. */
  'forbidden',
  /** 429 with `Retry-After` (seconds). */
  'rate-limited',
  /** 429 without `Retry-After`. */
  'rate-limited-no-retry-after',
  /** 500: TfL's ApiError echoing the full path and query, app_key included; text/plain from OTP. */
  'server-error',
  /** 502 with an HTML body from the gateway. */
  'bad-gateway',
  /** 503: TfL's ApiError; Digitransit's gateway JSON. */
  'service-unavailable',
] as const;

/** The faults that happen to a normal answer on its way: never sent, reset mid-body, truncated, grown huge. */
export const BODY_FAULTS = [
  /** Never answers until the server is closed. */
  'hang',
  /** Headers and part of the body, then a TCP reset. */
  'reset',
  /** 200 `application/json` with a truncated body. */
  'malformed-json',
  /** 200: the normal answer with its first list repeated until the body is `bodyBytes` (200 MiB), chunked. */
  'oversized-body',
  /** As `oversized-body`, with the true Content-Length announced. */
  'oversized-content-length',
] as const;

/** The faults both upstreams answer alike: the rate limit of the gateway in front, and the body faults. */
const SHARED_FAULTS = ['rate-limited', 'rate-limited-no-retry-after', ...BODY_FAULTS] as const;
export type SharedFault = (typeof SHARED_FAULTS)[number];

export function isSharedFault(name: string): name is SharedFault {
  return (SHARED_FAULTS as readonly string[]).includes(name);
}

/**
 * A shared fault's reply. The gateway's 429 is `{statusCode, message}`, with `Retry-After` when given. The
 * body faults are made from the route's `normal` body (`hang` sends none of it); `headers` go with the
 * oversized answer, as the route's own would.
 */
export async function sharedFaultReply(
  name: SharedFault,
  options: ScenarioOptions,
  normal: () => unknown,
  headers?: HeaderMap,
): Promise<MockReply> {
  const message = 'Rate limit is exceeded.';
  if (name === 'rate-limited-no-retry-after') return reply.json(429, { statusCode: 429, message });
  if (name === 'rate-limited') {
    const seconds = options.retryAfterSeconds ?? 1;
    const body = { statusCode: 429, message: `${message} Try again in ${seconds} seconds.` };
    return reply.json(429, body, { 'retry-after': String(seconds) });
  }
  if (name === 'hang') return reply.hang();
  const body = await normal();
  if (name === 'reset') return reply.reset(JSON.stringify(body).slice(0, 400));
  if (name === 'malformed-json') return reply.malformedJson(body);
  return reply.oversized(body, {
    announceLength: name === 'oversized-content-length',
    bytes: options.bodyBytes,
    headers,
  });
}
