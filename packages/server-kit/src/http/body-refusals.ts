import type http from 'node:http';
import { JSONRPC_INVALID_REQUEST, JSONRPC_PARSE_ERROR, JSONRPC_SERVER_ERROR } from '../host.js';
import { LIMITS } from '../limits.js';

/** What a client is told when its body cannot be read: the status, a message saying what to fix, a code. */
export interface BodyRefusal {
  status: number;
  message: string;
  code: number;
}

interface RefusalContext {
  maxBodyBytes: number;
  /** The request's Content-Encoding (shortened), `identity` when it has none. */
  encoding: string;
}

/** A refusal before its default code (a transport-level server error) is filled in. */
type Draft = Omit<BodyRefusal, 'code'> & { code?: number };

/** body-parser's error types, each with the answer a client can act on. */
const BODY_REFUSALS: Record<string, (context: RefusalContext) => Draft> = {
  'entity.too.large': ({ maxBodyBytes }) => ({
    status: 413,
    message: `Request body is larger than ${maxBodyBytes} bytes`,
  }),
  'entity.parse.failed': () => ({
    status: 400,
    message: 'Parse error: the body is not valid JSON',
    code: JSONRPC_PARSE_ERROR,
  }),
  'encoding.unsupported': ({ encoding }) => ({
    status: 415,
    message: `Unsupported Content-Encoding "${encoding}": send the body uncompressed, or as gzip, deflate or br`,
  }),
  'charset.unsupported': () => ({ status: 415, message: 'Unsupported body encoding: send UTF-8 JSON' }),
  'request.aborted': () => ({ status: 400, message: 'The request was aborted before its body arrived' }),
  'request.size.invalid': () => ({
    status: 400,
    message: 'The body is not as long as its Content-Length header says',
  }),
};

/** A body that body-parser marked as the client's fault without a type: a compressed body that won't inflate. */
function undecodable({ encoding }: RefusalContext): Draft {
  return encoding === 'identity'
    ? { status: 400, message: 'The request body could not be read' }
    : {
        status: 400,
        message: `The body is not valid ${encoding} data: compress it again, or send it uncompressed`,
      };
}

/**
 * The refusal for a body-parser error, or undefined when the error is the server's own (a 500). A client's
 * bad body never becomes a 500 or an error-level log line.
 */
export function bodyRefusal(
  error: unknown,
  req: http.IncomingMessage,
  maxBodyBytes: number,
): BodyRefusal | undefined {
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  const context: RefusalContext = {
    maxBodyBytes,
    encoding: (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase().slice(0, 40),
  };
  const known = typeof type === 'string' ? BODY_REFUSALS[type] : undefined;
  const refusal =
    known?.(context) ??
    (typeof status === 'number' && status >= 400 && status < 500 ? undecodable(context) : undefined);
  return refusal === undefined ? undefined : { code: JSONRPC_SERVER_ERROR, ...refusal };
}

/**
 * The refusal for a JSON-RPC batch of more than `maxBatch` messages (`http.maxBatch`), or undefined: every
 * message of a batch is answered in the one response, so its length is a bound like the body's size.
 */
export function batchRefusal(body: unknown, maxBatch: number): BodyRefusal | undefined {
  if (!Array.isArray(body) || body.length <= maxBatch) return undefined;
  return {
    status: 400,
    message:
      `Invalid Request: the batch holds ${body.length} messages; this server answers at most ${maxBatch} ` +
      `in one request (${LIMITS.httpMaxBatch.variable})`,
    code: JSONRPC_INVALID_REQUEST,
  };
}
