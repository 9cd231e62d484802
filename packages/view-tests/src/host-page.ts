// The test host page (runs in the browser): the host side of the MCP Apps bridge, ext-apps' own AppBridge, with
// the view in a sandboxed iframe as hosts show it. Tool calls the view makes go to the test's real SDK client
// through `hostCallTool`, which the test exposes to the page.
import type { McpUiHostContext, McpUiTheme } from '@modelcontextprotocol/ext-apps';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/client';

declare global {
  interface Window {
    hostCallTool(params: CallToolRequest['params']): Promise<CallToolResult>;
    mountView(html: string, hostContext: McpUiHostContext): Promise<void>;
    deliverResult(args: Record<string, unknown>, result: CallToolResult): Promise<void>;
    changeTheme(theme: McpUiTheme): Promise<void>;
  }
}

let bridge: AppBridge | undefined;

window.mountView = async (html, hostContext) => {
  // One view at a time, as a host shows one answer.
  await bridge?.close();
  document.querySelector('iframe')?.remove();
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'Tool answer';
  frame.style.cssText = 'width: 640px; height: 400px; border: 0; display: block';
  document.body.append(frame);
  const view = frame.contentWindow;
  if (view === null) throw new Error('the iframe has no window');
  bridge = new AppBridge(
    null,
    { name: 'switchyard-test-host', version: '1.0.0' },
    { serverTools: {} },
    { hostContext },
  );
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge!.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(view, view));
  frame.srcdoc = html;
  await initialized;
};

window.deliverResult = async (args, result) => {
  if (bridge === undefined) throw new Error('no view is mounted');
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result);
};

window.changeTheme = async (theme) => {
  if (bridge === undefined) throw new Error('no view is mounted');
  await bridge.sendHostContextChange({ theme });
};
