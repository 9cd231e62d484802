export interface Stats {
  n: number;
  p50: number;
  p95: number;
  /**
   * This process's CPU time per call (user + system), when measured. On SQLite, which runs in the process,
   * it is the time a call holds the event loop, and unlike wall time it does not grow with other load on
   * the machine; on PostgreSQL it leaves out the server's work.
   */
  cpu?: { p50: number; p95: number };
}

export function percentiles(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95) };
}

/** Times `iterations` calls of `fn(i)` after `warmup` untimed ones; milliseconds. */
export async function measure(
  iterations: number,
  fn: (i: number) => unknown,
  warmup = Math.min(50, iterations),
): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await fn(i + warmup);
    samples.push(performance.now() - started);
    const cpu = process.cpuUsage(cpuBefore);
    cpuSamples.push((cpu.user + cpu.system) / 1000);
  }
  const { p50, p95 } = percentiles(cpuSamples);
  return { ...percentiles(samples), cpu: { p50, p95 } };
}
