// Packing with the repository's pnpm and installing with plain npm into an empty folder: what a user gets.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers.js';
import { publishedPackages } from '../published-packages.js';

/** The pnpm the repository pins (corepack's signature check fails against some registries, so via npx). */
function pnpmCommand(): string[] {
  const root = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    packageManager: string;
  };
  return ['npx', '-y', root.packageManager];
}

export function run(command: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const [file, ...args] = command;
  const result = spawnSync(file ?? '', args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(
      `${command.join(' ')} failed (${result.status}) in ${cwd}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/** Packs every published package (built first) into `tarballDir`: its tarball by name. */
export function packAll(tarballDir: string): Map<string, string> {
  const tarballs = new Map<string, string>();
  for (const { dir, manifest } of publishedPackages()) {
    if (!fs.existsSync(path.join(dir, 'dist', 'index.js'))) {
      throw new Error(`${manifest.name} is not built: run the build first (pnpm build)`);
    }
    const before = new Set(fs.readdirSync(tarballDir));
    run([...pnpmCommand(), 'pack', '--pack-destination', tarballDir], dir);
    const created = fs.readdirSync(tarballDir).find((file) => !before.has(file));
    if (created === undefined) throw new Error(`pnpm pack wrote nothing for ${manifest.name}`);
    tarballs.set(manifest.name, path.join(tarballDir, created));
  }
  return tarballs;
}

/**
 * Installs `names` (default: every package of `tarballs`, name -> file) with npm into the empty folder `project`,
 * as a user installs them from the registry: every @switchyard package, also as a dependency of another, from
 * its tarball.
 */
export function npmInstall(
  project: string,
  tarballs: ReadonlyMap<string, string>,
  names: readonly string[] = [...tarballs.keys()],
): void {
  const specs = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({
      name: 'switchyard-install-check',
      private: true,
      dependencies: Object.fromEntries(names.map((name) => [name, specs[name]])),
      overrides: specs,
    }),
  );
  const cache = path.join(project, '.npm-cache');
  run(['npm', 'install', '--no-audit', '--no-fund', '--loglevel=error', '--cache', cache], project);
  fs.rmSync(cache, { recursive: true, force: true });
}
