import type { DomainModule } from './domain-module.js';
import type { Logger } from './logger.js';

export interface ReadinessReport {
  ready: boolean;
  /** Names of the modules whose `ready()` returned false or threw. */
  notReady: string[];
}

/** Asks every module whether it can serve; a module without `ready()` is ready, one that throws is not. */
export async function checkReadiness(
  modules: readonly DomainModule[],
  logger: Logger,
): Promise<ReadinessReport> {
  const results = await Promise.all(
    modules.map(async (module) => {
      if (module.ready === undefined) return true;
      try {
        return (await module.ready()) === true;
      } catch (error) {
        logger.warn('readiness check failed', { domain: module.name, error });
        return false;
      }
    }),
  );
  const notReady = modules.filter((_, index) => results[index] !== true).map((module) => module.name);
  return { ready: notReady.length === 0, notReady };
}
