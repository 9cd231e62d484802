import http from 'node:http';
import type { AddressInfo } from 'node:net';
import bodyParser from 'body-parser';
import cors from 'cors';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { DomainLifecycle } from '../domain.js';
import { checkReadiness } from '../health.js';
import { JSONRPC_INTERNAL_ERROR, type ServerFactory, type TransportHost } from '../host.js';
import type { InFlightTracker } from '../in-flight.js';
import type { Logger } from '../runtime/logger.js';
import type { ScopeTable } from '../scopes.js';
import type { TaskBoards } from '../task-boards.js';
import { servedTaskListen, taskListenRefusal } from '../task-listen.js';
import type { TaskListens } from '../task-listens.js';
import { callerPrincipal } from '../principal.js';
import { batchRefusal, bodyRefusal } from './body-refusals.js';
import { cancelledRequestIds, relayCancels } from './cancel-relay.js';
import { bridgeToFetch, type McpRequest } from './fetch-bridge.js';
import { HttpAuth, type AuthRefusal, type Caller } from './http-auth.js';
import type { OAuthSettings } from './oauth-settings.js';
import { JSONRPC_HEADER_MISMATCH, type ParamHeaders } from './param-headers.js';
import { sendJson, sendJsonRpcError } from './responses.js';
import { serveTaskListenStream } from './task-listen-stream.js';
import { HostAllowList, isLoopbackHost, OriginPolicy } from './security.js';

// Built by run-server from the catalog, loaded with this module (it reads the SDK's envelope key).
export { ParamHeaders } from './param-headers.js';

export interface HttpListenerSettings {
  host: string;
  port: number;
  token: string | undefined;
  /** OAuth 2.1 resource server settings; undefined when OAuth is off. */
  oauth: OAuthSettings | undefined;
  allowedHosts: readonly string[] | undefined;
  allowedOrigins: readonly string[] | undefined;
  maxBodyBytes: number;
  /** The most messages a JSON-RPC batch may hold; a longer one gets 400. */
  maxBatch: number;
  /** Open connections at most; more are dropped as they arrive. */
  maxConnections: number;
  /** A connection must send its whole header block within this, else it is closed (slow clients). */
  headersTimeoutMs: number;
  /** ...and its whole request, body included, within this. */
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export interface HttpListenerDeps {
  /** How the person who started the server sets an option (`http.allowedHosts`), for the hints logged. */
  settingName(option: string): string;
  /** The opened domains, for `/readyz` and the cancels relayed to them (cancel-relay.ts). */
  states: ReadonlyMap<string, DomainLifecycle>;
  createServer: ServerFactory;
  /** The scope each tool, resource and prompt needs (checked when the caller came with an OAuth token). */
  scopes: ScopeTable;
  /**
   * The domains' task boards: `tasks/*` need the scope of the tool that created the task, and a listen for task
   * notifications the extension declared (task-listen.ts).
   */
  taskBoards?: TaskBoards;
  /** Serves the listens for task notifications, on the POST's SSE stream (task-listens.ts). */
  taskListens?: TaskListens;
  /** The tools' parameters mirrored into `Mcp-Param-*` headers, checked against a 2026-07-28 tools/call's body. */
  paramHeaders?: ParamHeaders;
  logger: Logger;
  tracker: InFlightTracker;
}

export interface HttpListener extends TransportHost {
  /** `http://host:port/mcp`. */
  url: string;
}

export const MCP_PATH = '/mcp';

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function listen(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      const reason =
        error.code === 'EADDRINUSE'
          ? `port ${port} is already in use (set another http.port, or 0 for any free port)`
          : error.code === 'EADDRNOTAVAIL'
            ? `address ${host} is not available on this machine (check http.host)`
            : error.message;
      reject(new Error(`Cannot listen on ${urlHost(host)}:${port}: ${reason}`, { cause: error }));
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port });
  });
}

type Middleware = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * Runs a connect-style middleware (cors, body-parser): true once it calls `next()`, false when it answered
 * the request itself (a CORS preflight); rejects with the error it passes to `next`.
 */
