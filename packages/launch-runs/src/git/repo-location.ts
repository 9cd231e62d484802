import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SwitchyardError } from '@switchyard/contracts/errors';

/** A repository as run_config names it: a local path, a file:// URL, or a network git URL. */
export interface RepoLocation {
  /** What git is given (an absolute path for local repositories). */
  cloneArg: string;
  kind: 'local' | 'file' | 'network';
  /** Credential-free form for messages, pr.json and PR URLs. */
  display: string;
}

const NETWORK_SCHEMES = /^(https?|ssh|git):\/\//i;
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:(?!\/\/)/;
/** The authority of a URL: from `//` to the first `/`, `?` or `#`. */
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;
/** What RFC 3986 allows in an authority: userinfo, host (IPv6 in brackets), port, percent-escapes. */
const AUTHORITY_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:%[\]@]*$/;

/**
 * Removes `user:password@` from URLs so a token pasted into a URL never reaches a message. The userinfo
 * runs to the last `@` of the authority (a password may hold a raw `@`), which ends at `/`, `?` or `#`.
 */
export function stripCredentials(url: string): string {
  return url.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#\s]*@/gi, '$1');
}

export function parseRepoLocation(repo: string, field: string): RepoLocation {
  const value = repo.trim();
  if (value === '' || value.startsWith('-') || value.includes('\0') || /[\r\n]/.test(value)) {
    throw new SwitchyardError('validation', `${field} must be a repository path or git URL`, {
      code: 'INVALID_INPUT',
      details: { field },
    });
  }
  if (/^file:\/\//i.test(value)) return { cloneArg: value, kind: 'file', display: value };
  if (NETWORK_SCHEMES.test(value) || SCP_LIKE.test(value)) {
    checkAuthority(value, field);
    return { cloneArg: value, kind: 'network', display: stripCredentials(value) };
  }
  if (/^[a-z][a-z0-9+.-]*::/i.test(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new SwitchyardError(
      'validation',
      `${field} uses an unsupported transport; use a path, file://, https:// or ssh://`,
      {
        code: 'INVALID_INPUT',
        details: { field },
      },
    );
  }
  const absolute = isAbsolute(value) ? value : resolve(value);
  return { cloneArg: absolute, kind: 'local', display: absolute };
}

/**
 * The policy reads a URL's host with the WHATWG parser; git hands the URL to curl or ssh, which read some
 * authorities differently: `http://github.com\@10.0.0.7/x` is github.com to the first and 10.0.0.7 to curl,
 * with two `@` curl takes the first, and not every reader decodes a percent-escaped host. An authority of
 * RFC 3986 characters, with at most one `@` and no escapes in the host, reads the same to all of them;
 * anything else is refused rather than guessed at.
 */
function checkAuthority(url: string, field: string): void {
  const authority = AUTHORITY.exec(url)?.[1];
  if (authority === undefined) return; // user@host:path: SCP_LIKE admits no such characters
  const parts = authority.split('@');
  const host = parts.at(-1) ?? '';
  if (AUTHORITY_CHARACTERS.test(authority) && parts.length <= 2 && !host.includes('%')) return;
  throw new SwitchyardError(
    'validation',
    `${field} has characters in its host part that git could read as another host (a backslash, a space, a ` +
      'second @, a percent-escape in the host ...); write the host plainly, and percent-encode such characters ' +
      'in the user name or password (@ is %40)',
    { code: 'INVALID_INPUT', details: { field, reason: 'ambiguous_url' } },
  );
}

/** A stable URL naming the repository: file:// for local paths, the credential-free URL otherwise. */
export function repoUrl(location: RepoLocation): string {
  return location.kind === 'local' ? pathToFileURL(location.cloneArg).href : location.display;
}
