// `@switchyard/resilience/ky`: ky over the upstream fetch, for clients that want its REST conveniences. A subpath
// of its own so that a bundle of a server that never uses ky (esbuild keeps every dynamic import's target as a
// chunk) does not carry it.
import type { KyInstance } from 'ky';
import { createUpstreamFetch, type UpstreamHttpOptions } from './http.js';
import { redactText } from './redaction.js';

/**
 * The ky instance for one REST upstream: `prefix` = baseUrl (request paths are joined to it), its
 * requests sent by `createUpstreamFetch` (secrets, body limit, `x-correlation-id` from the current call), no
 * retries (the policy owns them), no timeout (the policy owns it), HTTP errors returned rather than thrown (use
 * `assertOk`), errors redacted. ky loads here, not with this module: loading it builds a web Request, which loads
 * Node's fetch implementation (30-40 ms that a server's start should not pay).
 */
export async function createUpstreamKy(options: UpstreamHttpOptions): Promise<KyInstance> {
  const fetch = createUpstreamFetch(options);
  const { default: ky } = await import('ky');
  return ky.create({
    prefix: options.baseUrl,
    retry: 0,
    timeout: false,
    throwHttpErrors: false,
    fetch,
    hooks: {
      beforeError: [
        ({ error }) => {
          error.message = redactText(error.message);
          if (error.stack !== undefined) error.stack = redactText(error.stack);
          return error;
        },
      ],
    },
  });
}
