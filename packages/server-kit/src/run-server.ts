import { registerSecret } from '@switchyard/resilience/context';
import { buildCatalog, type CatalogOptions } from './catalog.js';
import type { DomainLifecycle, Mount } from './domain.js';
import type { TransportHost } from './host.js';
import type { HttpListenerSettings } from './http/http-server.js';
import { resolveOAuthSettings, type OAuthOptions } from './http/oauth-settings.js';
import { isLoopbackHost } from './http/security.js';
import { InFlightTracker } from './in-flight.js';
import { DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_REQUEST_TIMEOUT_MS, resolveLimit, type Env } from './limits.js';
import {
  resolveInputRounds,
  resolveRequestStateSettings,
  type InputRoundOptions,
  type RequestStateOptions,
} from './request-state.js';
import type { ServerIdentity } from './mcp-server.js';
import { openDomains } from './open-domains.js';
import { resolveDataDir } from './runtime/data-dir.js';
import { lazy } from './runtime/lazy.js';
import { createLogger, resolveLogFormat, resolveLogLevel, type Logger } from './runtime/logger.js';
import { ScopeTable } from './scopes.js';
import { handlerStateOf, TaskBoards } from './task-boards.js';
import { resolveTaskSettings, type TaskOptions } from './task-wire.js';

export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 3333;
/** The default body limit, before modules raise it (kept for callers of earlier versions). */
export const DEFAULT_MAX_BODY_BYTES = DEFAULT_MAX_MESSAGE_BYTES;
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** Shorter tokens are refused: a network-facing server needs a token nobody can guess. */
export const MIN_TOKEN_LENGTH = 16;
/** After the grace period, how long aborted calls get to send their error response before transports close. */
const ABORT_SETTLE_MS = 1_000;
// The MCP SDK loads when a server starts serving, not when a domain package imports this one: domain code
// (declarations, logic, tests of either) never loads it. HTTP's stack loads only when serving HTTP.
const loadServerFactory = lazy(() => import('./mcp-server.js'));
const loadStdioHost = lazy(() => import('./stdio/stdio-host.js'));
const loadHttpListener = lazy(() => import('./http/http-server.js'));

export interface HttpServerOptions {
  /** Interface to bind; default 127.0.0.1. Anything but loopback requires `token` or `oauth`. */
  host?: string;
  /** Default 3333; 0 picks any free port (read it from `RunningServer.url`). */
  port?: number;
  /** Bearer token: every /mcp request without `Authorization: Bearer <token>` gets 401. */
  token?: string;
  /**
   * OAuth 2.1 resource server: access tokens from the trusted issuers, for this server's resource URI, with
   * the scope each tool needs. Default: from the SWITCHYARD_OAUTH_* variables and SWITCHYARD_RESOURCE_URL
   * (off when no issuer is set). With `token` as well, that token is accepted too (with every scope).
   */
  oauth?: OAuthOptions;
  /**
   * Host header allow-list (`name` for any port, `name:port` for one). Default when bound to loopback:
   * localhost, 127.0.0.1 and [::1] on the bound port; otherwise no Host check.
   */
  allowedHosts?: string[];
  /**
   * Origin allow-list for browser clients (also gets CORS headers). Default: only the server's own
   * origin. A request with any other Origin gets 403; requests without Origin pass.
   */
  allowedOrigins?: string[];
  /**
   * Largest accepted request body, beyond it 413 (SWITCHYARD_HTTP_MAX_BODY_BYTES). Default 1 MiB, or the
   * largest `maxRequestBytes` a mounted module declares, whichever is larger.
   */
  maxBodyBytes?: number;
  /**
   * The most messages one POST may carry in a JSON-RPC batch (2025-era clients), beyond it 400
   * (SWITCHYARD_HTTP_MAX_BATCH). Default 100, which is also the most: the MCP SDK answers no longer batch.
   */
  maxBatch?: number;
  /** Open connections at most; more are dropped (SWITCHYARD_HTTP_MAX_CONNECTIONS, default 512). */
  maxConnections?: number;
  /** A connection that has not sent its headers within this is closed (SWITCHYARD_HTTP_HEADERS_TIMEOUT_MS, 10 s). */
  headersTimeoutMs?: number;
  /** ...nor its whole request, body included, within this (SWITCHYARD_HTTP_REQUEST_TIMEOUT_MS, 30 s). */
  requestTimeoutMs?: number;
  /** An idle kept-alive connection is closed after this (SWITCHYARD_HTTP_KEEP_ALIVE_TIMEOUT_MS, 5 s). */
  keepAliveTimeoutMs?: number;
}

