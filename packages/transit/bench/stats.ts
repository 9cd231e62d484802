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

/** User plus system CPU time of a process and all its threads, in milliseconds (Linux /proc; 10 ms ticks). */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
