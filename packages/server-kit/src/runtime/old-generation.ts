import v8 from 'node:v8';
import { resolveLimit, type Env } from '../limits.js';

/** The Node flag by which an operator sets the old generation's growth: given, it decides and this stays out. */
const OPERATOR_FLAG = /--heap-growing-percent\b/;

/**
 * Holds how far V8 grows the old generation between full collections to SWITCHYARD_HEAP_GROWING_PERCENT. V8 reads
 * the flag each time it sets the next limit, so setting it at start takes effect from the first collection on.
 * What it saves is garbage that V8 would otherwise keep, and what that garbage holds outside the heap: the Buffers
 * of upstream answers no longer used.
 */
export function boundOldGenerationGrowth(env: Env): void {
  const percent = resolveLimit('heapGrowingPercent', undefined, env);
  if (percent === 0 || OPERATOR_FLAG.test(process.execArgv.join(' '))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
