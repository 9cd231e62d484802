import fs from 'node:fs';
import path from 'node:path';
import { materializeExampleRepos, type ExampleRepos } from '../../src/pipeline/index.js';
import { git } from './launch-flow.js';

/** A file of a site repository: text (optionally executable) or a symlink to `symlinkTo`. */
export type SiteFile = string | { text: string; executable: true } | { symlinkTo: string };

/**
 * The example repositories under `dir`, with `files` added to (or replacing files of) the site and
 * committed: what a caller who controls a site repository can put into it.
 */
export async function exampleReposWithSite(
  dir: string,
  files: Readonly<Record<string, SiteFile>>,
): Promise<ExampleRepos> {
  const repos = await materializeExampleRepos(dir);
  if (Object.keys(files).length === 0) return repos;
  for (const [name, file] of Object.entries(files)) {
    const target = path.join(repos.siteWorkingCopy, ...name.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.rmSync(target, { force: true });
    if (typeof file === 'string') fs.writeFileSync(target, file);
    else if ('symlinkTo' in file) fs.symlinkSync(file.symlinkTo, target);
    else fs.writeFileSync(target, file.text, { mode: 0o755 });
  }
  const identity = ['-c', 'user.name=Test', '-c', 'user.email=test@switchyard.invalid'];
  git(repos.siteWorkingCopy, 'add', '-A');
  git(repos.siteWorkingCopy, ...identity, 'commit', '--quiet', '--no-gpg-sign', '-m', 'hostile additions');
  fs.rmSync(repos.siteRepo, { recursive: true, force: true });
  git(dir, 'clone', '--quiet', '--bare', '--', repos.siteWorkingCopy, repos.siteRepo);
  return repos;
}

/** A shell script that records that it ran (`marker`) and the environment it saw (`marker.env`). */
export function markerScript(marker: string): { text: string; executable: true } {
  return {
    text: `#!/bin/sh\necho ran > '${marker}'\nenv > '${marker}.env'\ncat\n`,
    executable: true,
  };
}
