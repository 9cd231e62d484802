// What the upstream clients share: an HTTP GET client under the upstream's resilience policy (TfL and
// Digitransit geocoding), and the error for a body whose shape cannot be read.
import { SwitchyardError } from '@switchyard/contracts/errors';
import { createUpstreamClient, type UpstreamAnswer, type UpstreamPolicy } from '@switchyard/resilience';

export type SearchParams = Record<string, string | number | boolean>;

export interface UpstreamGetOptions {
  upstream: string;
  baseUrl: string;
  /** The upstream's policy (timeouts, retries, breaker), shared by every session. */
  policy: UpstreamPolicy;
  /** Query parameters that carry a key: added to each request, redacted everywhere else. */
  secretQuery?: Record<string, string>;
  /** Headers that carry a key: added to each request, redacted everywhere else. */
  secretHeaders?: Record<string, string>;
  /** Largest response body read (the provider's *_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
}

/**
 * GET `path` under the policy; `read` turns each attempt's answer into the result (and throws classified
 * errors, which the policy retries when they are retryable).
 */
export type UpstreamGet = <T>(
  path: string,
  searchParams: SearchParams,
  read: (answer: UpstreamAnswer) => Promise<T>,
  signal?: AbortSignal,
) => Promise<T>;

export function createUpstreamGet(options: UpstreamGetOptions): UpstreamGet {
  const send = createUpstreamClient({
    upstream: options.upstream,
    baseUrl: options.baseUrl,
    secretQuery: options.secretQuery,
    secretHeaders: options.secretHeaders,
    headers: { accept: 'application/json' },
    maxResponseBytes: options.maxResponseBytes,
  });
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  // Parsed once, query included: setting `search` on a parsed URL parses and writes its whole href again. A
  // path holds no `?` or `#` of its own (a TfL path is built of encoded segments, path-segment.ts).
  const urlOf = (path: string, searchParams: SearchParams): URL => {
    const query = new URLSearchParams();
    for (const name of Object.keys(searchParams)) query.append(name, String(searchParams[name]));
    return new URL(query.size > 0 ? `${base}${path}?${query.toString()}` : base + path);
  };
  return (path, searchParams, read, signal) =>
    options.policy.execute(
      async (attemptSignal) => read(await send(urlOf(path, searchParams), { signal: attemptSignal })),
      { idempotent: true, signal },
    );
}

/** An upstream answered with a body this server cannot read: upstream-error, not retried. */
export function malformed(upstream: string, what: string): SwitchyardError {
  return new SwitchyardError('upstream-error', `${upstream} sent a malformed ${what}`, {
    retryable: false,
    details: { upstream, reason: `unexpected ${what} shape` },
  });
}
