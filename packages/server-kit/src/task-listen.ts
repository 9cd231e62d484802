import {
  CLIENT_CAPABILITIES_META_KEY,
  isJSONRPCRequest,
  MissingRequiredClientCapabilityError,
  type ClientCapabilities,
  type JSONRPCErrorResponse,
} from '@modelcontextprotocol/server';
import { TASKS_EXTENSION } from './task-board.js';
import { declaresTasks, REQUIRED_TASKS } from './task-wire.js';

/** The request shape this module reads: a listen's filter and the client capabilities of its envelope. */
interface ListenParams {
  notifications?: { taskIds?: unknown } | null;
  _meta?: Record<string, unknown> | null;
}

/**
 * A `subscriptions/listen` that asks for `notifications/tasks` (its filter names `taskIds`) from a request whose
 * client capabilities do not declare the Tasks extension: the error the extension's specification requires
 * (-32021 with the required capabilities), else undefined. It runs at the transports, in front of the SDK's
 * entries: they answer `subscriptions/listen` themselves and drop `taskIds` unread, so no handler of ours sees it
 * (README, "Tasks": why no task notifications are sent).
 */
export function taskListenRefusal(message: unknown): JSONRPCErrorResponse | undefined {
  if (!isJSONRPCRequest(message) || message.method !== 'subscriptions/listen') return undefined;
  const params = (message.params ?? {}) as ListenParams;
  if (params.notifications?.taskIds === undefined) return undefined;
  const capabilities = (params._meta?.[CLIENT_CAPABILITIES_META_KEY] ?? {}) as ClientCapabilities;
  if (declaresTasks(capabilities)) return undefined;
  const error = new MissingRequiredClientCapabilityError(
    REQUIRED_TASKS,
    `task notifications need the extension ${TASKS_EXTENSION}: the request's client capabilities do not declare it`,
  );
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: { code: error.code, message: error.message, data: error.data },
  };
}
