// TfL's error bodies: the API's own `ApiError`, and what the gateway in front of it sends.
import { dotNetUtcTimestamp } from '../time.js';
import { tflType } from './entities.js';

export interface ApiErrorInput {
  readonly status: number;
  readonly httpStatus: string;
  readonly exceptionType: string;
  /** Echoed request path and query: real TfL includes `app_key` here. */
  readonly relativeUri: string;
  readonly message: string;
  readonly name?: string;
}

export function apiError(input: ApiErrorInput, nowMs: number): Record<string, unknown> {
  return {
    $type: tflType('ApiError'),
    timestampUtc: dotNetUtcTimestamp(nowMs),
    ...(input.name ? { name: input.name } : {}),
    exceptionType: input.exceptionType,
    httpStatusCode: input.status,
    httpStatus: input.httpStatus,
    relativeUri: input.relativeUri,
    message: input.message,
  };
}

export const NO_JOURNEY_MESSAGE = 'No journey found for your inputs.';

/** A 404 `ApiError` (EntityNotFoundException) for the request `relativeUri`. */
export function notFoundError(relativeUri: string, message: string, nowMs: number): Record<string, unknown> {
  return apiError(
    { status: 404, httpStatus: 'NotFound', exceptionType: 'EntityNotFoundException', relativeUri, message },
    nowMs,
  );
}

/** The API gateway's 429 body (the API documents none; `Retry-After` is what matters). */
export function rateLimitBody(retryAfterSeconds: number | undefined): Record<string, unknown> {
  return {
    statusCode: 429,
    message:
      retryAfterSeconds === undefined
        ? 'Rate limit is exceeded.'
        : `Rate limit is exceeded. Try again in ${retryAfterSeconds} seconds.`,
  };
}

export const BAD_GATEWAY_HTML =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n';
