import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { CALLABLE_TOOLS_ELEMENT_ID } from '../catalog.js';
import { HostBridge } from './bridge.js';
import { h } from './dom.js';

/** What a view's render function gets besides the tool's payload. */
export interface ViewContext {
  /** The tool's arguments as the host reported them ({} until it does). */
  input: Record<string, unknown>;
  /** The name the client calls a tool by, when this server lets the view call it (else undefined). */
  callable(tool: string): string | undefined;
  /** Calls a tool through the host and renders its answer in this view; rejects with the host's refusal. */
  call(tool: string, args: Record<string, unknown>): Promise<void>;
  /** Calls a tool through the host for data the view shows beside the answer (its structured content). */
  ask(tool: string, args: Record<string, unknown>): Promise<unknown>;
  /** The host's time zone, when it gave one. */
  timeZone: string | undefined;
}

export interface ViewDefinition<Payload> {
  name: string;
  /** Renders the payload into `root` (emptied first). */
  render(root: HTMLElement, payload: Payload, context: ViewContext): void;
}

function callableTools(): Readonly<Record<string, string>> {
  const text = document.getElementById(CALLABLE_TOOLS_ELEMENT_ID)?.textContent;
  return text ? (JSON.parse(text) as Record<string, string>) : {};
}

/** The host's theme and style variables on the document (the view's CSS falls back to its own). */
function applyHostContext(context: McpUiHostContext): void {
  const root = document.documentElement;
  if (context.theme !== undefined) {
    root.dataset.theme = context.theme;
    root.style.colorScheme = context.theme;
  }
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) {
    if (typeof value === 'string') root.style.setProperty(name, value);
  }
}

/**
 * The message of a refused call (`isError` with the domains' `{ error: { message } }` payload), which no view
 * renders as its answer. planJourney's refusals are its own answer shape (suggestions included): not these.
 */
function refusalMessage(result: CallToolResult): string | undefined {
  const error = (result.structuredContent as { error?: { message?: unknown } } | undefined)?.error;
  return result.isError === true && typeof error?.message === 'string' ? error.message : undefined;
}

/** Starts a view: connects to the host, then renders every tool result it gets. */
export function startView<Payload>(definition: ViewDefinition<Payload>): void {
  const root = h('main', { id: 'view' }, h('p', { class: 'muted' }, 'Waiting for the answer…'));
  const announcer = h('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  document.body.append(root, announcer);
  const tools = callableTools();
  let input: Record<string, unknown> = {};
  let timeZone: string | undefined;

  const show = (result: CallToolResult): void => {
    const payload = result.structuredContent as Payload | undefined;
    root.replaceChildren();
    const refusal = refusalMessage(result);
    if (payload === undefined || refusal !== undefined) {
      const text = result.content.find((block) => block.type === 'text');
      const message = refusal ?? (text?.type === 'text' ? text.text : 'The answer has no content.');
      root.append(h('p', { role: 'alert' }, message));
      return;
    }
    definition.render(root, payload, context);
  };

  const context: ViewContext = {
    get input() {
      return input;
    },
    get timeZone() {
      return timeZone;
    },
    callable: (tool) => tools[tool],
    call: async (tool, args) => {
      announcer.textContent = 'Updating…';
      const result = await callOffered(tool, args);
      input = args;
      show(result);
      announcer.textContent = 'Updated.';
    },
    ask: async (tool, args) => (await callOffered(tool, args)).structuredContent,
  };

  const callOffered = (tool: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const name = tools[tool];
    if (name === undefined) return Promise.reject(new Error(`${tool} is not offered by this server`));
    return bridge.callTool(name, args);
  };

  const bridge = new HostBridge({
    toolInput: (args) => {
      input = args;
    },
    toolResult: show,
    hostContext: (hostContext) => {
      timeZone = hostContext.timeZone ?? timeZone;
      applyHostContext(hostContext);
    },
  });
  void bridge.connect({ name: `switchyard-${definition.name}`, version: '1.0.0' });
}

/** A button that calls a tool; shown only when the server lets the view call it. */
export function toolButton(
  context: ViewContext,
  label: string,
  tool: string,
  args: () => Record<string, unknown>,
): HTMLButtonElement | undefined {
  if (context.callable(tool) === undefined) return undefined;
  const button = h('button', { type: 'button' }, label);
  button.addEventListener('click', () => {
    button.disabled = true;
    context.call(tool, args()).catch((error: unknown) => {
      button.disabled = false;
      button.after(h('p', { role: 'alert' }, error instanceof Error ? error.message : String(error)));
    });
  });
  return button;
}
