import type http from 'node:http';
import { JSONRPC_SERVER_ERROR } from '../host.js';

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * Answers with a JSON-RPC error object, the shape MCP clients expect from the endpoint even when the
 * request never reached a server (bad Host, missing token, oversized body); `id` when the request's is known.
 */
export function sendJsonRpcError(
  res: http.ServerResponse,
  status: number,
  message: string,
  code: number = JSONRPC_SERVER_ERROR,
  id: string | number | null = null,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id });
}
