// Interleaved measuring: every variant of a case (the direct upstream request, each server) gets its turn in
// every round, in a rotating order, so that load from elsewhere on the machine falls on all variants alike.
// A turn is a burst of calls with a number of callers in flight at once (one, or 16 under load); each call's
// time is a sample, and each server's CPU time is read around all the rounds.
import { performance } from 'node:perf_hooks';
import { processCpuMs } from '@switchyard/server-kit/testing';
import { stats, type Stats } from './stats.js';

export interface Variant {
  run: () => Promise<unknown>;
  /** The server process whose CPU the variant's calls cost (none for the direct request). */
  pid?: number;
}

/** How many calls are in flight at once, and how many are made. */
export interface Mode {
  /** Calls in flight at once, per variant. */
  callers: number;
  /** Calls per variant in one turn of a round (a multiple of callers keeps them all busy). */
  burst: number;
  /** Measured calls per variant. */
  calls: number;
  /** Calls per variant before the measured ones, interleaved the same way, not measured. */
  warmup: number;
}

export interface Measured {
  stats: Stats;
  /** Server CPU time per measured call, in ms; undefined for a variant without a process. */
  cpuPerCallMs: number | undefined;
}

/** `count` calls of `run` by `callers` loops at once; each call's time goes to `samples`. */
async function burst(run: () => Promise<unknown>, callers: number, count: number, samples: number[]) {
  let started = 0;
  const caller = async () => {
    while (started < count) {
      started += 1;
      const from = performance.now();
      await run();
      samples.push(performance.now() - from);
    }
  };
  await Promise.all(Array.from({ length: Math.min(callers, count) }, caller));
}

/** Rounds of one burst per variant, the order rotating each round, until each variant made `calls` calls. */
async function rounds(variants: readonly Variant[], mode: Mode, calls: number, samples: number[][]) {
  for (let made = 0, round = 0; made < calls; made += mode.burst, round += 1) {
    const count = Math.min(mode.burst, calls - made);
    for (let k = 0; k < variants.length; k += 1) {
      const index = (round + k) % variants.length;
      await burst(variants[index]!.run, mode.callers, count, samples[index]!);
    }
  }
}

/** Warm-up rounds, then the measured rounds; one result per variant, in the variants' order. */
export async function measureInterleaved(variants: readonly Variant[], mode: Mode): Promise<Measured[]> {
  await rounds(
    variants,
    mode,
    mode.warmup,
    variants.map(() => []),
  );
  const samples = variants.map(() => [] as number[]);
  const cpuBefore = variants.map((v) => (v.pid === undefined ? 0 : processCpuMs(v.pid)));
  await rounds(variants, mode, mode.calls, samples);
  return variants.map((variant, index) => ({
    stats: stats(samples[index]!),
    cpuPerCallMs:
      variant.pid === undefined ? undefined : (processCpuMs(variant.pid) - cpuBefore[index]!) / mode.calls,
  }));
}
