import type { OAuthSettings } from './oauth-settings.js';
import { TokenRefusal } from './token-refusal.js';

type Fetch = typeof fetch;
type FetchBounds = Pick<OAuthSettings, 'fetchTimeoutMs' | 'maxResponseBytes'>;

/** A body past `maxBytes` stops the read (the rest is never buffered). */
async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array> {
  const announced = Number(response.headers.get('content-length') ?? Number.NaN);
  if (announced > maxBytes) throw new Error(`body of ${announced} bytes is over the limit of ${maxBytes}`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error(`body is over the limit of ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The fetch for an authorization server's metadata, keys and introspection endpoint: each request bounded by
 * `fetchTimeoutMs` (with the caller's own signal, if any), each body by `maxResponseBytes`, and no redirects
 * followed (an endpoint is where the operator or the issuer's metadata says it is; credentials sent to it
 * never travel further).
 */
export function authorizationServerFetch(bounds: FetchBounds): Fetch {
  const boundedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const timeout = AbortSignal.timeout(bounds.fetchTimeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await fetch(input, { ...init, signal, redirect: 'manual' });
    const body = await readBounded(response, bounds.maxResponseBytes);
    return new Response(response.status === 204 ? null : body, {
      status: response.status,
      headers: response.headers,
    });
  };
  return boundedFetch as Fetch;
}

/** The JSON object an endpoint answers with 200; anything else is `issuer-unavailable`. */
export async function fetchJsonObject(
  fetchFrom: Fetch,
  url: string | URL,
  init?: RequestInit,
): Promise<Record<string, unknown>> {
  try {
    const headers = new Headers(init?.headers);
    if (!headers.has('accept')) headers.set('accept', 'application/json');
    const response = await fetchFrom(url, { ...init, headers });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body: unknown = await response.json();
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw new Error('not a JSON object');
    return body as Record<string, unknown>;
  } catch (error) {
    throw new TokenRefusal('issuer-unavailable', { cause: error });
  }
}
