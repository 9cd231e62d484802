// What a mock answers: a body with a status, or a misbehaving connection, as the function that writes it.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_OVERSIZED_BYTES, repeatedJson, repeatedJsonLength, writeRepeatedJson } from './oversized.js';

/** Writes the answer to a request whose client is still connected. */
export type MockReply = (res: ServerResponse, socket: Socket) => void;

export type HeaderMap = Readonly<Record<string, string>>;

const JSON_TYPE = 'application/json; charset=utf-8';

/** Builders for custom scenario handlers. */
export const reply = {
  json(status: number, body: unknown, headers?: HeaderMap): MockReply {
    return (res) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': JSON_TYPE,
        'content-length': String(Buffer.byteLength(text)),
        ...headers,
      });
      res.end(text);
    };
  },
  text(
    status: number,
    body: string,
    contentType = 'text/plain; charset=utf-8',
    headers?: HeaderMap,
  ): MockReply {
    return (res) => {
      const all: Record<string, string> = { 'content-length': String(Buffer.byteLength(body)), ...headers };
      if (contentType) all['content-type'] = contentType;
      res.writeHead(status, all);
      res.end(body);
    };
  },
  /** Accept the request and never answer, until the server is closed. */
  hang(): MockReply {
    return () => {};
  },
  /** Send the status line, headers and part of the body, then reset the TCP connection. */
  reset(partialBody = '{"data":{"stop":{"gtfsId":"HSL:', status = 200, headers?: HeaderMap): MockReply {
    return (res, socket) => {
      const partial = Buffer.from(partialBody, 'utf8');
      res.writeHead(status, {
        'content-type': JSON_TYPE,
        // Promise more than is sent, so the client is mid-body when the connection drops.
        'content-length': String(partial.length * 4 + 64),
        ...headers,
      });
      res.flushHeaders();
      res.write(partial, () => socket.resetAndDestroy());
    };
  },
  /**
   * HTTP 200 `application/json`: `normalBody` with its first list grown to `bytes` (default 200 MiB), generated
   * while sent, never held in memory. `announceLength` sends the true Content-Length; otherwise chunked.
   */
  oversized(
    normalBody: unknown,
    options: { bytes?: number; announceLength?: boolean; status?: number; headers?: HeaderMap } = {},
  ): MockReply {
    const body = repeatedJson(normalBody, options.bytes ?? DEFAULT_OVERSIZED_BYTES);
    return (res) => {
      // An endless body (count Infinity) can only be sent chunked.
      const length = repeatedJsonLength(body);
      res.writeHead(options.status ?? 200, {
        'content-type': JSON_TYPE,
        ...(options.announceLength && Number.isFinite(length) ? { 'content-length': String(length) } : {}),
        ...options.headers,
      });
      writeRepeatedJson(res, body);
    };
  },
  /** HTTP 200 `application/json` whose body is cut short: valid headers, unparseable JSON. */
  malformedJson(fullBody: unknown, status = 200, headers?: HeaderMap): MockReply {
    const text = JSON.stringify(fullBody);
    const cut = text.slice(0, Math.max(1, Math.floor(text.length * 0.6)));
    return reply.text(status, cut, JSON_TYPE, headers);
  },
};
