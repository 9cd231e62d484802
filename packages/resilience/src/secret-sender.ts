import { SwitchyardError } from '@switchyard/contracts/errors';
import { DEFAULT_MAX_RESPONSE_BYTES } from './body-limit.js';
import { redactError } from './redaction.js';
import type { ReadAnswer } from './upstream-answer.js';
import { exchange, type Exchange } from './upstream-transport.js';

export interface SecretSenderOptions {
  upstream: string;
  baseUrl: string;
  secretQuery?: Record<string, string>;
  secretHeaders?: Record<string, string>;
  /** Largest body a response may have (default DEFAULT_MAX_RESPONSE_BYTES); see `readWithinLimit`. */
  maxResponseBytes?: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
/** What the Fetch standard drops when a redirect leaves the origin. */
const CROSS_ORIGIN_DROPPED_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];
/** The Fetch standard's method normalisation (these six are matched without regard to case). */
const NORMALISED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

export function normaliseMethod(method: string): string {
  const upper = method.toUpperCase();
  return NORMALISED_METHODS.has(upper) ? upper : method;
}

/** What one call asks for, taken apart once so that every redirect hop can send it again. */
export interface Outgoing {
  url: URL;
  method: string;
  /** Field names in lower case. */
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
  /** As fetch's `redirect`: follow them (the default), refuse them, or hand the redirect back. */
  redirect: 'follow' | 'error' | 'manual';
}

const NO_FIELDS: readonly [string, string][] = [];

/**
 * The sender under every upstream client: adds the secret query parameters and headers at the last moment
 * (so a client's request, options and errors never hold them) and only for the base URL's origin. It follows
 * redirects itself, so a redirect to another origin never carries the key, and it redacts every error.
 * Every answer it returns has its body read within `maxResponseBytes` and no URL (which would carry the
 * injected key). Underneath is node:http (see upstream-transport.ts), not the global fetch.
 */
export function createSecretSender(
  options: SecretSenderOptions,
): (outgoing: Outgoing) => Promise<ReadAnswer> {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new RangeError(`maxResponseBytes must be a whole number >= 1 (got ${maxBytes})`);
  }
  const limit = { upstream: options.upstream, maxBytes };
  const origin = new URL(options.baseUrl).origin;
  const secretQuery = Object.entries(options.secretQuery ?? {});
  const secretHeaders = Object.entries(options.secretHeaders ?? {}).map(([name, value]): [string, string] => [
    name.toLowerCase(),
    value,
  ]);

  // The secret query as it follows a URL without one, serialised once.
  const secretSearch = new URLSearchParams(secretQuery).toString();

  /** The path and query sent to the base URL's origin: the URL's own query with the secrets set in it. */
  function pathWithSecrets(url: URL): string {
    const { pathname, search } = url;
    if (secretQuery.length === 0) return pathname + search;
    if (search === '') return `${pathname}?${secretSearch}`;
    // Reserialised with the secrets set, as `url.searchParams.set` on a copy of the URL would write it.
    const query = new URLSearchParams(search);
    for (const [name, value] of secretQuery) query.set(name, value);
    return `${pathname}?${query.toString()}`;
  }

  /**
   * The hop as sent: the secrets go on its request line and header list only for the base URL's origin, so
   * neither the caller's URL and headers nor a later hop's hold them.
   */
  function hopOf(hop: Omit<Exchange, 'path' | 'overrides'>): Exchange {
    const { url } = hop;
    return url.origin === origin
      ? { ...hop, path: pathWithSecrets(url), overrides: secretHeaders }
      : { ...hop, path: url.pathname + url.search, overrides: NO_FIELDS };
  }

  async function send(outgoing: Outgoing): Promise<ReadAnswer> {
    let { body, method, url, headers } = outgoing;
    const { signal, redirect } = outgoing;
    for (let hop = 0; ; hop += 1) {
      const answer = await exchange(hopOf({ url, method, headers, body, signal }), limit);
      const location = answer.headers.get('location');
      if (redirect === 'manual' || !REDIRECT_STATUSES.has(answer.status) || location === null) {
        return answer.read();
      }
      answer.discard();
      if (redirect === 'error')
        throw new TypeError(`${options.upstream} redirected a request that may not be`);
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
        (answer.status === 303 && method !== 'HEAD') ||
        ((answer.status === 301 || answer.status === 302) && method === 'POST');
      // The headers are the caller's until a redirect drops some: copied then, not on every call.
      if (becomesGet || next.origin !== url.origin) headers = { ...headers };
      if (becomesGet) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
        delete headers['content-length'];
      }
      if (next.origin !== url.origin) {
        for (const name of CROSS_ORIGIN_DROPPED_HEADERS) delete headers[name];
        for (const [name] of secretQuery) next.searchParams.delete(name);
      }
      url = next;
    }
  }

  return async (outgoing) => {
    try {
      return await send(outgoing);
    } catch (error) {
      // An abort rejects with the signal's own reason; keep it as it is so callers can recognise it.
      if (outgoing.signal?.aborted === true && error === outgoing.signal.reason) throw error;
      throw redactError(error);
    }
  };
}
