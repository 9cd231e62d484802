import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  assertOk,
  createUpstreamKy,
  createUpstreamPolicy,
  readJson,
  type PolicyLogger,
  type UpstreamPolicy,
} from '@switchyard/resilience';
import type { z } from 'zod';
import type { TflConfig } from '../config.js';
import {
  DisambiguationResultSchema,
  isDisambiguationBody,
  ItineraryResultSchema,
  type DisambiguationResult,
  type ItineraryResult,
} from './wire.js';

export const TFL = 'TfL';

/** What JourneyResults answered, domain outcomes included (300 disambiguation, 404 no journey). */
export type JourneyResultsOutcome =
  | { kind: 'journeys'; result: ItineraryResult }
  | { kind: 'disambiguation'; result: DisambiguationResult }
  | { kind: 'no-journey' };

export interface JourneyQuery {
  from: string;
  to: string;
  /** Ask TfL for routes with step-free access to the platform. */
  stepFree: boolean;
}

export interface TflClient {
  journeyResults(query: JourneyQuery, signal?: AbortSignal): Promise<JourneyResultsOutcome>;
}

export interface TflClientOptions {
  config: TflConfig;
  retryBudgetMs: number;
  logger?: PolicyLogger;
  /** Shared policy (one per upstream); created from the config when absent. */
  policy?: UpstreamPolicy;
}

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new SwitchyardError('upstream-error', `${TFL} sent a malformed ${what}`, {
      retryable: false,
      details: { upstream: TFL, reason: `unexpected ${what} shape` },
    });
  }
  return parsed.data;
}

/** `Journey/JourneyResults/{from}/to/{to}` with each path segment URL-encoded. */
export function journeyResultsPath(from: string, to: string): string {
  return `Journey/JourneyResults/${encodeURIComponent(from)}/to/${encodeURIComponent(to)}`;
}

export function createTflClient(options: TflClientOptions): TflClient {
  const { config } = options;
  const http = createUpstreamKy({
    upstream: TFL,
    baseUrl: config.baseUrl,
    secretQuery: { app_key: config.apiKey },
    headers: { accept: 'application/json' },
  });
  const policy =
    options.policy ??
    createUpstreamPolicy({
      upstream: TFL,
      timeoutMs: config.timeoutMs,
      retryBudgetMs: options.retryBudgetMs,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });

  return {
    journeyResults(query, signal) {
      return policy.execute(
        async (attemptSignal) => {
          const response = await http.get(journeyResultsPath(query.from, query.to), {
            signal: attemptSignal,
            searchParams: query.stepFree ? { accessibilityPreference: 'StepFreeToPlatform' } : {},
          });
          if (response.status === 404) {
            await response.body?.cancel().catch(() => undefined);
            return { kind: 'no-journey' };
          }
          if (response.status === 300) {
            const body = await readJson(response, { upstream: TFL });
            return {
              kind: 'disambiguation',
              result: parse(DisambiguationResultSchema, body, 'disambiguation'),
            };
          }
          await assertOk(response, { upstream: TFL });
          const body = await readJson(response, { upstream: TFL });
          if (isDisambiguationBody(body)) {
            return {
              kind: 'disambiguation',
              result: parse(DisambiguationResultSchema, body, 'disambiguation'),
            };
          }
          return { kind: 'journeys', result: parse(ItineraryResultSchema, body, 'journey result') };
        },
        { idempotent: true, ...(signal === undefined ? {} : { signal }) },
      );
    },
  };
}
