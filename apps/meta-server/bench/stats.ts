export interface Summary {
  p50: number;
  p95: number;
}

/** Nearest-rank percentiles of `samples` (any order). */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { p50: at(0.5), p95: at(0.95) };
}

export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

export function verdict(ok: boolean): string {
  return ok ? 'meets target' : 'MISSES target';
}
