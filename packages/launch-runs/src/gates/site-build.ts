import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { redactSecrets } from '@switchyard/resilience/context';
import type { SiteBuildCommand } from '../pipeline/options.js';
import type { IssueDraft } from './types.js';

const HUGO_CONFIGS = [
  'hugo.toml',
  'hugo.yaml',
  'hugo.yml',
  'hugo.json',
  'config.toml',
  'config.yaml',
  'config.yml',
  'config.json',
];

export interface SiteBuildPlan {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The generator config the build relies on (issue location), '' for a custom command. */
  configPath: string;
  generator: string;
}

/** The build the site needs: the configured command, else hugo when a hugo config exists. */
export function siteBuildPlan(
  files: ReadonlySet<string>,
  options: { siteBuildCommand: SiteBuildCommand | undefined; hugoBinary: string },
  outputDir: string,
): SiteBuildPlan | undefined {
  if (options.siteBuildCommand !== undefined) {
    return {
      command: options.siteBuildCommand.command,
      args: [...(options.siteBuildCommand.args ?? [])],
      env: { ...(options.siteBuildCommand.env ?? {}) },
      configPath: '',
      generator: 'custom',
    };
  }
  const config = HUGO_CONFIGS.find((name) => files.has(name));
  if (config === undefined) return undefined;
  return {
    command: options.hugoBinary,
    // Everything hugo writes (pages, resources, cache, no build lock) goes outside the worktree.
    args: [
      '--minify',
      '--destination',
      join(outputDir, 'public'),
      '--cacheDir',
      join(outputDir, 'cache'),
      '--noBuildLock',
      '--quiet',
    ],
    env: { HUGO_RESOURCEDIR: join(outputDir, 'resources') },
    configPath: config,
    generator: 'hugo',
  };
}

interface RunResult {
  code: number | null;
  output: string;
  missing: boolean;
  timedOut: boolean;
}

function run(
  plan: SiteBuildPlan,
  cwd: string,
  outputDir: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<RunResult> {
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    const child = spawn(plan.command, plan.args, {
      cwd,
      env: { ...process.env, ...plan.env, SWITCHYARD_SITE_BUILD_DIR: outputDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    signal.addEventListener('abort', kill, { once: true });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', kill);
      resolve({
        code: null,
        output: error.message,
        missing: error.code === 'ENOENT' || error.code === 'EACCES',
        timedOut,
      });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', kill);
      resolve({ code, output, missing: false, timedOut });
    });
  });
}

export function toolchainMissing(generator: string, command: string, profile: string): SwitchyardError {
  return new SwitchyardError(
    'internal',
    `The SiteBuild gate of the ${profile} profile needs ${generator === 'unknown' ? 'a site generator' : `"${command}"`}, which is not available on this machine`,
    {
      code: 'TOOLCHAIN_MISSING',
      hint: 'Install the site generator (e.g. hugo) or use validation_profile "local", which skips SiteBuild',
      details: { gate: 'SiteBuild', generator, command, profile },
    },
  );
}

/** Checks the generator can start at all (`<cmd> version` for hugo); a missing binary is TOOLCHAIN_MISSING. */
export async function assertToolchain(
  plan: SiteBuildPlan | undefined,
  profile: string,
  cwd: string,
  signal: AbortSignal,
): Promise<SiteBuildPlan> {
  if (plan === undefined) throw toolchainMissing('unknown', '', profile);
  if (plan.generator !== 'hugo') return plan;
  const probe = await run({ ...plan, args: ['version'] }, cwd, cwd, 15_000, signal);
  if (probe.missing) throw toolchainMissing(plan.generator, plan.command, profile);
  return plan;
}

/** SiteBuild: runs the generator with its output outside the worktree (validation never writes to it). */
export async function runSiteBuild(
  plan: SiteBuildPlan,
  siteRoot: string,
  outputDir: string,
  timeoutMs: number,
  signal: AbortSignal,
  profile: string,
): Promise<IssueDraft[]> {
  await rm(outputDir, { recursive: true, force: true });
  await mkdir(outputDir, { recursive: true });
  try {
    const result = await run(plan, siteRoot, outputDir, timeoutMs, signal);
    if (result.missing) throw toolchainMissing(plan.generator, plan.command, profile);
    if (result.code === 0) return [];
    const tail = redactSecrets(result.output.split(siteRoot).join('.').split(outputDir).join('<build>'))
      .trim()
      .split('\n')
      .slice(-5)
      .join(' | ')
      .slice(0, 500);
    return [
      {
        severity: 'blocker',
        error_code: result.timedOut ? 'SITE_BUILD_TIMEOUT' : 'SITE_BUILD_FAILED',
        message: result.timedOut
          ? `The ${plan.generator} build did not finish within ${timeoutMs} ms`
          : `The ${plan.generator} build failed (exit code ${result.code ?? 'none'})`,
        path: plan.configPath,
        line: 0,
        suggested_fix: tail === '' ? null : `Fix the build error: ${tail}`,
      },
    ];
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}
