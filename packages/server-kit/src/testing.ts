import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CompositionOptions } from './compose.js';
import { createMcpServer } from './compose.js';
import type { DomainModule } from './domain-module.js';
import { createLogger, type Logger } from './logger.js';

export interface InMemoryConnection {
  client: Client;
  /** Closes the client and the server (not the modules: call `module.close()` yourself). */
  close(): Promise<void>;
}

export interface ConnectInMemoryOptions extends CompositionOptions {
  dataDir?: string;
  logger?: Logger;
  /** Contract violations become internal errors (default true in tests). */
  strictOutput?: boolean;
  /** How deep tool arguments may nest (default 64). */
  maxArgumentDepth?: number;
}

/** A real SDK Client connected to `modules` over InMemoryTransport: the contract-test harness. */
export async function connectInMemory(
  modules: readonly DomainModule[],
  options: ConnectInMemoryOptions = {},
): Promise<InMemoryConnection> {
  const { dataDir, logger, strictOutput, ...composition } = options;
  const server = await createMcpServer(modules, {
    ...composition,
    name: 'switchyard-test',
    version: '0.0.0',
    logger: logger ?? createLogger({ level: 'warn' }),
    dataDir: dataDir ?? process.cwd(),
    strictOutput: strictOutput ?? true,
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'switchyard-test-client', version: '0.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

export {
  connectRecordingImports,
  DRIZZLE_QUERY_BUILDER,
  recordPackageImports,
  type PackageImportLog,
  type RecordedStdioBin,
  type StdioBinOptions,
} from './package-imports.js';
export { rawHttpRequest, type RawHttpRequest, type RawHttpResponse } from './raw-http.js';
