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
export function readWithinLimit(
  body: Readable,
  head: AnswerHead,
  limit: ResponseLimit,
  signal: AbortSignal | undefined,
): Promise<ReadAnswer> {
  const answer = (read: AnswerBody) => new ReadAnswer(head.status, head.headers, read);
  if (NULL_BODY_STATUSES.has(head.status)) {
    body.destroy();
    return Promise.resolve(answer({ bytes: null }));
  }
  const announced = announcedLength(head.headers);
  if (announced !== undefined && announced > limit.maxBytes) {
    body.destroy();
    return Promise.resolve(answer({ failure: responseTooLarge(limit, head.status, announced) }));
  }
  return readChunks(body, limit.maxBytes, signal).then((read) =>
    answer(read === TOO_LARGE ? { failure: responseTooLarge(limit, head.status) } : read),
  );
}

/** What reading a body came to when it passed the limit (the caller names the error). */
const TOO_LARGE = Symbol('too large');

/** The error a stream iterator gives for a body that closed before its end without an error of its own. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/**
 * The body's bytes, read through its events rather than an async iterator: one listener per event and no promise
 * per chunk. Past `maxBytes` the body is destroyed (dropping the connection); a body cut off by the network
 * reads as that failure; one cut off by the call's own signal rejects with its reason.
 */
function readChunks(
  body: Readable,
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<AnswerBody | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (): void => {
      body.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.byteLength;
      if (received <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      body.destroy();
      resolve(TOO_LARGE);
    };
    const onEnd = (): void => {
      stop();
      resolve({ bytes: Buffer.concat(chunks, received) });
    };
    const onFailure = (error: unknown): void => {
      stop();
      if (signal?.aborted === true) reject(signal.reason);
      else resolve({ failure: error });
    };
    const onClose = (): void => onFailure(prematureClose());
    // A body destroyed before it was read (its call aborted meanwhile) emits nothing more.
    if (body.destroyed) onFailure(body.errored ?? prematureClose());
    else body.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onClose);
  });
}
