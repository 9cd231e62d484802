import {
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { InFlightTracker } from '../in-flight.js';
import { JSONRPC_SERVER_ERROR } from '../host.js';
import { isNotification, isRequest, respondedId } from './message-kind.js';

/**
 * A transport decorator that counts requests from their arrival until their response is sent (or the
 * client cancels them), and, once `stopAccepting()` is called, answers new requests with an error instead
 * of handing them to the server. That is what lets shutdown wait for in-flight calls on a single connection.
 */
export class TrackedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private readonly pending = new Map<RequestId, () => void>();
  private accepting = true;

  constructor(
    private readonly inner: Transport,
    private readonly tracker: InFlightTracker,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  stopAccepting(): void {
    this.accepting = false;
  }

  async start(): Promise<void> {
    this.inner.onclose = () => {
      this.endAll();
      this.onclose?.();
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.inner.send(message, options);
    } finally {
      const answered = respondedId(message);
      if (answered !== undefined) this.end(answered);
    }
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (isRequest(message)) {
      if (!this.accepting) {
        void this.inner
          .send({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: JSONRPC_SERVER_ERROR, message: 'Server is shutting down' },
          })
          .catch((error: unknown) => this.onerror?.(error as Error));
        return;
      }
      this.pending.get(message.id)?.();
      this.pending.set(message.id, this.tracker.begin());
    } else if (isNotification(message) && message.method === 'notifications/cancelled') {
      // A cancelled request gets no response, so its count ends here.
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.end(requestId);
    }
    this.onmessage?.(message, extra);
  }

  private end(id: RequestId): void {
    const done = this.pending.get(id);
    if (done === undefined) return;
    this.pending.delete(id);
    done();
  }

  private endAll(): void {
    for (const done of this.pending.values()) done();
    this.pending.clear();
  }
}
