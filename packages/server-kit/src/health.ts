import type { DomainLifecycle } from './domain.js';
import type { Logger } from './runtime/logger.js';

export interface ReadinessReport {
  ready: boolean;
  /** Names of the domains whose `ready()` returned false or threw. */
  notReady: string[];
}

/** Asks every domain whether it can serve; a domain without `ready()` is ready, one that throws is not. */
export async function checkReadiness(
  states: ReadonlyMap<string, DomainLifecycle>,
  logger: Logger,
): Promise<ReadinessReport> {
  const entries = [...states];
  const results = await Promise.all(
    entries.map(async ([name, state]) => {
      if (state.ready === undefined) return true;
      try {
        return (await state.ready()) === true;
      } catch (error) {
        logger.warn('readiness check failed', { domain: name, error });
        return false;
      }
    }),
  );
  const notReady = entries.filter((_, index) => results[index] !== true).map(([name]) => name);
  return { ready: notReady.length === 0, notReady };
}
