import { cp, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunConfigInput } from '@switchyard/contracts/launch-runs';
import { lazy } from '@switchyard/server-kit/runtime';

/** simple-git, only when example repositories are actually written (the package index re-exports this file). */
const loadGitClient = lazy(() => import('../git/git-client.js'));

/** The package's `examples/` folder (the same relative place from src/ and dist/). */
export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));

export interface ExampleRepos {
  /** The product source repository (a working repository on `main`). */
  sourceRepo: string;
  /** The site repository to launch into: a bare repository whose `main` holds the skeleton. */
  siteRepo: string;
  /** The working repository the bare site was cloned from. */
  siteWorkingCopy: string;
}

export interface MaterializeOptions {
  /** Lay `examples/site-seed/` over the skeleton (the fixable broken link). Default true. */
  seedFixableProblem?: boolean;
  gitBinary?: string;
}

/** Fixed identity and dates: the example commits (and so every SHA of a run on them) are reproducible. */
const EXAMPLE_COMMIT_ENV = {
  GIT_AUTHOR_NAME: 'Switchyard Examples',
  GIT_AUTHOR_EMAIL: 'examples@switchyard.invalid',
  GIT_COMMITTER_NAME: 'Switchyard Examples',
  GIT_COMMITTER_EMAIL: 'examples@switchyard.invalid',
  GIT_AUTHOR_DATE: '2025-03-02T12:00:00Z',
  GIT_COMMITTER_DATE: '2025-03-02T12:00:00Z',
};

async function commitFolder(dir: string, message: string, gitBinary: string | undefined): Promise<void> {
  const { gitClient } = await loadGitClient();
  const git = gitClient(dir, {
    binary: gitBinary,
    env: EXAMPLE_COMMIT_ENV,
    config: { 'core.autocrlf': 'false' },
  });
  await git.raw(['-c', 'init.defaultBranch=main', 'init', '--quiet']);
  await git.raw(['add', '-A']);
  await git.raw(['commit', '--quiet', '--no-verify', '--no-gpg-sign', '-m', message]);
}

/**
 * Copies the example product and site skeleton into `targetDir` and turns them into git repositories
 * (one commit each on `main`; the site also as a bare clone to push the launch branch to).
 */
export async function materializeExampleRepos(
  targetDir: string,
  options: MaterializeOptions = {},
): Promise<ExampleRepos> {
  const sourceRepo = join(targetDir, 'tallyho');
  const siteWorkingCopy = join(targetDir, 'site-src');
  const siteRepo = join(targetDir, 'site.git');
  for (const dir of [sourceRepo, siteWorkingCopy, siteRepo]) await rm(dir, { recursive: true, force: true });
  await mkdir(targetDir, { recursive: true });
  await cp(join(EXAMPLES_DIR, 'tallyho'), sourceRepo, { recursive: true });
  await cp(join(EXAMPLES_DIR, 'site'), siteWorkingCopy, { recursive: true });
  if (options.seedFixableProblem !== false) {
    await cp(join(EXAMPLES_DIR, 'site-seed'), siteWorkingCopy, { recursive: true, force: true });
  }
  await commitFolder(sourceRepo, 'Tallyho 1.4.0', options.gitBinary);
  await commitFolder(siteWorkingCopy, 'Site skeleton', options.gitBinary);
  const { gitClient } = await loadGitClient();
  const git = gitClient(targetDir, options.gitBinary === undefined ? {} : { binary: options.gitBinary });
  await git.raw(['clone', '--quiet', '--bare', '--', siteWorkingCopy, siteRepo]);
  return { sourceRepo, siteRepo, siteWorkingCopy };
}

/** The run_config of the README walk-through for the example repositories. */
export function exampleRunConfig(repos: Pick<ExampleRepos, 'sourceRepo' | 'siteRepo'>): RunConfigInput {
  return {
    schema_version: '1.0',
    product_slug: 'tallyho',
    product_name: 'Tallyho',
    source: { repo: repos.sourceRepo },
    site: { repo: repos.siteRepo },
    required_sections: ['products', 'docs'],
    allowed_paths: ['content/products/**', 'content/docs/**'],
  };
}
