#!/usr/bin/env node
// Publishes every public workspace package whose version is not on npm yet (the release workflow's publish
// step, after `pnpm build`). `pnpm pack` makes each tarball (workspace ranges resolved, .pnpmfile.cjs's
// beforePacking applied), plain `npm publish <tarball>` sends it: in GitHub Actions npm authenticates by trusted
// publishing (the workflow's OIDC token; npm 11.5.1 or later) and attaches provenance, with no token anywhere.
// For each package published it tags the commit `name@version` and prints `New tag: name@version`, the line
// changesets/action reads to report what was published (its `publishedPackages` output).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, workspacePackages } from './workspace-packages.mjs';

/** Trusted publishing needs this npm at least. */
const NPM_FOR_TRUSTED_PUBLISHING = [11, 5, 1];

function run(command, args, options = {}) {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });
}

function npmIsRecentEnough() {
  const version = run('npm', ['--version']).trim().split('.').map(Number);
  for (const [index, wanted] of NPM_FOR_TRUSTED_PUBLISHING.entries()) {
    if (version[index] !== wanted) return (version[index] ?? 0) > wanted;
  }
  return true;
}

/** The public packages of the workspace, each after the workspace packages it depends on. */
function publicPackagesInOrder() {
  const packages = new Map(
    workspacePackages()
      .filter(({ manifest }) => manifest.private !== true)
      .map((pkg) => [pkg.manifest.name, pkg]),
  );
  const ordered = [];
  const visit = (name) => {
    const pkg = packages.get(name);
    if (pkg === undefined || ordered.includes(pkg)) return;
    for (const dependency of Object.keys(pkg.manifest.dependencies ?? {})) visit(dependency);
    ordered.push(pkg);
  };
  for (const name of [...packages.keys()].sort()) visit(name);
  return ordered;
}

function isPublished(name, version) {
  try {
    return run('npm', ['view', `${name}@${version}`, 'version'], { stdio: 'pipe' }).trim() === version;
  } catch {
    return false; // E404: never published
  }
}

function hasTag(tag) {
  try {
    run('git', ['rev-parse', '--quiet', '--verify', `refs/tags/${tag}`], { cwd: root, stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

if (!npmIsRecentEnough()) {
  console.error(`npm ${NPM_FOR_TRUSTED_PUBLISHING.join('.')} or later is needed for trusted publishing`);
  process.exit(1);
}
const tarballs = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-publish-'));
for (const { dir, manifest } of publicPackagesInOrder()) {
  const { name, version } = manifest;
  if (isPublished(name, version)) {
    console.log(`${name}@${version} is on npm already`);
    continue;
  }
  const packed = run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: dir }).trim().split('\n');
  const tarball = path.resolve(dir, packed.at(-1) ?? '');
  run('npm', ['publish', tarball, '--access', 'public'], { stdio: 'inherit' });
  const tag = `${name}@${version}`;
  if (!hasTag(tag)) run('git', ['tag', tag], { cwd: root });
  console.log(`New tag: ${tag}`);
}
