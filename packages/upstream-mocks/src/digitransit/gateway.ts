// Digitransit's API gateway in front of OTP and Pelias: subscription keys, quotas, routing of paths.
import type { IncomingRequest } from '../http.js';
import { keyCheck } from '../mock.js';
import { reply } from '../reply.js';
import type { MockReply } from '../reply.js';

export const KEY_HEADER = 'digitransit-subscription-key';

export function gatewayError(status: number, message: string): MockReply {
  return reply.json(status, { statusCode: status, message });
}

export const notFound = (): MockReply => gatewayError(404, 'Resource not found');

const missingKey = (): MockReply =>
  gatewayError(
    401,
    'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
  );

export const invalidKey = (): MockReply =>
  gatewayError(
    401,
    'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
  );

export const quotaExceeded = (): MockReply =>
  gatewayError(403, 'Out of call volume quota. Quota will be replenished in 00:00:42.');

export const NGINX_BAD_GATEWAY =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/**
 * The gateway's refusal of a request without an accepted key, looked for in the header or, as the gateway also
 * accepts, the query parameter of the same name; undefined when the key is accepted.
 */
export function keyRefusal(
  incoming: IncomingRequest,
  accepted: readonly string[] | undefined,
): MockReply | undefined {
  const key = incoming.headers[KEY_HEADER] || incoming.url.searchParams.get(KEY_HEADER) || undefined;
  const check = keyCheck(key, accepted);
  return check === 'ok' ? undefined : check === 'missing' ? missingKey() : invalidKey();
}
