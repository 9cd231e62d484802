// `pnpm hardening:report`: runs the hardening suites that record findings (amplification, database faults)
// with HARDENING_FINDINGS_DIR set, then writes docs/hardening.md at the root from what they recorded.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { readFindings } from '../src/report/findings.js';
import { renderHardeningReport } from '../src/report/hardening-markdown.js';
import { machineInfo } from '../src/report/machine.js';

const PACKAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.resolve(PACKAGE, '..', '..');
/** The suites whose findings the report shows. */
const SUITES = fs
  .readdirSync(path.join(PACKAGE, 'test'))
  .filter((file) => /^(amplification|database-faults).*\.test\.ts$/.test(file))
  .map((file) => `test/${file}`)
  .sort();

async function main(): Promise<void> {
  if (SUITES.length === 0) throw new Error('no suite records findings: nothing to report');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hardening-findings-'));
  try {
    const vitest = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const run = spawnSync(process.execPath, [vitest, 'run', '--config', 'vitest.full.config.ts', ...SUITES], {
      cwd: PACKAGE,
      stdio: 'inherit',
      env: { ...process.env, HARDENING_FINDINGS_DIR: dir },
    });
    if (run.status !== 0)
      throw new Error(`the suites failed (exit ${String(run.status)}): no report written`);
    const tables = {
      amplification: readFindings(dir, 'amplification'),
      'database-faults': readFindings(dir, 'database-faults'),
    };
    const report = renderHardeningReport({
      generatedAt: new Date(),
      machine: machineInfo(),
      suites: SUITES.map((suite) => `packages/hardening/${suite}`),
      tables,
    });
    const target = path.join(ROOT, 'docs', 'hardening.md');
    const config = (await prettier.resolveConfig(target)) ?? {};
    fs.writeFileSync(target, await prettier.format(report, { ...config, filepath: target }));
    console.log(`wrote ${target}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
