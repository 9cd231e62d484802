import type {
  LATEST_PROTOCOL_VERSION,
  McpUiHostContext,
  McpUiInitializeRequest,
  McpUiInitializeResult,
  McpUiInitializedNotification,
  McpUiSizeChangedNotification,
  McpUiToolInputNotification,
  McpUiToolResultNotification,
  McpUiHostContextChangedNotification,
  McpUiResourceTeardownRequest,
} from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/client';

/**
 * The view's side of the MCP Apps bridge: JSON-RPC over postMessage with the host (its window.parent).
 *
 * Why not the package's `App`: it brings the SDK's whole Protocol and zod into the page, 330 KB minified at
 * the least, over the 150 KB a view may take. The handful of messages a view needs are typed here by the
 * package's own specification types, and the browser tests run every view against the package's host side
 * (`AppBridge`), which checks them.
 */
const PROTOCOL_VERSION: typeof LATEST_PROTOCOL_VERSION = '2026-01-26';

type Id = number;
interface Message {
  jsonrpc: '2.0';
  id?: Id | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

export interface ViewHandlers {
  /** The arguments the tool was called with (sent before its result). */
  toolInput?(args: Record<string, unknown>): void;
  /** The tool's result, the first time and after each call the host reports. */
  toolResult(result: CallToolResult): void;
  /** The host's theme and styles, at start and whenever they change. */
  hostContext?(context: McpUiHostContext): void;
}

export class HostBridge {
  private nextId = 1;
  private readonly pending = new Map<Id, { resolve(value: unknown): void; reject(error: Error): void }>();

  constructor(private readonly handlers: ViewHandlers) {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (event.source !== window.parent) return;
      const message = event.data as Message;
      if (message === null || typeof message !== 'object' || message.jsonrpc !== '2.0') return;
      this.receive(message);
    });
  }

  /** `ui/initialize`, then `ui/notifications/initialized`; the host's context is applied before it returns. */
  async connect(appInfo: { name: string; version: string }): Promise<McpUiInitializeResult> {
    const params: McpUiInitializeRequest['params'] = {
      appInfo,
      appCapabilities: {},
      protocolVersion: PROTOCOL_VERSION,
    };
    const result = (await this.request(
      'ui/initialize' satisfies McpUiInitializeRequest['method'],
      params,
    )) as McpUiInitializeResult;
    this.handlers.hostContext?.(result.hostContext);
    this.notify('ui/notifications/initialized' satisfies McpUiInitializedNotification['method'], {});
    this.reportSize();
    new ResizeObserver(() => this.reportSize()).observe(document.documentElement);
    return result;
  }

  /** A tool of this server, called through the host (which may refuse it). */
  async callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await this.request('tools/call', { name, arguments: args })) as CallToolResult;
  }

  private reportSize(): void {
    // The content's own height: scrollHeight never falls below the iframe's, so a view drawn shorter than it
    // was would never let the host shrink the frame.
    const params: McpUiSizeChangedNotification['params'] = {
      width: Math.ceil(document.documentElement.scrollWidth),
      height: Math.ceil(document.documentElement.getBoundingClientRect().height),
    };
    this.notify('ui/notifications/size-changed' satisfies McpUiSizeChangedNotification['method'], params);
  }

  private receive(message: Message): void {
    if (message.method === undefined) {
      const waiting = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (waiting === undefined) return;
      this.pending.delete(message.id as Id);
      if (message.error !== undefined) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
      return;
    }
    if (message.id !== undefined) {
      this.answer(message);
      return;
    }
    this.onNotification(message.method, message.params);
  }

  private onNotification(method: string, params: unknown): void {
    switch (method) {
      case 'ui/notifications/tool-input' satisfies McpUiToolInputNotification['method']:
        this.handlers.toolInput?.((params as McpUiToolInputNotification['params']).arguments ?? {});
        return;
      case 'ui/notifications/tool-result' satisfies McpUiToolResultNotification['method']:
        this.handlers.toolResult(params as McpUiToolResultNotification['params']);
        return;
      case 'ui/notifications/host-context-changed' satisfies McpUiHostContextChangedNotification['method']:
        this.handlers.hostContext?.(params as McpUiHostContext);
        return;
    }
  }

  /** Requests from the host: a ping, and teardown (nothing to save); anything else is not offered. */
  private answer(message: Message): void {
    const known =
      message.method === 'ping' ||
      message.method === ('ui/resource-teardown' satisfies McpUiResourceTeardownRequest['method']);
    this.post(
      known
        ? { jsonrpc: '2.0', id: message.id, result: {} }
        : {
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32601, message: `${message.method} is not offered` },
          },
    );
  }

  private request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ jsonrpc: '2.0', id, method, params });
    });
  }

  private notify(method: string, params: unknown): void {
    this.post({ jsonrpc: '2.0', method, params });
  }

  private post(message: Message): void {
    window.parent.postMessage(message, '*');
  }
}
