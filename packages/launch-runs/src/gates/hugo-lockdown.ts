import { join, resolve } from 'node:path';
import { escapeRegExp } from '../escape-regexp.js';
import { canonicalPath, isInside, siteRegion } from '../policy/canonical-path.js';

/**
 * Hugo runs a caller's site repository, so the operator's security policy must win over anything the site
 * configures. Verified with hugo 0.111.3: a `HUGO_<SECTION>_<KEY>` environment variable overrides the same key
 * from the site's hugo.toml, its config/ folder and its themes (themes cannot set `security` at all), and
 * flags override the site's paths. Every security key is therefore pinned here, so a site's
 * `[security.exec] allow = ['.*']` or `[security.funcs] getenv = ['.*']` changes nothing. What hugo's
 * policy does not cover (mounts and symlinks of the main project may reach outside it) is checked before the
 * build (hugoMountsOutsideSite, and the symlink walk in site-build.ts).
 */

/** What the operator lets a site's hugo build do (LAUNCH_HUGO_EXEC_ALLOW, LAUNCH_HUGO_HTTP_URLS). */
export interface HugoSecurity {
  /** Executables hugo may start (exact names, e.g. `postcss`, `npx`); none by default. */
  execAllow: readonly string[];
  /** URL prefixes resources.GetRemote may fetch; none by default. */
  httpUrls: readonly string[];
}

export const LOCKED_HUGO: HugoSecurity = { execAllow: [], httpUrls: [] };

/** Hugo's caches (`[caches.<name>] dir`), each pinned into the build folder. */
const HUGO_CACHES = ['getjson', 'getcsv', 'getresource', 'images', 'assets', 'modules'] as const;

/** One of hugo's allow-lists: `none` (hugo's word for nothing) or one anchored alternation. */
function allowList(values: readonly string[], anchorEnd: boolean): string {
  if (values.length === 0) return 'none';
  return `^(?:${values.map(escapeRegExp).join('|')})${anchorEnd ? '$' : ''}`;
}

/** The environment that pins hugo's security policy and every folder it writes to. */
export function hugoLockdownEnv(security: HugoSecurity, outputDir: string): Record<string, string> {
  const env: Record<string, string> = {
    HUGO_SECURITY_ENABLEINLINESHORTCODES: 'false',
    HUGO_SECURITY_EXEC_ALLOW: allowList(security.execAllow, true),
    HUGO_SECURITY_EXEC_OSENV: '(?i)^(PATH|HOME|USERPROFILE|LANG|LC_ALL|TMPDIR|TE?MP)$',
    HUGO_SECURITY_FUNCS_GETENV: '^HUGO_',
    HUGO_SECURITY_HTTP_URLS: allowList(security.httpUrls, false),
    HUGO_SECURITY_HTTP_METHODS: '(?i)^(GET|POST)$',
    HUGO_RESOURCEDIR: join(outputDir, 'resources'),
  };
  for (const cache of HUGO_CACHES)
    env[`HUGO_CACHES_${cache.toUpperCase()}_DIR`] = join(outputDir, 'cache', cache);
  return env;
}

/** Flags that pin where hugo reads from (the site, its own themes folder) and writes to (the build folder). */
export function hugoLocationArgs(siteRoot: string): string[] {
  return ['--source', siteRoot, '--themesDir', join(siteRoot, 'themes')];
}

export function hugoBuildArgs(siteRoot: string, outputDir: string): string[] {
  return [
    ...hugoLocationArgs(siteRoot),
    '--minify',
    '--destination',
    join(outputDir, 'public'),
    '--cacheDir',
    join(outputDir, 'cache'),
    '--noBuildLock',
    '--quiet',
  ];
}

export function hugoMountsArgs(siteRoot: string): string[] {
  return ['config', 'mounts', ...hugoLocationArgs(siteRoot)];
}

interface HugoModuleMounts {
  path?: unknown;
  dir?: unknown;
  mounts?: { source?: unknown }[];
}

/** `hugo config mounts` prints one JSON object per module, one after another. */
function parseModules(output: string): HugoModuleMounts[] | undefined {
  const text = output.trim();
  if (text === '') return [];
  try {
    return JSON.parse(`[${text.replace(/}\s*{/g, '},{')}]`) as HugoModuleMounts[];
  } catch {
    return undefined;
  }
}

/**
 * The first module folder or mount source (as hugo resolved them) that lies outside the site (a mount
 * source also in its repository's `.git`), or `unreadable` when hugo's answer cannot be read; undefined
 * when everything stays inside.
 */
export function hugoMountsOutsideSite(output: string, siteRoot: string): string | undefined {
  const modules = parseModules(output);
  if (modules === undefined) return 'unreadable';
  const root = canonicalPath(siteRoot);
  for (const module of modules) {
    if (typeof module.dir !== 'string') return 'unreadable';
    const dir = canonicalPath(module.dir);
    if (!isInside(root, dir)) return `module ${String(module.path)}`;
    for (const mount of module.mounts ?? []) {
      if (typeof mount.source !== 'string') return 'unreadable';
      if (siteRegion(root, canonicalPath(resolve(dir, mount.source))) !== 'site')
        return `mount ${mount.source}`;
    }
  }
  return undefined;
}
