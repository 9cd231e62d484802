import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Builds one fully registered McpServer (every module); per stdio connection, HTTP session or request. */
export type McpServerFactory = () => Promise<McpServer>;

/** What `runServer` needs from a transport to shut it down gracefully. */
export interface TransportHost {
  /** Refuse new connections and requests from now on; in-flight ones continue. */
  stopAccepting(): void;
  /** Close every server, transport and connection (aborts whatever is still running). */
  closeAll(): Promise<void>;
}

/** JSON-RPC error codes used outside an McpServer (transport-level refusals). */
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INTERNAL_ERROR = -32603;
/** Implementation-defined server error (the MCP SDK uses it for transport refusals too). */
export const JSONRPC_SERVER_ERROR = -32000;
