import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { redactSecrets } from '@switchyard/resilience/context';
import type { SiteBuildCommand } from '../pipeline/options.js';
import { subprocessEnvironment } from '../subprocess/environment.js';
import { folderBytes, watchFolderSize } from '../subprocess/folder-size-watch.js';
import {
  hugoBuildArgs,
  hugoLockdownEnv,
  hugoMountsArgs,
  hugoMountsOutsideSite,
  type HugoSecurity,
} from './hugo-lockdown.js';
import { symlinkLeavingSite } from './site-symlinks.js';
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
  /** hugo: the arguments of `hugo config mounts`, run first to check no mount reaches outside the site. */
  mountsArgs?: string[];
}

/** Bounds of one site build (LAUNCH_SITE_BUILD_TIMEOUT_MS, LAUNCH_SITE_BUILD_MAX_OUTPUT_BYTES). */
export interface SiteBuildLimits {
  timeoutMs: number;
  /** Bytes the build may write into its folder (pages, resources, caches) before it is stopped. */
  maxOutputBytes: number;
}

export interface SiteBuildOptions {
  siteBuildCommand: SiteBuildCommand | undefined;
  hugoBinary: string;
  hugoSecurity: HugoSecurity;
}

/** The build the site needs: the configured command, else hugo (locked down) when a hugo config exists. */
export function siteBuildPlan(
  files: ReadonlySet<string>,
  options: SiteBuildOptions,
  dirs: { site: string; output: string },
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
    // Everything hugo writes (pages, resources, caches, no build lock) goes outside the worktree.
    args: hugoBuildArgs(dirs.site, dirs.output),
    env: hugoLockdownEnv(options.hugoSecurity, dirs.output),
    configPath: config,
    generator: 'hugo',
    mountsArgs: hugoMountsArgs(dirs.site),
  };
}

interface RunResult {
  code: number | null;
  /** The first MAX_STDOUT characters of stdout (`stdoutTruncated` when there was more). */
  stdout: string;
  stdoutTruncated: boolean;
  /** The last characters of stdout and stderr together, for messages. */
  output: string;
  missing: boolean;
  timedOut: boolean;
  outputExceeded: boolean;
}

const MAX_STDOUT = 1_000_000;
const OUTPUT_TAIL = 8000;

interface RunOptions extends SiteBuildLimits {
  cwd: string;
  /** The build folder: SWITCHYARD_SITE_BUILD_DIR, the child's scratch HOME, and what the size limit watches. */
  outputDir: string;
  signal: AbortSignal;
}

