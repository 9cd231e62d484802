import type { Readable, Writable } from 'node:stream';
import type { McpServerFactory, TransportHost } from '../host.js';
import type { InFlightTracker } from '../in-flight.js';
import type { Logger } from '../logger.js';
import { BoundedStdioServerTransport } from './bounded-stdio-transport.js';
import { TrackedTransport } from './tracked-transport.js';

export interface StdioHostDeps {
  createServer: McpServerFactory;
  tracker: InFlightTracker;
  logger: Logger;
  /** A message (one line) larger than this is answered with a JSON-RPC error and skipped. */
  maxMessageBytes: number;
  /** Called once when the client closes stdin (it went away: time to shut down). */
  onInputEnd: () => void;
  stdin?: Readable;
  stdout?: Writable;
}

/** One McpServer over stdin/stdout. stdout carries only the protocol; logs go to stderr. */
export async function startStdioHost(deps: StdioHostDeps): Promise<TransportHost> {
  const stdin = deps.stdin ?? process.stdin;
  const stdout = deps.stdout ?? process.stdout;
  const server = await deps.createServer();
  const transport = new TrackedTransport(
    new BoundedStdioServerTransport(stdin, stdout, deps.maxMessageBytes, deps.logger),
    deps.tracker,
  );
  await server.connect(transport);

  let ended = false;
  const onEnd = (): void => {
    if (ended) return;
    ended = true;
    deps.onInputEnd();
  };
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);

  return {
    stopAccepting() {
      transport.stopAccepting();
    },
    async closeAll() {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      await server.close();
    },
  };
}