function passes(
  middleware: Middleware,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<boolean> {
  return new Promise((resolve, reject) => {
    middleware(req, res, (error) => (error === undefined ? resolve(true) : reject(error)));
    if (res.writableEnded) resolve(false);
  });
}

/** How often at most a full connection table is reported (a flood would otherwise flood the log too). */
const DROP_REPORT_INTERVAL_MS = 10_000;

/** A `drop` listener: one warning per interval, with how many connections were dropped since the last. */
function reportDroppedConnections(logger: Logger, maxConnections: number): () => void {
  let dropped = 0;
  let lastReport = Number.NEGATIVE_INFINITY;
  return () => {
    dropped += 1;
    const now = Date.now();
    if (now - lastReport < DROP_REPORT_INTERVAL_MS) return;
    logger.warn('connections dropped: the connection limit is reached', { dropped, maxConnections });
    dropped = 0;
    lastReport = now;
  };
}

function pathOf(url: string | undefined): string {
  const path = (url ?? '/').split('?', 1)[0] ?? '/';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * Streamable HTTP on `/mcp` plus `/healthz` and `/readyz`, behind (in this order) the shutdown gate, the
 * Host allow-list, the Origin check, CORS for explicitly allowed origins, the bearer token, the body limit and
 * the `Mcp-Param-*` headers of a 2026-07-28 tools/call (SEP-2243).
 * `/mcp` is stateless in both protocol eras (the SDK's `createMcpHandler`): every request gets its own
 * server instance over the domains opened once, and nothing lives between requests, so any number of
 * processes can serve one client without affinity.
 * Plain node:http with body-parser and cors rather than express: the routes are three fixed paths, and
 * express's router cost a fifth of the throughput of a cheap tool call.
 */
export async function startHttpListener(
  settings: HttpListenerSettings,
  deps: HttpListenerDeps,
): Promise<HttpListener> {
  const { logger, tracker } = deps;
  const verifier =
    settings.oauth === undefined
      ? undefined
      : (await import('./token-verifiers.js')).createTokenVerifier(settings.oauth);
  const auth = new HttpAuth({ token: settings.token, oauth: settings.oauth, verifier, scopes: deps.scopes });
  const origins = new OriginPolicy(settings.allowedOrigins);
  const explicitHosts =
    settings.allowedHosts === undefined ? undefined : new HostAllowList(settings.allowedHosts);
  // Known once the port is bound (port 0 picks one).
  let hosts: HostAllowList | undefined = explicitHosts;
  let accepting = true;

  const mcpHandler = createMcpHandler(deps.createServer, {
    maxRequestBodySize: settings.maxBodyBytes,
    onerror: (error) => logger.info('MCP request answered with an error', { error }),
  });
  // The parsed body goes to the SDK's handler as it is: serialized again (as `toNodeHandler` does) it would cost
  // CPU, and overflow the stack on deeply nested arguments (they must reach the depth check and get the
  // contract's validation error).
  const serveRequest = bridgeToFetch(mcpHandler, (error) => logger.error('MCP request failed', { error }));
  const jsonBody = bodyParser.json({ limit: settings.maxBodyBytes, type: 'application/json' }) as Middleware;
  const allowedOriginsCors =
    settings.allowedOrigins === undefined
      ? undefined
      : (cors({
          origin: true,
          methods: ['GET', 'POST', 'DELETE'],
          allowedHeaders: [
            'Content-Type',
            'Authorization',
            'Mcp-Session-Id',
            'Mcp-Protocol-Version',
            'Mcp-Method',
            'Mcp-Name',
            ...(deps.paramHeaders?.headerNames ?? []),
            'Last-Event-ID',
          ],
          exposedHeaders: ['Mcp-Session-Id', 'Mcp-Protocol-Version'],
          maxAge: 600,
        }) as Middleware);

  const logRefusal = (req: http.IncomingMessage, status: number, reason: string): void => {
    logger.info('http request refused', { status, method: req.method, path: pathOf(req.url), reason });
  };
  const refuse = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    status: number,
    reason: string,
    code?: number,
    id?: string | number | null,
  ): void => {
    logRefusal(req, status, reason);
    sendJsonRpcError(res, status, reason, code, id);
  };

  /** body-parser's errors become the status a client can act on (see BODY_REFUSALS); only ours are 500. */
  const refuseBody = (req: http.IncomingMessage, res: http.ServerResponse, error: unknown): void => {
    const refusal = bodyRefusal(error, req, settings.maxBodyBytes);
    if (refusal === undefined) {
      logger.error('http request failed', { error, path: pathOf(req.url) });
      sendJsonRpcError(res, 500, 'Internal server error', JSONRPC_INTERNAL_ERROR);
      return;
    }
    refuse(req, res, refusal.status, refusal.message, refusal.code);
  };

  /** Logs the reason category only: never the token, its claims or the header. */
  const refuseAuth = (req: http.IncomingMessage, res: http.ServerResponse, refusal: AuthRefusal): void => {
    logRefusal(req, refusal.status, refusal.reason);
    res.setHeader('WWW-Authenticate', refusal.challenge);
    sendJsonRpcError(res, refusal.status, refusal.message);
  };

  /** The step-up refusal for the first message of the body (one, or a batch) the caller lacks a scope for. */
  const scopeRefusal = (caller: Caller | undefined, body: unknown): AuthRefusal | undefined => {
    for (const message of Array.isArray(body) ? body : [body]) {
      const refusal = auth.checkScope(caller, deps.scopes.needFor(message));
      if (refusal !== undefined) return refusal;
    }
    return undefined;
  };

  /**
   * The same refusal for a `tasks/*` message whose task was created by a tool the caller lacks the scope of (read
   * from the task's board, which may throw).
   */
  const taskScopeRefusal = async (
    caller: Caller | undefined,
    body: unknown,
  ): Promise<AuthRefusal | undefined> => {
    const boards = deps.taskBoards;
    if (caller?.scopes === undefined || boards === undefined) return undefined;
    const principal = callerPrincipal(caller.authInfo);
    for (const message of Array.isArray(body) ? body : [body]) {
      const need = await boards.scopeNeed(message, principal);
      const refusal = auth.checkScope(caller, need);
      if (refusal !== undefined) return refusal;
    }
    return undefined;
  };

  /** A listen the kit serves (task-listen.ts), when some domain keeps tasks. */
  const taskListenOf = (req: McpRequest): ReturnType<typeof servedTaskListen> => {
    if (deps.taskBoards?.any !== true) return undefined;
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    return servedTaskListen(req.body, {
      protocolVersion: header('mcp-protocol-version'),
      method: header('mcp-method'),
    });
  };

  /**
   * Over OAuth, a watched task needs the scope its `tasks/get` needs: one without it is left out as unknown. A
   * found task's verdict is kept for the listen (its tool, so its scope, never changes, nor do the listen's
   * token's scopes), so each poll reads the task once, not once for the scope and again for its state.
   */
  const taskScopeCheck = (caller: Caller) => {
    const verdicts = new Map<string, boolean>();
    return async (taskId: string): Promise<boolean> => {
      const known = verdicts.get(taskId);
      if (known !== undefined) return known;
      const message = { method: 'tasks/get', params: { taskId } };
      const need = await deps.taskBoards?.scopeNeed(message, callerPrincipal(caller.authInfo));
      const allowed = auth.checkScope(caller, need) === undefined;
      // An unknown task needs no scope yet: it is asked again should it appear.
      if (need !== undefined) verdicts.set(taskId, allowed);
      return allowed;
    };
  };

  const serveMcp = async (req: McpRequest, res: http.ServerResponse): Promise<void> => {
    let caller: Caller | undefined;
    if (auth.required) {
      const outcome = await auth.authenticate(req.headers.authorization);
      if ('refusal' in outcome) {
        refuseAuth(req, res, outcome.refusal);
        return;
      }
      caller = outcome.caller;
      req.auth = caller.authInfo;
    }
    if (req.method === 'POST') res.once('close', tracker.begin());
    try {
      await passes(jsonBody, req, res);
    } catch (error) {
      refuseBody(req, res, error);
      return;
    }
    const tooLong = batchRefusal(req.body, settings.maxBatch);
    if (tooLong !== undefined) {
      refuse(req, res, tooLong.status, tooLong.message, tooLong.code);
      return;
    }
    // Before anything acts on the body: a gateway may have routed on these headers.
    const mismatch = deps.paramHeaders?.refusal(req.body, req.headers);
    if (mismatch !== undefined) {
      refuse(req, res, 400, mismatch.message, JSONRPC_HEADER_MISMATCH, mismatch.id);
      return;
    }
    let refusal: AuthRefusal | undefined;
    try {
      refusal = scopeRefusal(caller, req.body) ?? (await taskScopeRefusal(caller, req.body));
    } catch (error) {
      // No task is served unchecked: a board that cannot be read refuses for now.
      logger.warn('the scope of a task could not be read', { error });
      refuse(req, res, 503, 'Service Unavailable: the task could not be read; try again');
      return;
    }
    if (refusal !== undefined) {
      refuseAuth(req, res, refusal);
      return;
    }
    const listenRefusal = deps.taskBoards?.any === true ? taskListenRefusal(req.body) : undefined;
    if (listenRefusal !== undefined) {
      // Answered whole: the -32021 error carries the required capabilities in its data.
      logRefusal(req, 400, listenRefusal.error.message);
      sendJson(res, 400, listenRefusal);
      return;
    }
    const taskListen = taskListenOf(req);
    if (taskListen !== undefined && deps.taskListens !== undefined) {
      const readable = caller?.scopes === undefined ? undefined : taskScopeCheck(caller);
      const listenCaller = { authInfo: req.auth, ...(readable === undefined ? {} : { mayRead: readable }) };
      const refused = await serveTaskListenStream(deps.taskListens, taskListen, listenCaller, res);
      if (refused !== undefined) logRefusal(req, 200, refused.error.message);
      return;
    }
    const cancelled = cancelledRequestIds(req.body);
    if (cancelled.length > 0) await relayCancels(deps.states, callerPrincipal(req.auth), cancelled, logger);
    await serveRequest(req, res);
  };

  const route = async (req: McpRequest, res: http.ServerResponse): Promise<void> => {
    if (!accepting) {
      res.setHeader('Connection', 'close');
      refuse(req, res, 503, 'Server is shutting down');
      return;
    }
    if (hosts !== undefined && !hosts.allows(req.headers.host)) {
      refuse(req, res, 403, `Host "${req.headers.host ?? ''}" is not allowed (DNS-rebinding protection)`);
      return;
    }
    if (!origins.allows(req.headers.origin, req.headers.host)) {
      refuse(req, res, 403, `Origin "${req.headers.origin ?? ''}" is not allowed`);
      return;
    }
    if (allowedOriginsCors !== undefined && !(await passes(allowedOriginsCors, req, res))) return;
    const path = pathOf(req.url);
    const isGet = req.method === 'GET' || req.method === 'HEAD';
    const resourceMetadata = isGet ? auth.protectedResourceMetadata(path) : undefined;
    if (path === MCP_PATH) {
      await serveMcp(req, res);
    } else if (resourceMetadata !== undefined) {
      sendJson(res, 200, resourceMetadata);
    } else if (path === '/healthz' && isGet) {
      sendJson(res, 200, { status: 'ok' });
    } else if (path === '/readyz' && isGet) {
      const report = await checkReadiness(deps.states, logger);
      if (report.ready) sendJson(res, 200, { status: 'ready' });
      else sendJson(res, 503, { status: 'not-ready', notReady: report.notReady });
    } else {
      sendJson(res, 404, { error: `Not found: ${path}. The MCP endpoint is ${MCP_PATH}` });
    }
  };

  const server = http.createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this interval (default 30 s, which would stretch them).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(settings.headersTimeoutMs / 2))),
    },
    (req, res) => {
      route(req, res).catch((error: unknown) => {
        logger.error('http request failed', { error, path: pathOf(req.url) });
        sendJsonRpcError(res, 500, 'Internal server error', JSONRPC_INTERNAL_ERROR);
      });
    },
  );
  server.maxConnections = settings.maxConnections;
  server.on('drop', reportDroppedConnections(logger, settings.maxConnections));
  const port = await listen(server, settings.host, settings.port);
  if (hosts === undefined && isLoopbackHost(settings.host)) hosts = HostAllowList.loopback(port);
  if (hosts === undefined) {
    logger.warn(
      `no Host allow-list: set ${deps.settingName('http.allowedHosts')} to the names clients use to reach this server`,
    );
  }
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));

  return {
    url: `http://${urlHost(settings.host)}:${port}${MCP_PATH}`,
    stopAccepting() {
      if (!accepting) return;
      accepting = false;
      // An open listen is a POST in flight: ended now, with its final result, it does not hold the close.
      deps.taskListens?.closeAll();
      server.close();
      server.closeIdleConnections();
    },
    async closeAll() {
      await mcpHandler.close();
      server.closeAllConnections();
      if (server.listening) server.close();
      await closed;
    },
  };
}
