#!/usr/bin/env node
// switchyard-launch: the launch_* tools as a standalone MCP server (stdio by default, --http for HTTP),
// plus `--example-repos <dir>` for the README walk-through.
import module from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

// Node 22.1+ can cache compiled code between starts, which shortens every later start; Node 20 cannot.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const NAME = 'switchyard-launch';

/** Writes the example product and site repositories into `dir` and prints a run_config for them. */
async function writeExampleRepos(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...argv],
    options: { 'example-repos': { type: 'string' } },
    strict: true,
  });
  const dir = values['example-repos'];
  if (dir === undefined || dir === '') throw new Error('--example-repos needs a directory');
  const { exampleRunConfig, materializeExampleRepos } = await import('./pipeline/index.js');
  const target = path.resolve(dir);
  const runConfig = exampleRunConfig(await materializeExampleRepos(target));
  process.stdout.write(JSON.stringify({ run_config: runConfig }, null, 2) + '\n');
  process.stderr.write(
    `The server takes local repositories only from LAUNCH_REPO_ROOTS (default: its data directory); ` +
      `start it with LAUNCH_REPO_ROOTS=${target} to use these.\n`,
  );
}

function fail(error: unknown): void {
  process.stderr.write(`${NAME}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}

const argv = process.argv.slice(2);
if (argv.some((arg) => arg === '--example-repos' || arg.startsWith('--example-repos='))) {
  writeExampleRepos(argv).catch(fail);
} else {
  // The domain's modules load only when serving (not for --example-repos), after the compile cache is on.
  Promise.all([import('@switchyard/server-kit'), import('./domain.js')])
    .then(([{ runStandaloneServer }, { launchRunsDomain }]) =>
      runStandaloneServer({
        name: NAME,
        domain: launchRunsDomain,
        otherUsage: ['--example-repos DIR'],
        help: [
          "--example-repos DIR writes the README walk-through's example repositories into DIR and prints a",
          'run_config for them (serve them with LAUNCH_REPO_ROOTS=DIR). Every variable: the README.',
        ],
      }),
    )
    .catch(fail);
}