export interface StdioServerOptions {
  /**
   * Largest message (one line) accepted; a larger one is answered with a JSON-RPC error and skipped
   * (SWITCHYARD_STDIO_MAX_MESSAGE_BYTES). Default as `http.maxBodyBytes`: 1 MiB, or the largest
   * `maxRequestBytes` a mounted module declares.
   */
  maxMessageBytes?: number;
}

export interface RunServerOptions extends CatalogOptions, ServerIdentity {
  /** Default stdio. */
  transport?: 'stdio' | 'http';
  http?: HttpServerOptions;
  stdio?: StdioServerOptions;
  /**
   * How deep tool arguments may nest, objects and arrays (SWITCHYARD_MAX_ARGUMENT_DEPTH, default 64):
   * deeper arguments get the contract's validation error.
   */
  maxArgumentDepth?: number;
  /**
   * The most bytes one answer may take, payload and text mirror serialized (SWITCHYARD_MAX_ANSWER_BYTES,
   * default 1 MiB, at least 64 KiB); a 2025-era HTTP batch shares one. Lists are cut to it with a cursor or a
   * warning saying how to get the rest.
   */
  maxAnswerBytes?: number;
  /**
   * How a handler's request state (multi round-trip requests, `askClient`) is sealed: the HMAC key
   * (SWITCHYARD_REQUEST_STATE_KEY, default a random per-process key: set one shared key on every replica behind
   * one URL), its largest size and its lifetime.
   */
  requestState?: RequestStateOptions;
  /**
   * 2025-11-25 over stdio, where the server asks the client itself: the most rounds for one request
   * (SWITCHYARD_INPUT_MAX_ROUNDS, default 8) and how long each may take (SWITCHYARD_INPUT_ROUND_TIMEOUT_MS,
   * default 600 000).
   */
  inputRequired?: InputRoundOptions;
  /**
   * The Tasks extension: how long a task may be kept (SWITCHYARD_TASK_TTL_MS, default 86 400 000), the poll
   * interval every task carries, faster polls waiting the rest (SWITCHYARD_TASK_POLL_INTERVAL_MS, default 1000),
   * and how long a `when-slow` tool works before answering with a task (SWITCHYARD_TASK_AFTER_MS, default 2000).
   */
  tasks?: TaskOptions;
  /** Where the SWITCHYARD_* bound variables are read from (an option set here wins); default process.env. */
  env?: Env;
  /** Default `resolveDataDir()`. */
  dataDir?: string;
  /** Default `createLogger()` (on stderr: JSON lines, or text on a terminal; SWITCHYARD_LOG_FORMAT). */
  logger?: Logger;
  /** Turn contract violations in tool output into internal errors (tests). */
  strictOutput?: boolean;
  /** How long shutdown waits for in-flight calls before aborting them; default 10 000 ms. */
  shutdownGraceMs?: number;
  /** Default true: SIGINT/SIGTERM shut down gracefully, then the process exits (0, or 1 if a domain failed to close). */
  handleSignals?: boolean;
  /**
   * How the person who starts the server sets an option that a start-up hint in the log names, e.g. a bin's
   * `{ 'http.allowedHosts': '--allowed-hosts (SWITCHYARD_ALLOWED_HOSTS)' }`. Default: the option's name.
   */
  settingNames?: Readonly<Record<string, string>>;
}

export interface RunningServer {
  /** `http://HOST:PORT/mcp` when serving over HTTP. */
  url?: string;
  /** Each mounted domain's state, as its `open` returned it (tests and embedding reach a domain's API here). */
  domains: ReadonlyMap<string, DomainLifecycle>;
  /**
   * Stops accepting, lets in-flight calls finish within the grace period (then aborts them), closes the
   * transports and then every domain in order. Idempotent: later calls return the same promise. Rejects
   * (after closing everything it could) when a domain's `close()` failed.
   */
  close(): Promise<void>;
}

function fail(message: string): never {
  throw new Error(`runServer: ${message}`);
}

type AnyMount = Mount<unknown, DomainLifecycle>;

/** The instructions, ending with what the configuration leaves out (a client may never see the log). */
function withUnavailable(
  instructions: string | undefined,
  unavailable: string | undefined,
): string | undefined {
  if (unavailable === undefined) return instructions;
  return instructions === undefined ? unavailable : `${instructions}\n\n${unavailable}`;
}

