import {
  StreamableHTTPClientTransport,
  type Client,
  type ClientCapabilities,
} from '@modelcontextprotocol/client';
import { createMcpHandler, InMemoryTransport, type AuthInfo } from '@modelcontextprotocol/server';
import type { CatalogOptions } from './catalog.js';
import type { DomainLifecycle, Env, Mount } from './domain.js';
import { serveInProcess } from './in-process.js';
import type { RequestStateOptions } from './request-state.js';
import { createLogger, type Logger } from './runtime/logger.js';
import { clientFor, type ProtocolEra } from './testing-clients.js';

export interface InMemoryConnection {
  client: Client;
  /** Each mounted domain's state, as its `open` returned it. */
  domains: ReadonlyMap<string, DomainLifecycle>;
  /** Closes the client, the server and every domain. */
  close(): Promise<void>;
}

export interface ConnectInMemoryOptions extends CatalogOptions {
  /** Default 'modern'. */
  era?: ProtocolEra;
  dataDir?: string;
  env?: Env;
  logger?: Logger;
  /** Contract violations become internal errors (default true in tests). */
  strictOutput?: boolean;
  /** How deep tool arguments may nest (default 64). */
  maxArgumentDepth?: number;
  /** The answer limit in bytes (default 1 MiB). */
  maxAnswerBytes?: number;
  /** Modern era only: who the requests come from, as a bearer token check in front would say. */
  authInfo?: AuthInfo;
  /** What the client declares (default none); register its handlers on `client` before asking. */
  clientCapabilities?: ClientCapabilities;
  /** How request state is sealed (default a random key). */
  requestState?: RequestStateOptions;
}

/**
 * The contract-test harness: opens `mounts`, serves them in process and connects a real SDK client. The
 * modern era goes through the SDK's HTTP handler (its `fetch`, no socket), the legacy era over an
 * in-memory transport pair: each era's own serving path, as a process serves it.
 */
export async function connectInMemory(
  mounts: readonly Mount<unknown, DomainLifecycle>[],
  options: ConnectInMemoryOptions = {},
): Promise<InMemoryConnection> {
  const era = options.era ?? 'modern';
  const serving = await serveInProcess(mounts, {
    ...options,
    logger: options.logger ?? createLogger({ level: 'warn' }),
    dataDir: options.dataDir ?? process.cwd(),
    env: options.env ?? {},
    strictOutput: options.strictOutput ?? true,
    persistentConnection: era === 'legacy',
  });
  const { createServer } = serving;
  const client = clientFor(era, undefined, options.clientCapabilities);
  let closeServer: () => Promise<void>;
  if (era === 'modern') {
    const handler = createMcpHandler(createServer);
    const authInfo = options.authInfo;
    const transport = new StreamableHTTPClientTransport(new URL('http://in-process.invalid/mcp'), {
      fetch: (url, init) =>
        handler.fetch(new Request(url, init), authInfo === undefined ? undefined : { authInfo }),
    });
    await client.connect(transport);
    closeServer = () => handler.close();
  } else {
    const server = createServer({ era: 'legacy' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    closeServer = () => server.close();
  }
  return {
    client,
    domains: serving.domains,
    async close() {
      await client.close();
      await closeServer();
      await serving.close();
    },
  };
}

export { clientFor, MODERN_PROTOCOL_VERSION, type ProtocolEra } from './testing-clients.js';
export {
  callTool,
  contractErrorOf,
  errorOf,
  viewsNamedBy,
  type ContractError,
  type ToolAnswer,
} from './testing-answers.js';
export {
  compiledModules,
  connectRecordingImports,
  packagesImportedBy,
  DRIZZLE_QUERY_BUILDER,
  recordPackageImports,
  type PackageImportLog,
  type RecordedStdioBin,
  type StdioBinOptions,
} from './package-imports.js';
export { rawHttpRequest, type RawHttpRequest, type RawHttpResponse } from './raw-http.js';
export { freePort } from './free-port.js';
export {
  cpuByArea,
  cpuProfileArgs,
  monotonicMicros,
  processCpuMs,
  writtenProfiles,
  type CpuProfile,
  type CpuSummary,
  type WrittenProfile,
} from './cpu-profile.js';
export { readWhenWritten } from './when-written.js';
export {
  DECLARES_TASKS,
  jsonRpcAnswerOf,
  MODERN_META,
  modernRequest,
  overHttp,
  overStdio,
  postModern,
  TaskRequester,
  type InputAnswerer,
  type SendRequest,
} from './testing-tasks.js';
