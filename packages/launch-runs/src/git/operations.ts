import { SwitchyardError } from '@switchyard/contracts/errors';
import type { SimpleGit } from 'simple-git';
import { cancelledError } from '../pipeline/errors.js';
import { watchFolderSize } from '../subprocess/folder-size-watch.js';
import { gitFailureMessage } from './git-client.js';

/** git's words for a remote it could not reach or that failed to answer: worth trying again. */
const NETWORK_FAILURE =
  /could not resolve host|connection (refused|timed out|reset)|unable to access|network is unreachable|timed out|early eof/i;
/** git's words for a certificate it will not trust: the setup (a CA, a host name) is wrong, not the network. */
const TLS_FAILURE = /SSL certificate problem|certificate verif|no alternative certificate subject name/i;

/** Whether a git failure (its message) is the network's, so that trying again may succeed. */
export function isNetworkFailure(message: string): boolean {
  return NETWORK_FAILURE.test(message) && !TLS_FAILURE.test(message);
}

/** Runs one git step; an abort becomes CANCELLED, any other failure `onError(message)`. */
export async function gitStep<T>(
  signal: AbortSignal | undefined,
  step: () => Promise<T>,
  onError: (message: string, cause: unknown) => SwitchyardError,
): Promise<T> {
  const aborted = (): boolean => signal?.aborted === true;
  if (aborted()) throw cancelledError();
  try {
    return await step();
  } catch (error) {
    if (aborted()) throw cancelledError();
    if (error instanceof SwitchyardError) throw error;
    throw onError(gitFailureMessage(error), error);
  }
}

/** The operator's bounds on one git command: how long it may take, and what a folder it writes may hold. */
export interface GitBounds {
  timeoutMs: number;
  folder?: { dir: string; maxBytes: number };
}

/** Which bound stopped a git command. */
export type GitBound = 'time' | 'bytes';

/**
 * gitStep for a command that may take long or write much (a clone, a checkout, a push): `step` gets a
 * signal that also aborts, killing git, when `bounds.timeoutMs` passes or `bounds.folder` grows past its
 * bytes; that failure is `exceeded(bound)`.
 */
export async function boundedGitStep<T>(
  signal: AbortSignal,
  bounds: GitBounds,
  step: (signal: AbortSignal) => Promise<T>,
  onError: (message: string, cause: unknown) => SwitchyardError,
  exceeded: (bound: GitBound) => SwitchyardError,
): Promise<T> {
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort('time' satisfies GitBound), bounds.timeoutMs);
  const { folder } = bounds;
  const stopWatching =
    folder === undefined
      ? () => undefined
      : watchFolderSize(folder.dir, folder.maxBytes, () => limit.abort('bytes' satisfies GitBound));
  try {
    return await gitStep(
      signal,
      () => step(AbortSignal.any([signal, limit.signal])),
      (message, cause) =>
        limit.signal.aborted ? exceeded(limit.signal.reason as GitBound) : onError(message, cause),
    );
  } finally {
    clearTimeout(timer);
    stopWatching();
  }
}

/** An internal git failure: INTERNAL with a cause class and a redacted message. */
export function gitInternalError(what: string): (message: string, cause: unknown) => SwitchyardError {
  return (message) =>
    new SwitchyardError('internal', `git ${what} failed: ${message}`, {
      code: 'INTERNAL',
      details: { cause_class: 'GitError', step: what },
    });
}

/** The commit `ref` names in a fresh clone: a remote branch, a tag, or a commit SHA; undefined if none. */
export async function resolveCommit(git: SimpleGit, ref: string): Promise<string | undefined> {
  const candidates = [`refs/remotes/origin/${ref}`, `refs/tags/${ref}`, ref];
  for (const candidate of candidates) {
    try {
      const sha = (
        await git.raw(['rev-parse', '--verify', '--quiet', '--end-of-options', `${candidate}^{commit}`])
      ).trim();
      if (/^[0-9a-f]{40,64}$/.test(sha)) return sha;
    } catch {
      // Not this kind of ref; try the next.
    }
  }
  return undefined;
}

export async function headSha(git: SimpleGit): Promise<string> {
  return (await git.raw(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
}

/** Tracked files of the worktree, as git lists them (NUL separated, so any file name survives). */
export async function trackedFiles(git: SimpleGit): Promise<string[]> {
  const out = await git.raw(['ls-files', '-z', '--cached']);
  return out.split('\0').filter((path) => path !== '');
}

/** A file's content at a commit, or undefined when the commit has no such file. */
export async function fileAtCommit(
  git: SimpleGit,
  commit: string,
  path: string,
): Promise<string | undefined> {
  try {
    const type = (await git.raw(['cat-file', '-t', `${commit}:${path}`])).trim();
    if (type !== 'blob') return undefined;
  } catch {
    return undefined;
  }
  return git.raw(['cat-file', 'blob', `${commit}:${path}`]);
}
