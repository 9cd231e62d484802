// Per-tool benchmark of the combined server: every tool of every domain over Streamable HTTP against the floor
// (a bare SDK server echoing the same answer), interleaved, in each protocol era. Prints a table per era, and
// one machine-readable line (BENCH_RESULT_JSON) that `pnpm bench:report` reads. BENCH_ITERATIONS /
// BENCH_WARMUP change the sizes; BENCH_ERAS (default `modern,legacy`) the eras measured.
import type { ProtocolEra } from '@switchyard/server-kit/testing';
import { benchEveryTool } from '../src/report/tool-bench.js';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);
const warmup = Number(process.env.BENCH_WARMUP ?? 20);
const eras = (process.env.BENCH_ERAS ?? 'modern,legacy').split(',').map((era): ProtocolEra => {
  const name = era.trim();
  if (name !== 'modern' && name !== 'legacy')
    throw new Error(`BENCH_ERAS lists "modern" and/or "legacy", got "${name}"`);
  return name;
});
const rows = await benchEveryTool({ iterations, warmup, eras });
const ms = (v: number) => v.toFixed(2).padStart(8);
for (const era of eras) {
  console.log(
    `combined server, every tool over Streamable HTTP, ${era} era, Node ${process.version}: ` +
      `${iterations} calls each after ${warmup} warm-up (ms)`,
  );
  console.log(
    `${'tool'.padEnd(24)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'floor50'.padStart(8)} ${'floor95'.padStart(8)}  ratio50`,
  );
  for (const row of rows.filter((r) => r.era === era)) {
    console.log(
      `${row.tool.padEnd(24)} ${ms(row.p50)} ${ms(row.p95)} ${ms(row.floorP50)} ${ms(row.floorP95)}  ${(row.p50 / row.floorP50).toFixed(2)}x ${row.note}`,
    );
  }
}
console.log(`BENCH_RESULT_JSON ${JSON.stringify({ iterations, warmup, node: process.version, rows })}`);
