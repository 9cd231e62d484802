// What each named TfL scenario answers, on every route: `default` is the route's normal answer, the
// disambiguation scenarios belong to JourneyResults (other routes answer normally), and the faults apply to all.
import { reply } from '../reply.js';
import type { HeaderMap, MockReply } from '../reply.js';
import { BODY_FAULTS, isSharedFault, sharedFaultReply, STATUS_FAULTS } from '../scenario.js';
import type { ScenarioOptions, SharedFault } from '../scenario.js';
import { buildDisambiguationResult, type MatchStatus } from './disambiguation.js';
import { apiErrorReply, BAD_GATEWAY_HTML, forbiddenReply } from './errors.js';
import type { TflRouteAnswer } from './routes.js';

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
  ...STATUS_FAULTS,
  ...BODY_FAULTS,
  /** The normal answer with `Cache-Control: public, max-age=1` (a short caching hint). */
  'short-max-age',
] as const;

export type TflScenarioName = (typeof TFL_SCENARIOS)[number];

interface TflScenarioInput extends TflRouteAnswer {
  /** Path and query exactly as received. */
  readonly rawUrl: string;
  readonly nowMs: number;
  readonly options: ScenarioOptions;
}

const JSON_HEADERS = { 'cache-control': 'public, must-revalidate, max-age=30, s-maxage=60' };

/** The route's answer without a fault: its body, or the ApiError it answers instead (an unknown stop). */
function normal({ body, error, rawUrl, nowMs }: TflScenarioInput, headers?: HeaderMap): MockReply {
  return error === undefined
    ? reply.json(200, body, headers ?? JSON_HEADERS)
    : apiErrorReply(error.status, rawUrl, error.message, nowMs, headers);
}

/** A disambiguation scenario: its HTTP status and each side's match status (other routes answer normally). */
function disambiguation(status: 200 | 300, from: MatchStatus, to: MatchStatus) {
  return (input: TflScenarioInput): MockReply => {
    const { journey } = input;
    if (journey === undefined) return normal(input);
    const body = buildDisambiguationResult(journey, { from, to });
    return status === 200 ? reply.json(200, body, JSON_HEADERS) : reply.json(status, body);
  };
}

const REPLIES: Record<Exclude<TflScenarioName, SharedFault>, (input: TflScenarioInput) => MockReply> = {
  default: normal,
  'disambiguation-from': disambiguation(300, 'list', 'identified'),
  'disambiguation-to': disambiguation(300, 'identified', 'list'),
  'disambiguation-both': disambiguation(300, 'list', 'list'),
  'disambiguation-no-match': disambiguation(300, 'empty', 'identified'),
  'disambiguation-200': disambiguation(200, 'list', 'list'),
  'not-found': (input) => apiErrorReply(404, input.rawUrl, input.notFoundMessage, input.nowMs),
  forbidden: (input) => forbiddenReply(input.rawUrl, input.nowMs),
  'server-error': (input) =>
    apiErrorReply(500, input.rawUrl, 'An internal server error occurred.', input.nowMs),
  'bad-gateway': () => reply.text(502, BAD_GATEWAY_HTML, 'text/html'),
  'service-unavailable': (input) =>
    apiErrorReply(
      503,
      input.rawUrl,
      'The service is temporarily unavailable. Please try again later.',
      input.nowMs,
    ),
  'short-max-age': (input) => normal(input, { 'cache-control': 'public, max-age=1' }),
};

export async function tflScenarioReply(name: TflScenarioName, input: TflScenarioInput): Promise<MockReply> {
  return isSharedFault(name)
    ? sharedFaultReply(name, input.options, () => input.body, JSON_HEADERS)
    : REPLIES[name](input);
}