/**
 * The default size limit of one message (HTTP body or stdio line): 1 MiB raised to what the domains say
 * their tools accept (a journey document of the largest allowed size must reach its tool, not stop at 413).
 */
function defaultMessageLimit(mounts: readonly AnyMount[]): number {
  return Math.max(
    DEFAULT_MAX_MESSAGE_BYTES,
    ...mounts.map(({ domain, config }) => domain.maxRequestBytes?.(config) ?? 0),
  );
}

function resolveHttpSettings(
  http: HttpServerOptions,
  mounts: readonly AnyMount[],
  env: Env,
): HttpListenerSettings {
  const host = http.host?.trim() || DEFAULT_HTTP_HOST;
  const port = http.port ?? DEFAULT_HTTP_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    fail(`http.port must be an integer from 0 to 65535 (0 = any free port), got ${String(port)}`);
  }
  const headersTimeoutMs = resolveLimit('httpHeadersTimeoutMs', http.headersTimeoutMs, env);
  // A headers timeout set above the request timeout's default raises that default with it.
  const requestTimeoutMs = resolveLimit(
    'httpRequestTimeoutMs',
    http.requestTimeoutMs,
    env,
    Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeoutMs),
  );
  if (requestTimeoutMs < headersTimeoutMs) {
    fail(
      `the request timeout (${requestTimeoutMs} ms) must be at least the headers timeout (${headersTimeoutMs} ms): ` +
        'the headers are part of the request',
    );
  }
  const token = http.token === undefined || http.token === '' ? undefined : http.token;
  if (token !== undefined && (token.length < MIN_TOKEN_LENGTH || /\s/.test(token))) {
    fail(
      `the bearer token (http.token) must be at least ${MIN_TOKEN_LENGTH} characters without spaces ` +
        '(generate one with `openssl rand -hex 32`)',
    );
  }
  const oauth = resolveOAuthSettings(http.oauth, env);
  if (token === undefined && oauth === undefined && !isLoopbackHost(host)) {
    fail(
      `refusing to listen on ${host} without a token or OAuth: anyone who can reach it could call every tool. ` +
        'Set a bearer token (http.token), configure OAuth ' +
        '(SWITCHYARD_OAUTH_ISSUER and SWITCHYARD_RESOURCE_URL) or bind to 127.0.0.1.',
    );
  }
  if (http.allowedHosts !== undefined && http.allowedHosts.length === 0) {
    fail('http.allowedHosts is empty, so every request would be refused: list at least one host, or omit it');
  }
  return {
    host,
    port,
    token,
    oauth,
    allowedHosts: http.allowedHosts,
    allowedOrigins: http.allowedOrigins,
    maxBodyBytes: resolveLimit('httpMaxBodyBytes', http.maxBodyBytes, env, defaultMessageLimit(mounts)),
    maxBatch: resolveLimit('httpMaxBatch', http.maxBatch, env),
    maxConnections: resolveLimit('httpMaxConnections', http.maxConnections, env),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: resolveLimit('httpKeepAliveTimeoutMs', http.keepAliveTimeoutMs, env),
  };
}

/**
 * Serves the mounted domains over stdio or Streamable HTTP until `close()` (or a signal). A domain's own bin
 * mounts one domain, the combined server all of them: the same code path. The options and the catalog (tool
 * names, filters, collisions) are checked before any domain is opened; a domain that fails to open closes
 * the ones opened before it, and the error is thrown.
 */
