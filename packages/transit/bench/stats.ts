// The benchmark's latency percentiles of a variant's calls (a server process's CPU time is server-kit's
// processCpuMs).

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
