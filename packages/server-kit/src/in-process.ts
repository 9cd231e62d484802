import { buildCatalog, type CatalogOptions } from './catalog.js';
import type { DomainLifecycle, Env, Mount } from './domain.js';
import { DEFAULT_MAX_ANSWER_BYTES, DEFAULT_MAX_ARGUMENT_DEPTH } from './limits.js';
import { buildServerFactory, type KitServerFactory, type ServerIdentity } from './mcp-server.js';
import { openDomains } from './open-domains.js';
import {
  resolveInputRounds,
  resolveRequestStateSettings,
  type RequestStateOptions,
} from './request-state.js';
import { handlerStateOf, TaskBoards } from './task-boards.js';
import { resolveTaskSettings, type TaskOptions } from './task-wire.js';
import type { Logger } from './runtime/logger.js';

export interface InProcessOptions extends CatalogOptions {
  logger: Logger;
  dataDir: string;
  env: Env;
  strictOutput: boolean;
  maxArgumentDepth?: number;
  /** The answer limit in bytes (default 1 MiB). */
  maxAnswerBytes?: number;
  /** True when one server instance serves a whole connection (stdio, the legacy in-memory pair). */
  persistentConnection: boolean;
  /** How request state is sealed (default: the environment's settings, else a random key). */
  requestState?: RequestStateOptions;
  /** The Tasks extension's settings (default: the environment's, else the defaults). */
  tasks?: TaskOptions;
}

export interface InProcessServing {
  /** The server factory, with the listens for task notifications it serves (`createServer.taskListens`). */
  createServer: KitServerFactory;
  /** The mounted domains' task boards, for a transport host's task checks. */
  taskBoards: TaskBoards;
  /** Each mounted domain's state, as its `open` returned it. */
  domains: ReadonlyMap<string, DomainLifecycle>;
  /** Aborts what still runs and closes every domain. */
  close(): Promise<void>;
}

const IDENTITY: ServerIdentity = { name: 'switchyard-test', version: '0.0.0' };

/**
 * Opens `mounts` and builds the server factory over them, as `runServer` does, for serving inside the
 * calling process (the test harness); the caller brings the transport.
 */
export async function serveInProcess(
  mounts: readonly Mount<unknown, DomainLifecycle>[],
  options: InProcessOptions,
): Promise<InProcessServing> {
  const shutdown = new AbortController();
  const catalog = buildCatalog(mounts, options);
  const opened = await openDomains(mounts, {
    logger: options.logger,
    dataDir: options.dataDir,
    env: options.env,
    shutdownSignal: shutdown.signal,
  });
  const identity = { ...IDENTITY, instructions: catalog.unavailable.summary() };
  const taskBoards = new TaskBoards(catalog, handlerStateOf(catalog, opened.states));
  const createServer = buildServerFactory(identity, {
    catalog,
    states: opened.states,
    loggers: opened.loggers,
    strictOutput: options.strictOutput,
    maxArgumentDepth: options.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH,
    maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    shutdownSignal: shutdown.signal,
    persistentConnection: options.persistentConnection,
    requestState: resolveRequestStateSettings(options.requestState ?? {}, options.env),
    inputRounds: resolveInputRounds({}, options.env),
    tasks: resolveTaskSettings(options.tasks ?? {}, options.env),
    taskBoards,
  });
  return {
    createServer,
    taskBoards,
    domains: opened.states,
    async close() {
      shutdown.abort();
      await opened.close();
    },
  };
}
