import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { resolveLimit, type Env } from '../limits.js';

/** Node flags by which an operator sizes the young generation: given, they decide and this stays out. */
const OPERATOR_FLAGS = /--(max-semi-space-size|semi-space-growth-factor|max-young-generation-size)\b/;
const MIB = 1024 * 1024;

function newSpaceBytes(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Holds the process's young generation to SWITCHYARD_MAX_YOUNG_GENERATION_MB. Node's --max-semi-space-size only
 * applies when set at start (NODE_OPTIONS), which a bin started by a host cannot count on; V8 reads its growth
 * factor each time it grows the space, though. So after each collection the space's size is read, and growth stops
 * (factor 1) once two more doublings would pass the bound: collections are reported after they end, so a burst of
 * them between two turns of the event loop can grow it one step before the report is read. V8 12 (Node 22) then
 * holds the space there; V8 13 (Node 24) still grows it in small steps through a long burst and shrinks it back
 * after, so there the bound holds the young generation to a fraction of V8's own growth rather than exactly
 * (the combined server after 1,000 calls: new space 8 MiB with the default bound, 52 without).
 */
export function boundYoungGeneration(env: Env): void {
  const maxMb = resolveLimit('maxYoungGenerationMb', undefined, env);
  if (maxMb === 0 || OPERATOR_FLAGS.test([...process.execArgv, env.NODE_OPTIONS ?? ''].join(' '))) return;
  const stopIfAtBound = (): boolean => {
    if (newSpaceBytes() * 4 <= maxMb * MIB) return false;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    return true;
  };
  if (stopIfAtBound()) return;
  const observer = new PerformanceObserver(() => {
    if (stopIfAtBound()) observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
