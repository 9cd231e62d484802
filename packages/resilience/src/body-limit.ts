// Upstream bodies are read as streams with a ceiling: a body past the limit stops the read and aborts the
// connection, so an endless or huge answer costs at most the limit in memory, never the whole body.
import { SwitchyardError } from '@switchyard/contracts/errors';

/** The largest upstream body read when a client names no limit: 8 MiB, far above any real journey answer. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Statuses whose Response must have a null body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export interface ResponseLimit {
  upstream: string;
  /** Bytes of body a reader may receive; one more and reading fails with `responseTooLarge`. */
  maxBytes: number;
}

function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return Number.isInteger(mebibytes) ? `${bytes} bytes (${mebibytes} MiB)` : `${bytes} bytes`;
}

/**
 * The error for a body past the limit: upstream-error (the upstream misbehaved), not retried (the same
 * request would most likely get the same body, and each try costs up to the limit again).
 */
function responseTooLarge(limit: ResponseLimit, status: number, announcedBytes?: number): SwitchyardError {
  const what =
    announcedBytes === undefined ? 'its body passed' : `it announced ${announcedBytes} bytes, over`;
  return new SwitchyardError(
    'upstream-error',
    `${limit.upstream} sent a response too large: ${what} the limit of ${describeBytes(limit.maxBytes)}`,
    {
      retryable: false,
      upstreamStatus: status,
      details: {
        upstream: limit.upstream,
        reason: 'response too large',
        limitBytes: limit.maxBytes,
        announcedBytes,
      },
    },
  );
}

function announcedLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}

function erroredStream(error: unknown): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.error(error) });
}

/** Counts bytes as they pass and errors the stream (which cancels the source) at one byte past the limit. */
function countingLimit(limit: ResponseLimit, status: number): TransformStream<Uint8Array, Uint8Array> {
  let received = 0;
  return new TransformStream({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > limit.maxBytes) controller.error(responseTooLarge(limit, status));
      else controller.enqueue(chunk);
    },
  });
}

/**
 * The response with its body bounded (and without its `url`, which may carry a key): reading more than
 * `maxBytes` rejects with `responseTooLarge` and aborts the connection. A Content-Length above the limit is
 * refused before any byte is read: the connection is aborted at once and the body reads as that error, while
 * status and headers stay readable (an error status is still classified by its status).
 */
export function limitResponseBody(response: Response, limit: ResponseLimit): Response {
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  if (response.body === null || NULL_BODY_STATUSES.has(response.status)) return new Response(null, init);
  const announced = announcedLength(response.headers);
  if (announced !== undefined && announced > limit.maxBytes) {
    response.body.cancel().catch(() => undefined);
    return new Response(erroredStream(responseTooLarge(limit, response.status, announced)), init);
  }
  return new Response(response.body.pipeThrough(countingLimit(limit, response.status)), init);
}
