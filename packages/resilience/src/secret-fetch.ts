import { SwitchyardError } from '@switchyard/contracts/errors';
import { DEFAULT_MAX_RESPONSE_BYTES, limitResponseBody } from './body-limit.js';
import { redactError } from './redaction.js';

export interface SecretFetchOptions {
  upstream: string;
  baseUrl: string;
  secretQuery?: Record<string, string>;
  secretHeaders?: Record<string, string>;
  /** Largest body a response may have (default DEFAULT_MAX_RESPONSE_BYTES); see `limitResponseBody`. */
  maxResponseBytes?: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
/** What the Fetch standard drops when a redirect leaves the origin. */
const CROSS_ORIGIN_DROPPED_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
type Dispatcher = RequestInit['dispatcher'];

/**
 * The fetch under every upstream client: adds the secret query parameters and headers at the last moment
 * (so ky's request, options and errors never hold them) and only for the base URL's origin. It follows
 * redirects itself, so a redirect to another origin never carries the key, and it redacts every error.
 * Every response it returns has its body bounded to `maxResponseBytes` and no `url` (which would carry
 * the injected key).
 */
export function createSecretFetch(options: SecretFetchOptions): FetchLike {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new RangeError(`maxResponseBytes must be a whole number >= 1 (got ${maxBytes})`);
  }
  const limit = { upstream: options.upstream, maxBytes };
  const origin = new URL(options.baseUrl).origin;
  const secretQuery = Object.entries(options.secretQuery ?? {});
  const secretHeaders = Object.entries(options.secretHeaders ?? {});
  const hasSecrets = secretQuery.length > 0 || secretHeaders.length > 0;

  async function send(request: Request, dispatcher: Dispatcher): Promise<Response> {
    const follow = request.redirect === 'follow';
    let body = request.body === null ? undefined : await request.arrayBuffer();
    let method = request.method;
    let url = new URL(request.url);
    const headers = new Headers(request.headers);
    for (let hop = 0; ; hop += 1) {
      const target = new URL(url);
      const sent = new Headers(headers);
      const sameOrigin = target.origin === origin;
      if (sameOrigin) {
        for (const [name, value] of secretQuery) target.searchParams.set(name, value);
        for (const [name, value] of secretHeaders) sent.set(name, value);
      }
      const init: RequestInit = {
        method,
        headers: sent,
        signal: request.signal,
        redirect: follow ? 'manual' : request.redirect,
        ...(body === undefined ? {} : { body }),
        ...(dispatcher === undefined ? {} : { dispatcher }),
      };
      const response = await fetch(target, init);
      const location = response.headers.get('location');
      if (!follow || !REDIRECT_STATUSES.has(response.status) || location === null) return response;
      await response.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) {
        throw new SwitchyardError(
          'upstream-error',
          `${options.upstream} redirected more than ${MAX_REDIRECTS} times`,
          {
            retryable: false,
            details: { upstream: options.upstream },
          },
        );
      }
      const next = new URL(location, url);
      const becomesGet =
        (response.status === 303 && method !== 'HEAD') ||
        ((response.status === 301 || response.status === 302) && method === 'POST');
      if (becomesGet) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      if (next.origin !== url.origin) {
        for (const name of CROSS_ORIGIN_DROPPED_HEADERS) headers.delete(name);
        for (const [name] of secretQuery) next.searchParams.delete(name);
      }
      url = next;
    }
  }

  return async (input, init) => {
    const request = new Request(input, init);
    const dispatcher = init?.dispatcher;
    try {
      const response = hasSecrets
        ? await send(request, dispatcher)
        : await fetch(request, dispatcher === undefined ? undefined : { dispatcher });
      return limitResponseBody(response, limit);
    } catch (error) {
      // An abort rejects with the signal's own reason; keep it as it is so callers can recognise it.
      if (request.signal.aborted && error === request.signal.reason) throw error;
      throw redactError(error);
    }
  };
}
