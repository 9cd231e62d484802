// TfL's error bodies: the API's own `ApiError`, and what the gateway in front of it sends.
import { reply } from '../reply.js';
import type { HeaderMap, MockReply } from '../reply.js';
import { dotNetUtcTimestamp } from '../time.js';
import { tflType } from './entities.js';

/** Each status TfL answers with an `ApiError`: its `httpStatus`, `exceptionType` and, on 500, a `name`. */
const API_ERRORS = {
  400: ['BadRequest', 'ApiArgumentException'],
  403: ['Forbidden', 'UnauthorizedAccessException'],
  404: ['NotFound', 'EntityNotFoundException'],
  405: ['MethodNotAllowed', 'HttpResponseException'],
  500: ['InternalServerError', 'HttpRequestException', 'Internal'],
  503: ['ServiceUnavailable', 'ServiceUnavailableException'],
} as const satisfies Record<number, readonly [httpStatus: string, exceptionType: string, name?: string]>;

/** An `ApiError` reply; `relativeUri` is the request's path and query, which real TfL echoes with `app_key`. */
export function apiErrorReply(
  status: keyof typeof API_ERRORS,
  relativeUri: string,
  message: string,
  nowMs: number,
  headers?: HeaderMap,
): MockReply {
  const [httpStatus, exceptionType, name]: readonly string[] = API_ERRORS[status];
  const body = {
    $type: tflType('ApiError'),
    timestampUtc: dotNetUtcTimestamp(nowMs),
    ...(name === undefined ? {} : { name }),
    exceptionType,
    httpStatusCode: status,
    httpStatus,
    relativeUri,
    message,
  };
  return reply.json(status, body, headers);
}

export const NO_JOURNEY_MESSAGE = 'No journey found for your inputs.';

export function forbiddenReply(relativeUri: string, nowMs: number): MockReply {
  return apiErrorReply(403, relativeUri, 'Access denied: a valid app_key is required.', nowMs);
}

export const BAD_GATEWAY_HTML =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n';
