// What a mock answers: a body with a status, or a misbehaving connection.
import { DEFAULT_OVERSIZED_BYTES, repeatedJson, type RepeatedJson } from './oversized.js';

export type MockReply =
  | { readonly kind: 'json'; readonly status: number; readonly body: unknown; readonly headers?: HeaderMap }
  | {
      readonly kind: 'text';
      readonly status: number;
      readonly body: string;
      readonly contentType?: string;
      readonly headers?: HeaderMap;
    }
  /** Accept the request and never answer, until the server is closed. */
  | { readonly kind: 'hang' }
  /** Send the status line, headers and part of the body, then reset the TCP connection. */
  | {
      readonly kind: 'reset';
      readonly status: number;
      readonly partialBody: string;
      readonly headers?: HeaderMap;
    }
  /** A huge JSON body generated while it is sent (chunked, or with its Content-Length announced). */
  | {
      readonly kind: 'repeated-json';
      readonly status: number;
      readonly body: RepeatedJson;
      readonly announceLength: boolean;
      readonly headers?: HeaderMap;
    };

export type HeaderMap = Readonly<Record<string, string>>;

/** Builders for custom scenario handlers. */
export const reply = {
  json(status: number, body: unknown, headers?: HeaderMap): MockReply {
    return { kind: 'json', status, body, headers };
  },
  text(
    status: number,
    body: string,
    contentType = 'text/plain; charset=utf-8',
    headers?: HeaderMap,
  ): MockReply {
    return { kind: 'text', status, body, contentType, headers };
  },
  hang(): MockReply {
    return { kind: 'hang' };
  },
  reset(partialBody = '{"data":{"stop":{"gtfsId":"HSL:', status = 200, headers?: HeaderMap): MockReply {
    return { kind: 'reset', status, partialBody, headers };
  },
  /**
   * HTTP 200 `application/json`: `normalBody` with its first list grown to `bytes` (default 200 MiB), generated
   * while sent, never held in memory. `announceLength` sends the true Content-Length; otherwise chunked.
   */
  oversized(
    normalBody: unknown,
    options: { bytes?: number; announceLength?: boolean; status?: number; headers?: HeaderMap } = {},
  ): MockReply {
    return {
      kind: 'repeated-json',
      status: options.status ?? 200,
      body: repeatedJson(normalBody, options.bytes ?? DEFAULT_OVERSIZED_BYTES),
      announceLength: options.announceLength ?? false,
      headers: options.headers,
    };
  },
  /** HTTP 200 `application/json` whose body is cut short: valid headers, unparseable JSON. */
  malformedJson(fullBody: unknown, status = 200, headers?: HeaderMap): MockReply {
    const text = JSON.stringify(fullBody);
    const cut = text.slice(0, Math.max(1, Math.floor(text.length * 0.6)));
    return reply.text(status, cut, 'application/json; charset=utf-8', headers);
  },
};
