import { posix } from 'node:path';
import type { PageDoc } from './page-doc.js';
import type { SiteIndex } from './site-index.js';
import type { Gate, IssueDraft } from './types.js';

const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

export type LinkResolution =
  | { ok: true; external: true }
  | { ok: true; external: false; page?: string }
  | { ok: false; reason: 'target' | 'anchor'; anchor?: string };

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Resolves a link of `page` inside the site: `/url/` against page URLs and static/, `x.md` against the
 * file system (relative to the page's folder), other relative links against the page's URL; `#anchor`
 * against the target page's headings.
 */
export function resolveLink(site: SiteIndex, page: PageDoc, href: string): LinkResolution {
  if (EXTERNAL.test(href)) return { ok: true, external: true };
  const hashIndex = href.indexOf('#');
  const target = (hashIndex === -1 ? href : href.slice(0, hashIndex)).split('?')[0] ?? '';
  const anchor = hashIndex === -1 ? undefined : decode(href.slice(hashIndex + 1));
  let targetPage: string | undefined;
  if (target === '') {
    targetPage = page.path;
  } else if (!target.startsWith('/') && /\.(md|markdown)$/i.test(target)) {
    const file = posix.normalize(posix.join(posix.dirname(page.path), decode(target)));
    if (file.startsWith('../') || !site.hasFile(file)) return { ok: false, reason: 'target' };
    targetPage = site.page(file) === undefined ? undefined : file;
  } else {
    const base = `https://site.invalid${site.urlOf(page)}`;
    const url = new URL(target, base).pathname;
    targetPage = site.pageForUrl(url);
    if (targetPage === undefined) {
      const pathname = decode(url).replace(/^\/+/, '');
      const asStatic = posix.join('static', pathname);
      const asContent = posix.join(site.contentRoot, pathname);
      const isRoot = pathname === '';
      if (!isRoot && !site.hasFile(asStatic) && !site.hasFile(asContent))
        return { ok: false, reason: 'target' };
      if (isRoot) return { ok: true, external: false };
    }
  }
  if (
    anchor !== undefined &&
    anchor !== '' &&
    targetPage !== undefined &&
    !site.anchorsOf(targetPage).has(anchor)
  ) {
    return { ok: false, reason: 'anchor', anchor };
  }
  return targetPage === undefined
    ? { ok: true, external: false }
    : { ok: true, external: false, page: targetPage };
}

/** InternalLinks: every relative link and anchor of the pages resolves inside the site worktree. */
export const internalLinksGate: Gate = {
  name: 'InternalLinks',
  run({ pages, site }) {
    const issues: IssueDraft[] = [];
    for (const page of pages) {
      for (const link of page.doc.links) {
        const result = resolveLink(site, page, link.href);
        if (result.ok) continue;
        issues.push(
          result.reason === 'target'
            ? {
                severity: 'error',
                error_code: 'BROKEN_LINK',
                message: `Link target ${link.href} does not resolve to a page or file of the site`,
                path: page.path,
                line: link.line,
                suggested_fix:
                  'Point the link at an existing page (the planned page it means) or remove the link',
              }
            : {
                severity: 'error',
                error_code: 'BROKEN_ANCHOR',
                message: `Anchor #${result.anchor ?? ''} of ${link.href} does not match a heading of its page`,
                path: page.path,
                line: link.line,
                suggested_fix: 'Point the anchor at an existing heading or remove it',
              },
        );
      }
    }
    return issues;
  },
};
