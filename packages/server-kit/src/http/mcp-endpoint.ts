import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import typeis from 'type-is';
import type { McpServerFactory } from '../host.js';
import type { Logger } from '../logger.js';
import { sendJsonRpcError } from './responses.js';
import { closeQuietly, SessionTable, type Session, type SessionLimits } from './sessions.js';

/** A request on `/mcp`: `auth` set by the bearer token check, `body` by the JSON body parser. */
export type McpRequest = http.IncomingMessage & { auth?: AuthInfo; body?: unknown };
type Response = http.ServerResponse;

export interface McpEndpoint {
  /** Serves one request on `/mcp` (POST, GET or DELETE). */
  handle(req: McpRequest, res: Response): Promise<void>;
  /** Open sessions (stateful) or requests being served (stateless). */
  readonly openCount: number;
  /** Closes every session's server and transport (ends their SSE streams, aborts their handlers). */
  closeAll(): Promise<void>;
}

const SESSION_HEADER = 'mcp-session-id';
/** What a client refused a session (every session busy) is told to wait before trying again. */
export const SESSIONS_BUSY_RETRY_AFTER_SECONDS = 5;

function sessionIdOf(req: McpRequest): string | undefined {
  const value = req.headers[SESSION_HEADER];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isJsonPost(req: McpRequest): boolean {
  return typeof typeis(req, ['application/json']) === 'string';
}

function methodNotAllowed(res: Response, allow: string): void {
  res.setHeader('Allow', allow);
  sendJsonRpcError(res, 405, `Method not allowed on /mcp: use ${allow}`);
}

/**
 * Stateful Streamable HTTP: `initialize` (without Mcp-Session-Id) opens a session with its own McpServer
 * (modules register per session); later requests carry the session id; DELETE or a closed transport ends
 * it. Sessions are bounded (see SessionTable): when full, the least recently used idle one is evicted, and
 * when every session has a request in flight a new one gets 503 with Retry-After.
 */
export function createStatefulEndpoint(
  factory: McpServerFactory,
  logger: Logger,
  limits: SessionLimits,
): McpEndpoint {
  const table = new SessionTable(limits, logger);

  async function openSession(req: McpRequest, res: Response): Promise<void> {
    const release = table.reserve();
    if (release === undefined) {
      logger.warn('new session refused: every session has a request in flight', {
        maxSessions: limits.maxSessions,
      });
      res.setHeader('Retry-After', String(SESSIONS_BUSY_RETRY_AFTER_SECONDS));
      sendJsonRpcError(
        res,
        503,
        `Server busy: all ${limits.maxSessions} sessions have requests in flight; ` +
          `retry in ${SESSIONS_BUSY_RETRY_AFTER_SECONDS} seconds`,
      );
      return;
    }
    try {
      const server = await factory();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          table.add(sessionId, session);
          release();
        },
      });
      const session: Session = { server, transport, requests: 0, streams: 0, lastActive: Date.now() };
      transport.onclose = () => {
        if (transport.sessionId !== undefined) table.remove(transport.sessionId);
      };
      await server.connect(transport);
      table.track(session, 'requests', res);
      await transport.handleRequest(req, res, req.body);
      // The transport refused the initialize request (bad headers, say): nothing to keep.
      if (transport.sessionId === undefined || table.get(transport.sessionId) !== session) {
        await closeQuietly(server, logger);
      }
    } finally {
      release();
    }
  }

  return {
    get openCount() {
      return table.size;
    },
    async handle(req, res) {
      if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
        methodNotAllowed(res, 'GET, POST, DELETE');
        return;
      }
      const sessionId = sessionIdOf(req);
      if (sessionId === undefined) {
        if (req.method === 'POST' && !isJsonPost(req)) {
          sendJsonRpcError(res, 415, 'Unsupported Media Type: send the JSON-RPC message as application/json');
          return;
        }
        if (req.method === 'POST' && isInitializeRequest(req.body)) {
          await openSession(req, res);
          return;
        }
        sendJsonRpcError(
          res,
          400,
          'Bad Request: no Mcp-Session-Id header; start a session by sending initialize first',
        );
        return;
      }
      const session = table.get(sessionId);
      if (session === undefined) {
        sendJsonRpcError(res, 404, 'Session not found: it ended or never existed; send initialize again');
        return;
      }
      table.track(session, req.method === 'GET' ? 'streams' : 'requests', res);
      await session.transport.handleRequest(req, res, req.body);
    },
    async closeAll() {
      await Promise.all(table.drain().map((session) => closeQuietly(session.server, logger)));
    },
  };
}

/** Stateless Streamable HTTP: every POST gets a fresh McpServer and transport, closed with the response. */
export function createStatelessEndpoint(factory: McpServerFactory, logger: Logger): McpEndpoint {
  const live = new Set<McpServer>();
  return {
    get openCount() {
      return live.size;
    },
    async handle(req, res) {
      if (req.method !== 'POST') {
        methodNotAllowed(res, 'POST');
        return;
      }
      const server = await factory();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      live.add(server);
      res.on('close', () => {
        live.delete(server);
        void closeQuietly(server, logger);
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
    async closeAll() {
      const open = [...live];
      live.clear();
      await Promise.all(open.map((server) => closeQuietly(server, logger)));
    },
  };
}