export async function runServer(
  mounts: readonly AnyMount[],
  options: RunServerOptions,
): Promise<RunningServer> {
  const transport = options.transport ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'http') {
    fail(`transport must be "stdio" or "http", got ${JSON.stringify(transport)}`);
  }
  const env = options.env ?? process.env;
  const logLevel = resolveLogLevel(env);
  const logFormat = resolveLogFormat(env);
  const httpSettings =
    transport === 'http' ? resolveHttpSettings(options.http ?? {}, mounts, env) : undefined;
  const stdioMaxMessageBytes =
    transport === 'stdio'
      ? resolveLimit('stdioMaxMessageBytes', options.stdio?.maxMessageBytes, env, defaultMessageLimit(mounts))
      : 0;
  const maxArgumentDepth = resolveLimit('maxArgumentDepth', options.maxArgumentDepth, env);
  const maxAnswerBytes = resolveLimit('maxAnswerBytes', options.maxAnswerBytes, env);
  const requestState = resolveRequestStateSettings(options.requestState ?? {}, env);
  const inputRounds = resolveInputRounds(options.inputRequired ?? {}, env);
  const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  if (!Number.isFinite(graceMs) || graceMs < 0) {
    fail(`shutdownGraceMs must be a number of milliseconds >= 0, got ${String(graceMs)}`);
  }
  const catalog = buildCatalog(mounts, options);
  const scopes = new ScopeTable(catalog);
  registerSecret(httpSettings?.token);
  const logger = options.logger ?? createLogger({ level: logLevel, format: logFormat });
  const dataDir = options.dataDir ?? resolveDataDir(env);
  const tracker = new InFlightTracker();
  const shutdown = new AbortController();
  const opened = await openDomains(mounts, { logger, dataDir, env, shutdownSignal: shutdown.signal });
  const identity: ServerIdentity = {
    name: options.name,
    version: options.version,
    title: options.title,
    websiteUrl: options.websiteUrl,
    icon: options.icon,
    instructions: withUnavailable(options.instructions, catalog.unavailable.summary()),
  };
  const { buildServerFactory } = await loadServerFactory();
  const taskBoards = new TaskBoards(catalog, handlerStateOf(catalog, opened.states));
  const createServer = buildServerFactory(identity, {
    catalog,
    states: opened.states,
    loggers: opened.loggers,
    strictOutput: options.strictOutput ?? false,
    maxArgumentDepth,
    maxAnswerBytes,
    shutdownSignal: shutdown.signal,
    persistentConnection: transport === 'stdio',
    requestState,
    inputRounds,
    tasks: resolveTaskSettings(options.tasks ?? {}, env),
    taskBoards,
  });

  let closing: Promise<void> | undefined;
  let host: TransportHost | undefined;
  let url: string | undefined;

  const close = (): Promise<void> => {
    closing ??= (async () => {
      logger.info('shutting down', { inFlight: tracker.count });
      host?.stopAccepting();
      if (!(await tracker.whenIdle(graceMs))) {
        logger.warn('grace period over: aborting calls still in flight', {
          inFlight: tracker.count,
          graceMs,
        });
        // Aborted calls still answer (a `cancelled` error payload) if they stop promptly; then the
        // transports close regardless.
        shutdown.abort(new Error('The server is shutting down'));
        await tracker.whenIdle(ABORT_SETTLE_MS);
      }
      await host?.closeAll();
      const failures = await opened.close();
      removeSignalHandlers();
      logger.info('stopped');
      if (failures.length > 0) throw new AggregateError(failures, failures.map((f) => f.message).join('; '));
    })();
    return closing;
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    if (closing !== undefined) {
      logger.warn('second signal during shutdown: exiting now', { signal });
      process.exit(1);
    }
    logger.info('signal received', { signal });
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error });
        process.exit(1);
      },
    );
  };
  const handleSignals = options.handleSignals ?? true;
  const removeSignalHandlers = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };

  try {
    if (httpSettings !== undefined) {
      const { startHttpListener, ParamHeaders } = await loadHttpListener();
      const listener = await startHttpListener(httpSettings, {
        settingName: (option) => options.settingNames?.[option] ?? option,
        states: opened.states,
        createServer,
        scopes,
        taskBoards,
        taskListens: createServer.taskListens,
        paramHeaders: new ParamHeaders(catalog),
        logger,
        tracker,
      });
      host = listener;
      url = listener.url;
    } else {
      const { startStdioHost } = await loadStdioHost();
      host = startStdioHost({
        createServer,
        tracker,
        logger,
        maxMessageBytes: stdioMaxMessageBytes,
        taskBoards,
        taskListens: createServer.taskListens,
        onInputEnd: () => {
          logger.info('stdin closed');
          close().catch((error: unknown) => logger.error('shutdown failed', { error }));
        },
      });
    }
  } catch (error) {
    // Could not listen (port in use, say): nothing is served, so the domains close again.
    await opened.close();
    throw error;
  }
  // Before saying it serves: a supervisor that stops the server as soon as it reads that gets a graceful
  // shutdown, not Node's default exit on the signal (domains left open, no exit handlers).
  if (handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  if (httpSettings !== undefined) {
    logger.info('listening', {
      transport: 'http',
      url,
      oauthIssuers: httpSettings.oauth?.issuers,
      resource: httpSettings.oauth?.resource.href,
    });
  } else {
    logger.info('serving', { transport: 'stdio' });
  }

  return { url, domains: opened.states, close };
}
