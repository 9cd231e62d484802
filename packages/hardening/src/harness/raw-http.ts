/** An MCP `initialize` request body (the 2025 handshake). */
export function initializeBody(): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0.0.0' },
    },
  });
}

export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** The 2025 era without a handshake: a stateless server takes any request with this header. */
export const LEGACY_HEADERS = { 'mcp-protocol-version': '2025-06-18' };

/**
 * The headers of a 2026-07-28 request: the revision, and the method (and tool name) the body names, which
 * the server checks against the body.
 */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}

/** The envelope every 2026-07-28 request carries in `params._meta` (there is no handshake). */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-07-28 request body: `params` with the envelope added. */
export function modernBody(method: string, params: Record<string, unknown> = {}, id = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } });
}
