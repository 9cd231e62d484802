import { SwitchyardError } from '@switchyard/contracts/errors';
import { DEFAULT_MAX_RESPONSE_BYTES } from './body-limit.js';
import { redactError } from './redaction.js';
import { exchange } from './upstream-transport.js';

export interface SecretFetchOptions {
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

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What one call asks for, taken apart once so that every redirect hop can send it again. */
interface Outgoing {
  url: URL;
  method: string;
  headers: Headers;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
  redirect: NonNullable<RequestInit['redirect']>;
}

function normaliseMethod(method: string): string {
  const upper = method.toUpperCase();
  return NORMALISED_METHODS.has(upper) ? upper : method;
}

/**
 * The call's parts. A URL with no body or a string body (graphql-request's JSON) is read from `init` as it is;
 * anything else (bytes, streams, forms) goes through a Request, which applies the Fetch standard's defaults (a
 * form's content-type). A Request's body is buffered for the redirect hops.
 */
async function outgoingRequest(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<Outgoing> {
  if (!(input instanceof Request) && (init?.body == null || typeof init.body === 'string')) {
    return {
      url: new URL(input),
      method: normaliseMethod(init?.method ?? 'GET'),
      headers: new Headers(init?.headers),
      body: init?.body ?? undefined,
      signal: init?.signal ?? undefined,
      redirect: init?.redirect ?? 'follow',
    };
  }
  // ky hands over its own Request with nothing to add (`init` empty): read it as it is, not through a copy.
  const onlyRequest = input instanceof Request && (init === undefined || Object.keys(init).length === 0);
  const request = onlyRequest ? input : new Request(input, init);
  return {
    url: new URL(request.url),
    method: request.method,
    headers: new Headers(request.headers),
    body: request.body === null ? undefined : new Uint8Array(await request.arrayBuffer()),
    signal: request.signal,
    redirect: request.redirect,
  };
}

/**
 * The fetch under every upstream client: adds the secret query parameters and headers at the last moment
 * (so ky's request, options and errors never hold them) and only for the base URL's origin. It follows
 * redirects itself, so a redirect to another origin never carries the key, and it redacts every error.
 * Every response it returns has its body read within `maxResponseBytes` and no `url` (which would carry
 * the injected key). Underneath is undici's `request` (see upstream-transport.ts), not the global fetch.
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

  async function send(outgoing: Outgoing): Promise<Response> {
    let { body, method, url } = outgoing;
    const { headers, signal, redirect } = outgoing;
    for (let hop = 0; ; hop += 1) {
      const target = new URL(url);
      const sent = new Headers(headers);
      if (target.origin === origin) {
        for (const [name, value] of secretQuery) target.searchParams.set(name, value);
        for (const [name, value] of secretHeaders) sent.set(name, value);
      }
      const answer = await exchange({ url: target, method, headers: sent, body, signal }, limit);
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
    const outgoing = await outgoingRequest(input, init);
    try {
      return await send(outgoing);
    } catch (error) {
      // An abort rejects with the signal's own reason; keep it as it is so callers can recognise it.
      if (outgoing.signal?.aborted === true && error === outgoing.signal.reason) throw error;
      throw redactError(error);
    }
  };
}
