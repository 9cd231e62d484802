import type { DomainLifecycle } from '../domain.js';
import type { Logger } from '../runtime/logger.js';

/**
 * The ids (as JSON text) of the requests a POST body's `notifications/cancelled` messages name, one message
 * or a batch. Over stateless HTTP the SDK answers such a POST 202 and drops it: the request it names runs in
 * another server instance, usually another process behind the same load balancer.
 */
export function cancelledRequestIds(body: unknown): string[] {
  const ids: string[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { requestId?: unknown } };
    const requestId = method === 'notifications/cancelled' ? params?.requestId : undefined;
    if (typeof requestId === 'string' || (typeof requestId === 'number' && Number.isFinite(requestId)))
      ids.push(JSON.stringify(requestId));
  }
  return ids;
}

/**
 * Hands each cancelled request (`cancelledRequestIds` of a POST body) to every opened domain that can reach a
 * call in another process (DomainLifecycle.cancelRequest). A domain that fails is logged: the client is answered
 * as always.
 */
export async function relayCancels(
  states: ReadonlyMap<string, DomainLifecycle>,
  principal: string,
  requestIds: readonly string[],
  logger: Logger,
): Promise<void> {
  for (const requestId of requestIds) {
    for (const [domain, state] of states) {
      await state
        .cancelRequest?.({ principal, requestId })
        .catch((error: unknown) => logger.warn('a cancel could not be relayed', { domain, error }));
    }
  }
}
