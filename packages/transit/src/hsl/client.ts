import type { Language } from '@switchyard/contracts/transit';
import {
  assertOk,
  createUpstreamClient,
  graphqlErrorsToError,
  readJson,
  type UpstreamPolicy,
} from '@switchyard/resilience';
import type { z } from 'zod';
import type { HslConfig } from '../config.js';
import { malformed } from '../upstream.js';
import { GRAPHQL_DOCUMENTS } from './queries.js';

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

/** Media types of a GraphQL-over-HTTP answer, the current one first (GraphQL over HTTP). */
const GRAPHQL_ACCEPT = 'application/graphql-response+json, application/json';

/** A GraphQL answer's `errors`, when it has any (an answer with errors is refused even with partial data). */
function graphqlErrors(body: unknown): { message?: unknown; extensions?: unknown }[] | undefined {
  const errors =
    typeof body === 'object' && body !== null ? (body as { errors?: unknown }).errors : undefined;
  return Array.isArray(errors) && errors.length > 0 ? errors : undefined;
}

/**
 * This package's documents (queries.ts) as JSON, made once: each is 2 KB of text that JSON.stringify would
 * otherwise escape again on every call. Any other document is encoded per call, so the table stays as it is.
 */
const ENCODED_DOCUMENTS = new Map<string, string>(
  Object.values(GRAPHQL_DOCUMENTS).map((text) => [text, JSON.stringify(text)]),
);

function requestBody(document: string, variables: Record<string, unknown>): string {
  const query = ENCODED_DOCUMENTS.get(document) ?? JSON.stringify(document);
  return `{"query":${query},"variables":${JSON.stringify(variables)}}`;
}

/**
 * Queries are POSTed as GraphQL over HTTP (a JSON body of `query` and `variables`) through the upstream client;
 * no GraphQL client library: the documents are fixed strings and the answer is plain JSON, and graphql-request
 * with its peer graphql kept 9-12 MiB more of the server's memory (measured; see the README).
 */
export function createRoutingClient(options: RoutingClientOptions): RoutingClient {
  const { config, policy } = options;
  const send = createUpstreamClient({
    upstream: DIGITRANSIT,
    baseUrl: config.routingUrl,
    secretHeaders: { [KEY_HEADER]: config.subscriptionKey },
    maxResponseBytes: config.maxResponseBytes,
  });

  return {
    query(request, schema) {
      return policy.execute(
        async (signal) => {
          const response = await send(config.routingUrl, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: GRAPHQL_ACCEPT,
              'accept-language': request.language,
            },
            body: requestBody(request.document, request.variables),
            signal,
          });
          await assertOk(response, { upstream: DIGITRANSIT });
          const body = await readJson(response, { upstream: DIGITRANSIT });
          const errors = graphqlErrors(body);
          if (errors !== undefined) throw graphqlErrorsToError(errors, { upstream: DIGITRANSIT });
          const parsed = schema.safeParse((body as { data?: unknown } | null)?.data);
          if (!parsed.success) throw malformed(DIGITRANSIT, 'GraphQL result');
          return parsed.data;
        },
        { idempotent: true, signal: request.signal },
      );
    },
  };
}
