import type { Readable, Writable } from 'node:stream';
import {
  parseJSONRPCMessage,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import { JSONRPC_INVALID_REQUEST, JSONRPC_PARSE_ERROR } from '../host.js';
import { messageJson } from '../payload-json.js';
import type { Logger } from '../runtime/logger.js';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** What `send` answers when stdout took the line at once (the usual case): one settled promise for all. */
const WRITTEN: Promise<void> = Promise.resolve();
/** How much of an oversized message is kept to find its id: the id is near one end of a JSON-RPC object. */
const EDGE_BYTES = 512;

/** `"id": 7` or `"id": "abc"` as JSON text. */
const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** The id as the first member of the message, possibly after `"jsonrpc"` and `"method"`. */
const ID_AT_START = new RegExp(
  String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"(?:[^"\\]|\\.)*"\s*,)*\s*"id"\s*:\s*${ID_VALUE}`,
);
/** The id as the last member (the SDK writes it last): one closing brace after it, the message's own. */
const ID_AT_END = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/**
 * The id of a message too large to parse, read from its first and last bytes, or null. Only a top-level
 * member can sit there: at the start after the opening brace, or at the end before the closing one.
 */
export function recoverRequestId(head: string, tail: string): RequestId | null {
  const match = ID_AT_START.exec(head) ?? ID_AT_END.exec(tail);
  if (match?.[1] === undefined) return null;
  try {
    const id: unknown = JSON.parse(match[1]);
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
  } catch {
    return null;
  }
}

/** The message being read: its bytes while within the limit, else only its edges. Cleared for the next. */
class LineBuffer {
  size = 0;
  private readonly chunks: Buffer[] = [];
  private head: Buffer | undefined;
  private tail: Buffer | undefined;

  constructor(private readonly maxBytes: number) {}

  get oversized(): boolean {
    return this.head !== undefined;
  }

  append(piece: Buffer): void {
    this.size += piece.length;
    if (this.head === undefined && this.size <= this.maxBytes) {
      this.chunks.push(piece);
      return;
    }
    if (this.head === undefined) {
      const kept = Buffer.concat([...this.chunks, piece]);
      // Copies: a view would keep the whole message alive.
      this.head = Buffer.from(kept.subarray(0, EDGE_BYTES));
      this.tail = Buffer.from(kept.subarray(-EDGE_BYTES));
      this.chunks.length = 0;
      return;
    }
    const kept = this.tail === undefined ? [] : [this.tail];
    this.tail = Buffer.from(Buffer.concat([...kept, piece.subarray(-EDGE_BYTES)]).subarray(-EDGE_BYTES));
  }

  /** Ready for the next message. */
  clear(): void {
    this.size = 0;
    this.chunks.length = 0;
    this.head = undefined;
    this.tail = undefined;
  }

  text(): string {
    // A line that came in one chunk (the usual case) is decoded where it lies, not copied first.
    const [first] = this.chunks;
    const bytes = first !== undefined && this.chunks.length === 1 ? first : Buffer.concat(this.chunks);
    const end = bytes.at(-1) === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    return bytes.toString('utf8', 0, end);
  }

  edges(): { head: string; tail: string } {
    const tail = this.tail?.toString('utf8') ?? '';
    return { head: this.head?.toString('utf8') ?? '', tail: tail.replace(/\r$/, '') };
  }
}

function idOf(value: unknown): RequestId | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A message with `result` or `error` answers one of the server's requests: never answered back. */
function isResponseLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && ('result' in value || 'error' in value);
}

/**
 * MCP over stdio (newline-delimited JSON-RPC), with a bound on the size of one message. The SDK's
 * StdioServerTransport closes for good when its 10 MiB read buffer overflows (the process then exits
 * without a word), and drops unparseable lines silently. Here a message over `maxMessageBytes` is
 * skipped up to its newline and answered with a JSON-RPC error (with its id when one can be read from
 * its edges, else id null); a line that is not JSON gets a parse error; the next message is served.
 */
export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly line: LineBuffer;
  private started = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxMessageBytes: number,
    private readonly logger: Logger,
  ) {
    this.line = new LineBuffer(maxMessageBytes);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioServerTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.line.clear();
    this.onclose?.();
  }

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (let newline = bytes.indexOf(NEWLINE); newline !== -1; newline = bytes.indexOf(NEWLINE, start)) {
      this.line.append(bytes.subarray(start, newline));
      this.finishLine();
      start = newline + 1;
    }
    if (start < bytes.length) this.line.append(bytes.subarray(start));
  };

  private finishLine(): void {
    const line = this.line;
    if (line.oversized) {
      const { head, tail } = line.edges();
      const { size } = line;
      line.clear();
      this.refuse(
        recoverRequestId(head, tail),
        JSONRPC_INVALID_REQUEST,
        `Request too large: the message is ${size} bytes; this server accepts at most ` +
          `${this.maxMessageBytes} bytes per message`,
      );
      return;
    }
    const text = line.text();
    line.clear();
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.refuse(null, JSONRPC_PARSE_ERROR, 'Parse error: the message is not valid JSON');
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      if (isResponseLike(value)) {
        this.logger.info('stdio message dropped: a malformed response', { id: idOf(value) });
      } else {
        this.refuse(idOf(value), JSONRPC_INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message');
      }
      return;
    }
    this.deliver(message);
  }

  /** A throwing handler must not end the read loop (it runs inside stdin's `data` event). */
  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private refuse(id: RequestId | null, code: number, message: string): void {
    this.logger.info('stdio message refused', { id, code, reason: message });
    // id null is what JSON-RPC prescribes when the request's id cannot be read.
    this.write({ jsonrpc: '2.0', id, error: { code, message } }).catch((error: unknown) =>
      this.onerror?.(error as Error),
    );
  }

  private write(message: unknown): Promise<void> {
    // One line of JSON, as the SDK's serializeMessage writes it.
    if (this.stdout.write(`${messageJson(message as object)}\n`)) return WRITTEN;
    return new Promise((resolve) => this.stdout.once('drain', resolve));
  }
}
