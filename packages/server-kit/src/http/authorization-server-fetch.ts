import { createUpstreamFetch, readJson } from '@switchyard/resilience';
import type { OAuthSettings } from './oauth-settings.js';
import { TokenRefusal } from './token-refusal.js';

type Fetch = typeof fetch;

const UPSTREAM = 'authorization server';

/**
 * The fetch for one authorization server endpoint: bodies bounded by `maxResponseBytes`, each request
 * bounded by `fetchTimeoutMs`, secret headers (the introspection credentials) sent to that origin only and
 * kept out of every error.
 */
export function authorizationServerFetch(
  settings: Pick<OAuthSettings, 'fetchTimeoutMs' | 'maxResponseBytes'>,
  baseUrl: string,
  secretHeaders?: Record<string, string>,
): Fetch {
  const bounded = createUpstreamFetch({
    upstream: UPSTREAM,
    baseUrl,
    maxResponseBytes: settings.maxResponseBytes,
    headers: { accept: 'application/json' },
    ...(secretHeaders === undefined ? {} : { secretHeaders }),
  });
  const timed = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const timeout = AbortSignal.timeout(settings.fetchTimeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return bounded(input, { ...init, signal });
  };
  return timed as Fetch;
}

/** The JSON object an endpoint answers with 200; anything else is `issuer-unavailable`. */
export async function fetchJsonObject(
  fetchFrom: Fetch,
  url: string | URL,
  init?: RequestInit,
): Promise<Record<string, unknown>> {
  try {
    const response = await fetchFrom(url, init);
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`HTTP ${response.status}`);
    }
    const body = await readJson(response, { upstream: UPSTREAM });
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw new Error('not a JSON object');
    return body as Record<string, unknown>;
  } catch (error) {
    throw new TokenRefusal('issuer-unavailable', { cause: error });
  }
}
