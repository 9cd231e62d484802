// Upstream bodies are read as streams with a ceiling: a body past the limit stops the read and aborts the
// connection, so an endless or huge answer costs at most the limit in memory, never the whole body.
import type { Readable } from 'node:stream';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { ReadAnswer, type AnswerBody, type AnswerHeaders, type RawHeaders } from './upstream-answer.js';

/** The largest upstream body read when a client names no limit: 8 MiB, far above any real journey answer. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Statuses that have no body (a web Response of them must have a null one). */
export const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

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

function announcedLength(headers: AnswerHeaders): number | undefined {
  const value = headers.get('content-length');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}

/** The status and headers a read body is answered with. */
export interface AnswerHead {
  status: number;
  headers: RawHeaders;
}

/**
 * The answer with its body read within the limit (and no URL, which may carry a key). A Content-Length above the
 * limit is refused before any byte is read; a body that passes the limit stops there. Either way the connection
 * is dropped, and the body reads as `responseTooLarge` while status and headers stay readable (an error status
 * is still classified by its status). A body cut off by the network reads as that failure; one cut off by the
 * call's own signal rejects here with its reason.
 */
export async function readWithinLimit(
  body: Readable,
  head: AnswerHead,
  limit: ResponseLimit,
  signal: AbortSignal | undefined,
): Promise<ReadAnswer> {
  const answer = (read: AnswerBody) => new ReadAnswer(head.status, head.headers, read);
  if (NULL_BODY_STATUSES.has(head.status)) {
    body.destroy();
    return answer({ bytes: null });
  }
  const announced = announcedLength(head.headers);
  if (announced !== undefined && announced > limit.maxBytes) {
    body.destroy();
    return answer({ failure: responseTooLarge(limit, head.status, announced) });
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.byteLength;
      if (received > limit.maxBytes) {
        body.destroy();
        return answer({ failure: responseTooLarge(limit, head.status) });
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    return answer({ failure: error });
  }
  return answer({ bytes: Buffer.concat(chunks, received) });
}
