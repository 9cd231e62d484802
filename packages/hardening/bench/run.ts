// Per-tool benchmark of the combined server: every tool of every domain over Streamable HTTP against the floor
// (a bare SDK server echoing the same answer), interleaved. Prints a table, and one machine-readable line
// (BENCH_RESULT_JSON) that `pnpm bench:report` reads. BENCH_ITERATIONS / BENCH_WARMUP change the sizes.
import { benchEveryTool } from '../src/report/tool-bench.js';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);
const warmup = Number(process.env.BENCH_WARMUP ?? 20);
const rows = await benchEveryTool({ iterations, warmup });
const ms = (v: number) => v.toFixed(2).padStart(8);
console.log(
  `combined server, every tool over Streamable HTTP: ${iterations} calls each after ${warmup} warm-up (ms)`,
);
console.log(
  `${'tool'.padEnd(24)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'floor50'.padStart(8)} ${'floor95'.padStart(8)}  ratio50`,
);
for (const row of rows) {
  console.log(
    `${row.tool.padEnd(24)} ${ms(row.p50)} ${ms(row.p95)} ${ms(row.floorP50)} ${ms(row.floorP95)}  ${(row.p50 / row.floorP50).toFixed(2)}x ${row.note}`,
  );
}
console.log(`BENCH_RESULT_JSON ${JSON.stringify({ iterations, warmup, rows })}`);
