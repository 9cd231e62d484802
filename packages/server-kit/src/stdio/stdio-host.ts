import type { Readable, Writable } from 'node:stream';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { ServerFactory, TransportHost } from '../host.js';
import type { InFlightTracker } from '../in-flight.js';
import type { Logger } from '../runtime/logger.js';
import type { TaskBoards } from '../task-boards.js';
import type { TaskListens } from '../task-listens.js';
import { BoundedStdioServerTransport } from './bounded-stdio-transport.js';
import { InterceptingTransport } from './intercepting-transport.js';
import { taskListenRefusalTap, taskListenTap } from './task-listen-tap.js';
import { TrackedTransport } from './tracked-transport.js';

export interface StdioHostDeps {
  createServer: ServerFactory;
  tracker: InFlightTracker;
  logger: Logger;
  /** A message (one line) larger than this is answered with a JSON-RPC error and skipped. */
  maxMessageBytes: number;
  /** The domains' task boards: when some domain keeps tasks, a listen for them is checked (task-listen.ts)... */
  taskBoards?: TaskBoards;
  /** ...and served by the kit (task-listens.ts). */
  taskListens?: TaskListens;
  /** Called once when the client closes stdin (it went away: time to shut down). */
  onInputEnd: () => void;
  stdin?: Readable;
  stdout?: Writable;
}

/**
 * MCP over stdin/stdout for one client, in whichever era it opens with (the SDK's `serveStdio` pins one
 * server instance to the connection). stdout carries only the protocol; logs go to stderr.
 */
export function startStdioHost(deps: StdioHostDeps): TransportHost {
  const stdin = deps.stdin ?? process.stdin;
  const stdout = deps.stdout ?? process.stdout;
  const bounded = new BoundedStdioServerTransport(stdin, stdout, deps.maxMessageBytes, deps.logger);
  const { taskListens } = deps;
  const taps =
    deps.taskBoards?.any === true
      ? [
          taskListenRefusalTap,
          ...(taskListens === undefined ? [] : [taskListenTap(taskListens, deps.logger)]),
        ]
      : [];
  // Beneath the tracker: an open listen is no call in flight, so shutdown does not wait for it.
  const transport = new TrackedTransport(
    taps.length > 0 ? new InterceptingTransport(bounded, taps) : bounded,
    deps.tracker,
  );
  const handle = serveStdio(deps.createServer, {
    transport,
    onerror: (error) => deps.logger.warn('stdio connection error', { error }),
  });

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
      taskListens?.closeAll();
    },
    async closeAll() {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      await handle.close();
    },
  };
}
