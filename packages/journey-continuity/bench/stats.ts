export interface Stats {
  n: number;
  p50: number;
  p95: number;
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
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await fn(i + warmup);
    samples.push(performance.now() - started);
  }
  return percentiles(samples);
}
