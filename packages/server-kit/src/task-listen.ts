import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  isJSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  type JSONRPCRequest,
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
 * The revision whose listens the kit serves: the SDK's one modern revision (its SUPPORTED_MODERN_PROTOCOL_VERSIONS,
 * not exported); a listen claiming another goes to the SDK, which answers it with its unsupported-version error.
 */
const LISTEN_REVISION = '2026-07-28';

/** The HTTP headers the SDK checks a 2026-07-28 request's body against (undefined over stdio: none). */
export interface ListenHeaders {
  protocolVersion: string | undefined;
  method: string | undefined;
}

/** A `subscriptions/listen` whose filter names `taskIds` (it asks for `notifications/tasks`), with its params. */
function taskListen(message: unknown): { request: JSONRPCRequest; params: ListenParams } | undefined {
  // The method first: the SDK's guard is a whole zod parse, and every message over stdio is asked.
  if ((message as { method?: unknown } | null)?.method !== 'subscriptions/listen') return undefined;
  if (!isJSONRPCRequest(message)) return undefined;
  const params = (message.params ?? {}) as ListenParams;
  return params.notifications?.taskIds === undefined ? undefined : { request: message, params };
}

function capabilitiesOf(params: ListenParams): ClientCapabilities {
  return (params._meta?.[CLIENT_CAPABILITIES_META_KEY] ?? {}) as ClientCapabilities;
}

/**
 * A listen the kit serves itself (task-listens.ts): it names `taskIds`, its client declares the extension, and
 * its envelope passes the SDK's own checks (its classification; over HTTP the two standard headers present).
 * Any other listen goes to the SDK, which answers it, or answers its envelope's fault with its own error.
 */
export function servedTaskListen(message: unknown, headers?: ListenHeaders): JSONRPCRequest | undefined {
  const listen = taskListen(message);
  if (listen === undefined || !declaresTasks(capabilitiesOf(listen.params))) return undefined;
  if (headers !== undefined && (headers.protocolVersion === undefined || headers.method === undefined))
    return undefined;
  const claimed = listen.params._meta?.[PROTOCOL_VERSION_META_KEY];
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    body: message,
    protocolVersionHeader: headers?.protocolVersion ?? (typeof claimed === 'string' ? claimed : undefined),
    mcpMethodHeader: headers?.method ?? listen.request.method,
  });
  if (route.kind !== 'modern' || route.messageKind !== 'request') return undefined;
  return route.classification.revision === LISTEN_REVISION ? listen.request : undefined;
}

/**
 * A `subscriptions/listen` that asks for `notifications/tasks` (its filter names `taskIds`) from a request whose
 * client capabilities do not declare the Tasks extension: the error the extension's specification requires
 * (-32021 with the required capabilities), else undefined. It runs at the transports, in front of the SDK's
 * entries, which would strip `taskIds` unread (README, "Tasks").
 */
export function taskListenRefusal(message: unknown): JSONRPCErrorResponse | undefined {
  const listen = taskListen(message);
  if (listen === undefined || declaresTasks(capabilitiesOf(listen.params))) return undefined;
  const { request } = listen;
  const error = new MissingRequiredClientCapabilityError(
    REQUIRED_TASKS,
    `task notifications need the extension ${TASKS_EXTENSION}: the request's client capabilities do not declare it`,
  );
  return {
    jsonrpc: '2.0',
    id: request.id,
    error: { code: error.code, message: error.message, data: error.data },
  };
}
