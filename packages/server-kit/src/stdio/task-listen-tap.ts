import type { RequestId } from '@modelcontextprotocol/server';
import type { Logger } from '../runtime/logger.js';
import { servedTaskListen, taskListenRefusal } from '../task-listen.js';
import type { TaskListens } from '../task-listens.js';
import type { MessageTap } from './intercepting-transport.js';
import { isNotification } from './message-kind.js';

/** Answers a listen naming `taskIds` whose client does not declare the extension (-32021). */
export const taskListenRefusalTap: MessageTap = {
  take(message, send) {
    const refusal = taskListenRefusal(message);
    if (refusal !== undefined) send(refusal);
    return refusal !== undefined;
  },
};

/**
 * The listens for task notifications of one stdio connection (task-listens.ts): their notifications go out on the
 * connection, stamped with the listen's id; `notifications/cancelled` naming one ends it, and so does the
 * connection's close.
 */
export function taskListenTap(listens: TaskListens, logger: Logger): MessageTap {
  const open = new Map<RequestId, AbortController>();
  return {
    take(message, send) {
      if (isNotification(message) && message.method === 'notifications/cancelled') {
        const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
        const listen = requestId === undefined ? undefined : open.get(requestId);
        listen?.abort();
        return listen !== undefined;
      }
      const request = servedTaskListen(message);
      if (request === undefined) return false;
      const abort = new AbortController();
      open.set(request.id, abort);
      const sink = { send, end: () => open.delete(request.id) };
      listens.serve(request, { authInfo: undefined }, sink, abort.signal).then(
        (refusal) => {
          if (refusal === undefined) return;
          open.delete(request.id);
          logger.info('task listen refused', { reason: refusal.error.message });
          send(refusal);
        },
        (error: unknown) => logger.error('task listen failed', { error }),
      );
      return true;
    },
    closed() {
      for (const listen of open.values()) listen.abort();
    },
  };
}
