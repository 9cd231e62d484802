// Digitransit's API gateway in front of OTP and Pelias: subscription keys, quotas, routing of paths.
import { reply } from '../reply.js';
import type { MockReply } from '../reply.js';

export const KEY_HEADER = 'digitransit-subscription-key';

export function gatewayError(status: number, message: string, headers?: Record<string, string>): MockReply {
  return reply.json(status, { statusCode: status, message }, headers);
}

export const notFound = (): MockReply => gatewayError(404, 'Resource not found');

export const missingKey = (): MockReply =>
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

export function rateLimited(retryAfterSeconds: number | undefined): MockReply {
  return retryAfterSeconds === undefined
    ? gatewayError(429, 'Rate limit is exceeded.')
    : gatewayError(429, `Rate limit is exceeded. Try again in ${retryAfterSeconds} seconds.`, {
        'retry-after': String(retryAfterSeconds),
      });
}

export const NGINX_BAD_GATEWAY =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** The key from the header or, as the gateway also accepts, the query parameter of the same name. */
export function subscriptionKey(headers: Readonly<Record<string, string>>, url: URL): string | undefined {
  const header = headers[KEY_HEADER];
  if (header) return header;
  return url.searchParams.get(KEY_HEADER) || undefined;
}

export type KeyCheck = 'ok' | 'missing' | 'invalid';

export function checkKey(key: string | undefined, accepted: readonly string[] | undefined): KeyCheck {
  if (key === undefined) return 'missing';
  if (accepted !== undefined && !accepted.includes(key)) return 'invalid';
  return 'ok';
}
