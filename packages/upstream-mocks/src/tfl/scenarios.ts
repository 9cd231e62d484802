// What each named TfL scenario answers, on every route: `default` is the route's normal answer, the
// disambiguation scenarios belong to JourneyResults (other routes answer normally), and the faults apply to all.
import { reply } from '../reply.js';
import type { MockReply } from '../reply.js';
import { BODY_FAULTS, bodyFaultReply, isBodyFault } from '../scenario.js';
import { buildDisambiguationResult, type MatchStatus } from './disambiguation.js';
import { apiError, BAD_GATEWAY_HTML, notFoundError, rateLimitBody } from './errors.js';
import type { JourneyRequest } from './journeys.js';

export const TFL_SCENARIOS = [
  /** 200 ItineraryResult with seven journeys (the default). */
  'default',
  /** 300: `from` is a list of options, `to` identified. */
  'disambiguation-from',
  /** 300: `from` identified, `to` is a list. */
  'disambiguation-to',
  /** 300: both sides are lists. */
  'disambiguation-both',
  /** 300: `from` matched nothing (`matchStatus: "empty"`), `to` identified. */
  'disambiguation-no-match',
  /** 200 carrying a DisambiguationResult (both sides lists), as real TfL sometimes answers. */
  'disambiguation-200',
  /** 404 ApiError "No journey found for your inputs." */
  'not-found',
  /** 403 ApiError even though a key was sent. */
  'forbidden',
  /** 429 with `Retry-After` (seconds). */
  'rate-limited',
  /** 429 without `Retry-After`. */
  'rate-limited-no-retry-after',
  /** 500 ApiError whose `relativeUri` echoes the full path and query, app_key included. */
  'server-error',
  /** 502 with an HTML body from the gateway. */
  'bad-gateway',
  /** 503 ApiError. */
  'service-unavailable',
  ...BODY_FAULTS,
  /** The normal answer with `Cache-Control: public, max-age=1` (a short caching hint). */
  'short-max-age',
] as const;

export type TflScenarioName = (typeof TFL_SCENARIOS)[number];

export interface TflScenarioInput {
  /** The route's normal answer (`default`), e.g. 200 with a body, or 404 for an unknown stop. */
  readonly normal: MockReply;
  /** A real-shaped success body of the route, which the body faults cut short, grow or reset. */
  readonly body: unknown;
  /** The JourneyResults request; absent on the other routes, where the disambiguation scenarios answer normally. */
  readonly journey?: JourneyRequest;
  /** The route's 404 message (`not-found`). */
  readonly notFoundMessage: string;
  /** Path and query exactly as received. */
  readonly rawUrl: string;
  readonly nowMs: number;
  readonly retryAfterSeconds: number;
  /** Size of the `oversized-*` bodies. */
  readonly bodyBytes?: number;
}

export const JSON_HEADERS = { 'cache-control': 'public, must-revalidate, max-age=30, s-maxage=60' };

export function tflScenarioReply(name: TflScenarioName, input: TflScenarioInput): MockReply {
  const { journey, rawUrl, nowMs, body } = input;
  if (isBodyFault(name))
    return bodyFaultReply(name, body, { bodyBytes: input.bodyBytes, headers: JSON_HEADERS });
  switch (name) {
    case 'default':
      return input.normal;
    case 'disambiguation-from':
    case 'disambiguation-to':
    case 'disambiguation-both':
    case 'disambiguation-no-match':
    case 'disambiguation-200':
      return journey === undefined ? input.normal : disambiguationReply(name, journey);
    case 'short-max-age':
      return input.normal.kind === 'json'
        ? reply.json(input.normal.status, input.normal.body, { 'cache-control': 'public, max-age=1' })
        : input.normal;
    case 'not-found':
      return reply.json(404, notFoundError(rawUrl, input.notFoundMessage, nowMs));
    case 'forbidden':
      return forbiddenReply(rawUrl, nowMs);
    case 'rate-limited':
      return reply.json(429, rateLimitBody(input.retryAfterSeconds), {
        'retry-after': String(input.retryAfterSeconds),
      });
    case 'rate-limited-no-retry-after':
      return reply.json(429, rateLimitBody(undefined));
    case 'server-error':
      return reply.json(
        500,
        apiError(
          {
            status: 500,
            httpStatus: 'InternalServerError',
            exceptionType: 'HttpRequestException',
            relativeUri: rawUrl,
            message: 'An internal server error occurred.',
            name: 'Internal',
          },
          nowMs,
        ),
      );
    case 'bad-gateway':
      return reply.text(502, BAD_GATEWAY_HTML, 'text/html');
    case 'service-unavailable':
      return reply.json(
        503,
        apiError(
          {
            status: 503,
            httpStatus: 'ServiceUnavailable',
            exceptionType: 'ServiceUnavailableException',
            relativeUri: rawUrl,
            message: 'The service is temporarily unavailable. Please try again later.',
          },
          nowMs,
        ),
      );
  }
}

type DisambiguationScenario = Extract<TflScenarioName, `disambiguation-${string}`>;

/** Each disambiguation scenario's HTTP status and the match status of each side. */
const DISAMBIGUATIONS: Record<
  DisambiguationScenario,
  { readonly status: number; readonly from: MatchStatus; readonly to: MatchStatus }
> = {
  'disambiguation-from': { status: 300, from: 'list', to: 'identified' },
  'disambiguation-to': { status: 300, from: 'identified', to: 'list' },
  'disambiguation-both': { status: 300, from: 'list', to: 'list' },
  'disambiguation-no-match': { status: 300, from: 'empty', to: 'identified' },
  'disambiguation-200': { status: 200, from: 'list', to: 'list' },
};

function disambiguationReply(name: DisambiguationScenario, journey: JourneyRequest): MockReply {
  const { status, ...statuses } = DISAMBIGUATIONS[name];
  const body = buildDisambiguationResult(journey, statuses);
  return status === 200 ? reply.json(200, body, JSON_HEADERS) : reply.json(status, body);
}

export function forbiddenReply(rawUrl: string, nowMs: number): MockReply {
  return reply.json(
    403,
    apiError(
      {
        status: 403,
        httpStatus: 'Forbidden',
        exceptionType: 'UnauthorizedAccessException',
        relativeUri: rawUrl,
        message: 'Access denied: a valid app_key is required.',
      },
      nowMs,
    ),
  );
}
