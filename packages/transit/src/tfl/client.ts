import { SwitchyardError } from '@switchyard/contracts/errors';
import { assertOk, readJson, type UpstreamPolicy } from '@switchyard/resilience';
import type { z } from 'zod';
import type { TflConfig } from '../config.js';
import { createUpstreamGet, malformed, type UpstreamGet } from '../upstream.js';
import { tflPathSegment } from './path-segment.js';
import {
  apiErrorMessage,
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

export interface TflGetOptions {
  config: TflConfig;
  /** The TfL policy, shared by every session. */
  policy: UpstreamPolicy;
}

/** A TfL body read with its wire schema; malformed (upstream-error, not retried) when it does not fit. */
export function parseTfl<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw malformed(TFL, what);
  return parsed.data;
}

/** `Journey/JourneyResults/{from}/to/{to}`, each side one path segment. */
export function journeyResultsPath(from: string, to: string): string {
  return `Journey/JourneyResults/${tflPathSegment(from, 'from')}/to/${tflPathSegment(to, 'to')}`;
}

/** A 2xx or 300 body as the outcome it describes (a 300 is always a disambiguation). */
function outcomeOf(status: number, body: unknown): JourneyResultsOutcome {
  if (status === 300 || isDisambiguationBody(body)) {
    return { kind: 'disambiguation', result: parseTfl(DisambiguationResultSchema, body, 'disambiguation') };
  }
  const apiError = apiErrorMessage(body);
  if (apiError !== undefined) {
    throw new SwitchyardError('upstream-error', `TfL answered with an error: ${apiError}`, {
      retryable: false,
      details: { upstream: TFL, reason: 'ApiError with a success status' },
    });
  }
  return { kind: 'journeys', result: parseTfl(ItineraryResultSchema, body, 'journey result') };
}

/** GET from the TfL API under its policy, the key added as `app_key` (and redacted everywhere else). */
export function createTflGet(options: TflGetOptions): UpstreamGet {
  const { config } = options;
  return createUpstreamGet({
    upstream: TFL,
    baseUrl: config.baseUrl,
    policy: options.policy,
    secretQuery: { app_key: config.apiKey },
    maxResponseBytes: config.maxResponseBytes,
  });
}

/** The Journey Planner over TfL's one GET (the same one the arrivals use). */
export function createTflClient(get: UpstreamGet): TflClient {
  return {
    journeyResults(query, signal) {
      return get<JourneyResultsOutcome>(
        journeyResultsPath(query.from, query.to),
        query.stepFree ? { accessibilityPreference: 'StepFreeToPlatform' } : {},
        async (response) => {
          if (response.status === 404) {
            return { kind: 'no-journey' };
          }
          if (response.status !== 300) await assertOk(response, { upstream: TFL });
          return outcomeOf(response.status, await readJson(response, { upstream: TFL }));
        },
        signal,
      );
    },
  };
}
