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

interface Session {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  /** Responses still open for this session (a client's GET stream keeps it at >= 1). */
  openResponses: number;
  lastActive: number;
}

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

async function closeQuietly(server: McpServer, logger: Logger): Promise<void> {
  try {
    await server.close();
  } catch (error) {
    logger.warn('closing an MCP server failed', { error });
  }
}

/**
 * Stateful Streamable HTTP: `initialize` (without Mcp-Session-Id) opens a session with its own McpServer
 * (modules register per session); later requests carry the session id; DELETE or a closed transport ends
 * it. A session with no open response for `idleTimeoutMs` (a client that vanished without DELETE) expires.
 */
export function createStatefulEndpoint(
  factory: McpServerFactory,
  logger: Logger,
  idleTimeoutMs: number,
): McpEndpoint {
  const sessions = new Map<string, Session>();

  async function serve(session: Session, req: McpRequest, res: Response): Promise<void> {
    session.openResponses += 1;
    session.lastActive = Date.now();
    res.once('close', () => {
      session.openResponses -= 1;
      session.lastActive = Date.now();
    });
    await session.transport.handleRequest(req, res, req.body);
  }

  async function openSession(req: McpRequest, res: Response): Promise<void> {
    const server = await factory();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, session);
        logger.debug('session opened', { sessionId, sessions: sessions.size });
      },
    });
    const session: Session = { server, transport, openResponses: 0, lastActive: Date.now() };
    transport.onclose = () => {
      const sessionId = transport.sessionId;
      if (sessionId !== undefined && sessions.delete(sessionId)) {
        logger.debug('session closed', { sessionId, sessions: sessions.size });
      }
    };
    await server.connect(transport);
    await serve(session, req, res);
    // The transport refused the initialize request (bad headers, say): nothing to keep.
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) {
      await closeQuietly(server, logger);
    }
  }

  const sweeper =
    idleTimeoutMs > 0
      ? setInterval(
          () => {
            const now = Date.now();
            for (const [sessionId, session] of sessions) {
              if (session.openResponses > 0 || now - session.lastActive < idleTimeoutMs) continue;
              sessions.delete(sessionId);
              logger.info('session expired after inactivity', { sessionId, idleTimeoutMs });
              void closeQuietly(session.server, logger);
            }
          },
          Math.min(idleTimeoutMs, 60_000),
        )
      : undefined;
  sweeper?.unref();

  return {
    get openCount() {
      return sessions.size;
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
      const session = sessions.get(sessionId);
      if (session === undefined) {
        sendJsonRpcError(res, 404, 'Session not found: it ended or never existed; send initialize again');
        return;
      }
      await serve(session, req, res);
    },
    async closeAll() {
      clearInterval(sweeper);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((session) => closeQuietly(session.server, logger)));
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