function run(plan: SiteBuildPlan, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const { outputDir, signal } = options;
  return new Promise((resolve) => {
    let stdout = '';
    let stdoutTruncated = false;
    let output = '';
    let timedOut = false;
    let outputExceeded = false;
    const child = spawn(plan.command, args, {
      cwd: options.cwd,
      env: subprocessEnvironment({
        kind: 'generator',
        home: join(outputDir, 'home'),
        extra: { ...plan.env, SWITCHYARD_SITE_BUILD_DIR: outputDir },
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      keep(chunk);
      if (stdout.length < MAX_STDOUT) stdout += chunk.toString('utf8');
      if (stdout.length > MAX_STDOUT) {
        stdout = stdout.slice(0, MAX_STDOUT);
        stdoutTruncated = true;
      }
    });
    child.stderr.on('data', keep);
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const stopWatching = watchFolderSize(outputDir, options.maxOutputBytes, () => {
      outputExceeded = true;
      kill();
    });
    signal.addEventListener('abort', kill, { once: true });
    const settle = (result: Pick<RunResult, 'code' | 'output' | 'missing'>): void => {
      clearTimeout(timer);
      stopWatching();
      signal.removeEventListener('abort', kill);
      resolve({ ...result, stdout, stdoutTruncated, timedOut, outputExceeded });
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      settle({
        code: null,
        output: error.message,
        missing: error.code === 'ENOENT' || error.code === 'EACCES',
      });
    });
    child.on('close', (code) => {
      // What a quick child wrote between two checks still counts.
      void folderBytes(outputDir, options.maxOutputBytes).then((bytes) => {
        if (bytes > options.maxOutputBytes) outputExceeded = true;
        settle({ code, output, missing: false });
      });
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
  outputDir: string,
  signal: AbortSignal,
): Promise<SiteBuildPlan> {
  if (plan === undefined) throw toolchainMissing('unknown', '', profile);
  if (plan.generator !== 'hugo') return plan;
  await mkdir(outputDir, { recursive: true });
  try {
    const probe = await run(plan, ['version'], {
      cwd: outputDir,
      outputDir,
      timeoutMs: 15_000,
      maxOutputBytes: Number.MAX_SAFE_INTEGER,
      signal,
    });
    if (probe.missing) throw toolchainMissing(plan.generator, plan.command, profile);
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
  return plan;
}

/** A site that would make the build read outside its repository: the build is not run. */
function unsafeSite(plan: SiteBuildPlan, path: string, what: string): IssueDraft {
  return {
    severity: 'blocker',
    error_code: 'SITE_BUILD_UNSAFE',
    message: `The site reaches outside its repository (${what}); the ${plan.generator} build was not run`,
    path,
    line: 0,
    suggested_fix:
      'Keep every file, mount, module and theme of the site inside the repository (no symlinks or mounts leading out of it)',
  };
}

/** A failed, timed out or oversized build as an issue, with the tail of its output (paths and secrets masked). */
function failedBuild(
  plan: SiteBuildPlan,
  result: RunResult,
  dirs: { siteRoot: string; outputDir: string },
  limits: SiteBuildLimits,
): IssueDraft {
  const tail = redactSecrets(
    result.output.split(dirs.siteRoot).join('.').split(dirs.outputDir).join('<build>'),
  )
    .trim()
    .split('\n')
    .slice(-5)
    .join(' | ')
    .slice(0, 500);
  const [code, message] = result.timedOut
    ? ['SITE_BUILD_TIMEOUT', `The ${plan.generator} build did not finish within ${limits.timeoutMs} ms`]
    : result.outputExceeded
      ? [
          'SITE_BUILD_OUTPUT_LIMIT',
          `The ${plan.generator} build wrote more than ${limits.maxOutputBytes} bytes and was stopped`,
        ]
      : ['SITE_BUILD_FAILED', `The ${plan.generator} build failed (exit code ${result.code ?? 'none'})`];
  return {
    severity: 'blocker',
    error_code: code,
    message,
    path: plan.configPath,
    line: 0,
    suggested_fix: tail === '' ? null : `Fix the build error: ${tail}`,
  };
}

/**
 * SiteBuild: runs the generator with its output outside the worktree (validation never writes to it), in
 * the minimal environment, within the time and output limits. A site whose symlinks or (hugo) mounts lead
 * outside the repository is refused before anything is built.
 */
export async function runSiteBuild(
  plan: SiteBuildPlan,
  siteRoot: string,
  outputDir: string,
  limits: SiteBuildLimits,
  signal: AbortSignal,
  profile: string,
): Promise<IssueDraft[]> {
  await rm(outputDir, { recursive: true, force: true });
  await mkdir(outputDir, { recursive: true });
  const options: RunOptions = { ...limits, cwd: siteRoot, outputDir, signal };
  const dirs = { siteRoot, outputDir };
  try {
    const link = await symlinkLeavingSite(siteRoot);
    if (link !== undefined) return [unsafeSite(plan, link, `the symlink ${link}`)];
    if (plan.mountsArgs !== undefined) {
      const mounts = await run(plan, plan.mountsArgs, options);
      if (mounts.missing) throw toolchainMissing(plan.generator, plan.command, profile);
      if (mounts.code !== 0) return [failedBuild(plan, mounts, dirs, limits)];
      const outside = mounts.stdoutTruncated ? 'unreadable' : hugoMountsOutsideSite(mounts.stdout, siteRoot);
      if (outside !== undefined) {
        return [
          unsafeSite(
            plan,
            plan.configPath,
            outside === 'unreadable' ? 'its mounts could not be checked' : `${outside}`,
          ),
        ];
      }
    }
    const result = await run(plan, plan.args, options);
    if (result.missing) throw toolchainMissing(plan.generator, plan.command, profile);
    if (result.code === 0 && !result.outputExceeded) return [];
    return [failedBuild(plan, result, dirs, limits)];
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}
