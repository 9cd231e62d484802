import type { McpRequestContext, Server } from '@modelcontextprotocol/server';

/** Builds the MCP server for one stdio connection or one HTTP request. */
export type ServerFactory = (context: McpRequestContext) => Server;

/** What `runServer` needs from a transport to shut it down gracefully. */
export interface TransportHost {
  /** Refuse new connections and requests from now on; in-flight ones continue. */
  stopAccepting(): void;
  /** Close every server, transport and connection (aborts whatever is still running). */
  closeAll(): Promise<void>;
}

/** JSON-RPC error codes used outside an MCP server (transport-level refusals). */
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_INTERNAL_ERROR = -32603;
/** Implementation-defined server error (the MCP SDK uses it for transport refusals too). */
export const JSONRPC_SERVER_ERROR = -32000;
