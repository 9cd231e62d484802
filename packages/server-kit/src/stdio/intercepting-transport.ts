import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';

/** Takes some incoming messages in place of the server, answering them itself through `send`. */
export interface MessageTap {
  /** True when it took `message` (the server never sees it). */
  take(message: JSONRPCMessage, send: (reply: JSONRPCMessage) => void): boolean;
  /** The connection closed. */
  closed?(): void;
}

/**
 * A transport decorator whose taps take some messages before the server does: for what must run in front of the
 * SDK's `serveStdio`, which answers some methods (`subscriptions/listen`) before any handler of ours.
 */
export class InterceptingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    private readonly taps: readonly MessageTap[],
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    const send = (reply: JSONRPCMessage): void => {
      this.inner.send(reply).catch((error: unknown) => this.onerror?.(error as Error));
    };
    this.inner.onclose = () => {
      for (const tap of this.taps) tap.closed?.();
      this.onclose?.();
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => {
      if (!this.taps.some((tap) => tap.take(message, send))) this.onmessage?.(message, extra);
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
