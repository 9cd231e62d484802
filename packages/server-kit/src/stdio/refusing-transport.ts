import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';

/** The error a message is answered with instead of reaching the server, or undefined to let it through. */
export type MessageRefusal = (message: JSONRPCMessage) => JSONRPCErrorResponse | undefined;

/**
 * A transport decorator that answers each message `refuse` returns an error for, in place of the server (which
 * never sees it): for the checks that must run in front of the SDK's `serveStdio`, which answers some methods
 * (`subscriptions/listen`) before any handler of ours.
 */
export class RefusingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    private readonly refuse: MessageRefusal,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => {
      const refusal = this.refuse(message);
      if (refusal === undefined) {
        this.onmessage?.(message, extra);
        return;
      }
      this.inner.send(refusal).catch((error: unknown) => this.onerror?.(error as Error));
    };
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
