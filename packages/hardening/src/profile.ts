import type { ProtocolEra } from '@switchyard/server-kit/testing';

/** Both protocol eras a client can speak: 2026-07-28 (modern) and the 2025 `initialize` handshake (legacy). */
export const ERAS: readonly ProtocolEra[] = ['modern', 'legacy'];

/**
 * The era of every client a suite opens without choosing one: HARDENING_ERA (`modern` or `legacy`) when set,
 * else modern. The suites that run in both eras (access, faults, load, the transport bounds) choose per test.
 */
export function defaultEra(env: NodeJS.ProcessEnv = process.env): ProtocolEra {
  const given = env.HARDENING_ERA?.trim();
  if (given === undefined || given === '') return 'modern';
  if (given === 'modern' || given === 'legacy') return given;
  throw new Error(`HARDENING_ERA must be "modern" or "legacy", got "${given}"`);
}

/**
 * Sizes of every suite. `fast` runs inside `pnpm test` (a minute or so on 2 cores); `full` is
 * `pnpm hardening` (a few minutes, bounded). HARDENING_PROFILE selects; the full config sets it.
 */
export interface Profile {
  name: 'fast' | 'full';
  /** Fuzz cases per tool (launch_start_run, which starts real background runs, gets `fuzzLaunchStarts`). */
  fuzzRunsPerTool: number;
  fuzzLaunchStarts: number;
  /** SIGKILL trials: launch runs killed mid-pipeline, and concurrent journey writers killed mid-write. */
  launchKillTrials: number;
  runsPerLaunchTrial: number;
  journeyKillTrials: number;
  /** Failing calls in the memory soak (full only). */
  soakFailingCalls: number;
  /** Load: concurrent Streamable HTTP clients (in each era) and how long they run. */
  loadSessions: number;
  loadSeconds: number;
  /** The eras the upstream-fault table runs in (it takes half a minute per era). */
  faultEras: readonly ProtocolEra[];
}

const FAST: Profile = {
  name: 'fast',
  fuzzRunsPerTool: 60,
  fuzzLaunchStarts: 8,
  launchKillTrials: 1,
  runsPerLaunchTrial: 2,
  journeyKillTrials: 1,
  soakFailingCalls: 0,
  loadSessions: 10,
  loadSeconds: 4,
  faultEras: ['modern'], // HARDENING_ERA, see currentProfile
};

const FULL: Profile = {
  name: 'full',
  fuzzRunsPerTool: 400,
  fuzzLaunchStarts: 40,
  launchKillTrials: 5,
  runsPerLaunchTrial: 3,
  journeyKillTrials: 5,
  soakFailingCalls: 10_000,
  loadSessions: 50,
  loadSeconds: 60,
  faultEras: ERAS,
};

export function currentProfile(env: NodeJS.ProcessEnv = process.env): Profile {
  if (env.HARDENING_PROFILE === 'full') return FULL;
  return { ...FAST, faultEras: [defaultEra(env)] };
}

/**
 * The seed of every randomised suite: HARDENING_SEED when set (to replay a failure), else a fixed seed in the
 * fast profile (so `pnpm test` is repeatable) and a fresh one in the full profile (so each run explores new
 * inputs). Suites print it, and fast-check prints it with any counterexample.
 */
export function suiteSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.HARDENING_SEED;
  if (given !== undefined && given.trim() !== '') {
    const seed = Number(given);
    if (!Number.isInteger(seed)) throw new Error(`HARDENING_SEED must be an integer, got "${given}"`);
    return seed;
  }
  return currentProfile(env).name === 'fast' ? 20_261_122 : Math.floor(Math.random() * 2 ** 31);
}

/** A small seeded generator (mulberry32) for kill points and workloads: same seed, same schedule. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
