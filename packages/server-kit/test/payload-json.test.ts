import { serializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { messageJson, payloadJson } from '../src/payload-json.js';

/** A tools/call answer as the SDK sends it: the payload's mirror first in content, then the structured content. */
function answer(payload: Record<string, unknown>, mirror: string, id: number | string = 1): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    result: {
      content: [{ type: 'text', text: mirror }],
      structuredContent: payload,
      _meta: { note: '"structuredContent":"x"' },
    },
  } as JSONRPCMessage;
}

describe('messageJson', () => {
  it('writes the same line as the SDK for an answer whose payload text it reuses', () => {
    const payloads: Record<string, unknown>[] = [
      { lines: [{ name: 'Bakerloo', status: 'Good "service"' }], next: null },
      { text: 'back\\slash, tab\t, control \u0001, snowman \u2603, pair \ud83d\ude87, lone \ud800' },
      // Members that look like the place the payload goes, inside the payload and in its text.
      { structuredContent: 'switchyard-payload-', nested: { structuredContent: { a: 1 } } },
      {},
    ];
    for (const payload of payloads) {
      const message = answer(payload, payloadJson(payload), 'call-"7"');
      expect(messageJson(message)).toBe(JSON.stringify(message));
      expect(`${messageJson(message)}\n`).toBe(serializeMessage(message));
    }
  });

  it('serializes messages without a remembered payload as they are', () => {
    const unseen = { rows: [1, 2, 3] };
    const messages: JSONRPCMessage[] = [
      answer(unseen, JSON.stringify(unseen)),
      { jsonrpc: '2.0', id: 2, result: { tools: [] } } as JSONRPCMessage,
      { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'Invalid Request' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
    ];
    for (const message of messages) expect(messageJson(message)).toBe(JSON.stringify(message));
  });

  it('puts the remembered text where the structured content goes, serialized once', () => {
    const payload = { stops: ['Oxford Circus'] };
    const text = payloadJson(payload);
    const message = answer(payload, text);
    // The payload's own toJSON would run if it were serialized again; the remembered text is used instead.
    Object.defineProperty(payload, 'toJSON', { value: () => 'serialized again', enumerable: false });
    expect(messageJson(message)).toContain(`"structuredContent":${text}`);
  });
});
