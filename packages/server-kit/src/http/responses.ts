import type { Response } from 'express';
import { JSONRPC_SERVER_ERROR } from '../host.js';

/**
 * Answers with a JSON-RPC error object, the shape MCP clients expect from the endpoint even when the
 * request never reached a server (bad Host, missing token, oversized body, unknown session).
 */
export function sendJsonRpcError(
  res: Response,
  status: number,
  message: string,
  code: number = JSONRPC_SERVER_ERROR,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}
