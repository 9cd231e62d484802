import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  parseJSONRPCMessage,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isNotification, isRequest, respondedId } from '../src/stdio/message-kind.js';

/** Messages as a stdio line carries them, each parsed as the transport parses it. */
const LINES = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'hi' } } },
  { jsonrpc: '2.0', id: 'a-string-id', method: 'tools/list' },
  { jsonrpc: '2.0', id: 0, method: 'ping' },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'changed my mind' } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, result: { content: [], structuredContent: { id: 'not a request' } } },
  { jsonrpc: '2.0', id: 'x', result: {} },
  { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Invalid params' } },
  { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
];

describe('message-kind', () => {
  it.each(LINES.map((line) => [JSON.stringify(line), line] as const))(
    'reads %s as the SDK guards do',
    (_text, line) => {
      const message = parseJSONRPCMessage(line);
      expect(isRequest(message)).toBe(isJSONRPCRequest(message));
      expect(isNotification(message)).toBe(isJSONRPCNotification(message));
      const response = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
      expect(respondedId(message)).toEqual(response ? (message as { id?: unknown }).id : undefined);
    },
  );
});
