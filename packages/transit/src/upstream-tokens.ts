// Where the local rate limiters take their tokens: just before a request leaves for the upstream, never
// earlier. Whatever a tool refuses before that (an argument that cannot be a TfL path segment, a saved place
// of the wrong kind, a trip outside the region) costs the caller no token.
import type { CallLimiter } from '@switchyard/resilience';
import type { RoutingClient } from './hsl/client.js';
import type { Geocoder } from './hsl/geocoding.js';
import type { UpstreamGet } from './upstream.js';

/**
 * `get` taking one token per request once its path and query are built (retries within the request cost
 * none). A TfL tool call sends at most one request, so this is one token per call that reaches TfL.
 */
export function tokenPerRequest(get: UpstreamGet, limiter: CallLimiter): UpstreamGet {
  return async (path, searchParams, read, signal) => {
    await limiter.consume();
    return get(path, searchParams, read, signal);
  };
}

/** The Digitransit clients one tool call uses. */
export interface DigitransitClients {
  routing: RoutingClient;
  geocoder: Geocoder;
}

/**
 * The clients for one tool call, sharing one token taken before the call's first request: a plan_trip that
 * geocodes both ends and searches twice costs one token, like a get_departures.
 */
export function tokenPerCall(clients: DigitransitClients, limiter: CallLimiter): DigitransitClients {
  let token: Promise<void> | undefined;
  const spend = (): Promise<void> => (token ??= limiter.consume());
  return {
    routing: {
      async query(request, schema) {
        await spend();
        return clients.routing.query(request, schema);
      },
    },
    geocoder: {
      async search(textQuery, options) {
        await spend();
        return clients.geocoder.search(textQuery, options);
      },
    },
  };
}
