import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  RequestId,
} from '@modelcontextprotocol/server';

/**
 * Which member of the JSON-RPC union a message is, read from its members: for a message the stdio transport already
 * parsed (parseJSONRPCMessage) or the SDK built, so its shape is known. The SDK's guards (isJSONRPCRequest and the
 * like) run a whole zod parse, a copy of the message, each time: the stdio path asked them four to six times a call.
 */
export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

export function isNotification(message: JSONRPCMessage): message is JSONRPCNotification {
  return 'method' in message && !('id' in message);
}

/** The id a response answers (a result or an error); undefined for a request, a notification or an id-less error. */
export function respondedId(message: JSONRPCMessage): RequestId | undefined {
  return 'method' in message ? undefined : (message.id ?? undefined);
}
