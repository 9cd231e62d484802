import type { DomainLifecycle, DomainRuntime, Mount } from './domain.js';
import type { Logger } from './runtime/logger.js';

/** The mounted domains once opened, in mount order. */
export interface OpenedDomains {
  states: ReadonlyMap<string, DomainLifecycle>;
  loggers: ReadonlyMap<string, Logger>;
  /** Closes every domain in order; the failures, each naming its domain (none: an empty list). */
  close(): Promise<Error[]>;
}

async function closeAll(states: ReadonlyMap<string, DomainLifecycle>, logger: Logger): Promise<Error[]> {
  const failures: Error[] = [];
  for (const [name, state] of states) {
    try {
      await state.close();
      logger.debug('domain closed', { domain: name });
    } catch (error) {
      logger.error('domain failed to close', { domain: name, error });
      failures.push(new Error(`domain "${name}" failed to close`, { cause: error }));
    }
  }
  return failures;
}

/**
 * Opens each mounted domain with its own logger. When one fails to open, the ones already open are closed
 * again and the error (naming the domain) is thrown: a server either starts whole or not at all.
 */
export async function openDomains(
  mounts: readonly Mount<unknown, DomainLifecycle>[],
  runtime: Omit<DomainRuntime, 'logger'> & { logger: Logger },
): Promise<OpenedDomains> {
  const states = new Map<string, DomainLifecycle>();
  const loggers = new Map<string, Logger>();
  for (const { domain, config } of mounts) {
    const logger = runtime.logger.child({ domain: domain.name });
    try {
      states.set(domain.name, await domain.open(config, { ...runtime, logger }));
      loggers.set(domain.name, logger);
    } catch (error) {
      await closeAll(states, runtime.logger);
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`cannot open ${domain.name}: ${reason}`, { cause: error });
    }
  }
  return { states, loggers, close: () => closeAll(states, runtime.logger) };
}
