import type { Language } from '@switchyard/contracts/transit';
import {
  assertOk,
  createUpstreamFetch,
  graphqlErrorsToError,
  type UpstreamPolicy,
} from '@switchyard/resilience';
import { lazy } from '@switchyard/server-kit/runtime';
import type { z } from 'zod';
import type { HslConfig } from '../config.js';
import { malformed } from '../upstream.js';

export const DIGITRANSIT = 'Digitransit';
export const KEY_HEADER = 'digitransit-subscription-key';

export interface RoutingRequest {
  document: string;
  variables: Record<string, unknown>;
  language: Language;
  signal?: AbortSignal;
}

/** Digitransit's OTP2 GTFS GraphQL endpoint. */
export interface RoutingClient {
  /** Runs one query and returns `data` parsed with `schema` (a different shape is an upstream-error). */
  query<T>(request: RoutingRequest, schema: z.ZodType<T>): Promise<T>;
}

export interface RoutingClientOptions {
  config: HslConfig;
  /** The Digitransit routing policy, shared by every session. */
  policy: UpstreamPolicy;
}

/** A fetch that turns non-2xx answers into classified errors (429 with Retry-After, 5xx, 401/403...). */
export function checkedFetch(upstream: string, inner: typeof fetch): typeof fetch {
  const checked = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await inner(input, init);
    return assertOk(response, { upstream });
  };
  return checked as typeof fetch;
}

export function createRoutingClient(options: RoutingClientOptions): RoutingClient {
  const { config } = options;
  const fetch = checkedFetch(
    DIGITRANSIT,
    createUpstreamFetch({
      upstream: DIGITRANSIT,
      baseUrl: config.routingUrl,
      secretHeaders: { [KEY_HEADER]: config.subscriptionKey },
      maxResponseBytes: config.maxResponseBytes,
    }),
  );
  // graphql-request brings graphql (~100 ms to load): loaded with the first query, not at server start.
  const graphqlRequest = lazy(() => import('graphql-request'));
  const client = lazy(async () => {
    const { GraphQLClient } = await graphqlRequest();
    // excludeOperationName: graphql-request would parse every query on every call only to name its operation,
    // which OTP does not need (each document holds one operation).
    return new GraphQLClient(config.routingUrl, { fetch, method: 'POST', excludeOperationName: true });
  });
  const { policy } = options;

  return {
    query(request, schema) {
      return policy.execute(
        async (signal) => {
          let data: unknown;
          const [{ ClientError }, graphql] = await Promise.all([graphqlRequest(), client()]);
          try {
            data = await graphql.request<unknown>({
              document: request.document,
              variables: request.variables,
              requestHeaders: { 'accept-language': request.language },
              signal,
            });
          } catch (error) {
            if (error instanceof ClientError) {
              throw graphqlErrorsToError(error.response.errors ?? [], { upstream: DIGITRANSIT });
            }
            throw error;
          }
          const parsed = schema.safeParse(data);
          if (!parsed.success) throw malformed(DIGITRANSIT, 'GraphQL result');
          return parsed.data;
        },
        { idempotent: true, signal: request.signal },
      );
    },
  };
}
