// The benchmark's two readings: latency percentiles of a variant's calls and a server process's CPU time.
import fs from 'node:fs';

export interface Stats {
  p50: number;
  p95: number;
}

/** The nearest-rank percentile of ascending samples. */
export function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/**
 * Time a process's threads have spent on a CPU (user and system), in milliseconds, summed from each thread's
 * /proc schedstat in nanoseconds: /proc/<pid>/stat counts in 10 ms ticks, which over the 400 calls of a
 * one-call-at-a-time round of a cheap tool (about 250 ms of CPU) moved the figure by up to 0.05 ms per call.
 * A thread that has ended is no longer counted; a server's threads (V8's workers, libuv's pool) live as long
 * as it does.
 */
export function cpuMs(pid: number): number {
  let nanoseconds = 0;
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nanoseconds / 1e6;
}
