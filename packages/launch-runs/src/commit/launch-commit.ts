import type { SimpleGit } from 'simple-git';
import { headSha } from '../git/operations.js';
import { allowedPathsMatcher } from '../pipeline/site-files.js';
import { commitServiceError } from './errors.js';

/** Worktree paths changed relative to HEAD (`git status -z`, untracked files included). */
async function changedPaths(git: SimpleGit): Promise<string[]> {
  const out = await git.raw(['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  const entries = out.split('\0');
  const paths: string[] = [];
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index]!;
    if (entry.length < 4) continue;
    paths.push(entry.slice(3));
    if (entry[0] === 'R' || entry[0] === 'C') index += 1; // the rename source follows
  }
  return paths;
}

/**
 * The launch commit on the current branch: stages the changes inside allowed_paths (anything else is left
 * out) and commits them; when there is nothing new but HEAD already moved past the base (a commit made by an
 * earlier, interrupted attempt), that commit is reused, so repeating W9 never makes a second commit.
 */
export async function commitLaunch(
  git: SimpleGit,
  input: { baseSha: string; allowedPaths: readonly string[]; message: string },
): Promise<{ sha: string; created: boolean; paths: string[] }> {
  const allowed = allowedPathsMatcher(input.allowedPaths);
  const paths = (await changedPaths(git)).filter((path) => allowed(path));
  if (paths.length > 0) {
    await git.raw(['add', '-A', '--', ...paths.map((path) => `:(literal)${path}`)]);
    const staged = (await git.raw(['diff', '--cached', '--name-only', '-z']))
      .split('\0')
      .filter((path) => path !== '');
    if (staged.length > 0) {
      await git.raw(['commit', '--quiet', '--no-verify', '--no-gpg-sign', '-m', input.message]);
      return { sha: await headSha(git), created: true, paths: staged.sort() };
    }
  }
  const head = await headSha(git);
  if (head !== input.baseSha) return { sha: head, created: false, paths: [] };
  throw commitServiceError('The site worktree has no launch changes to commit', false, {
    reason: 'nothing_to_commit',
  });
}
