import { allowedPathsMatcher } from '../pipeline/site-files.js';
import type { PageDoc } from './page-doc.js';
import type { SiteIndex } from './site-index.js';

/** The pages the gates check: content pages inside allowed_paths (the part of the site the run owns). */
export function pagesInScope(site: SiteIndex, allowedPaths: readonly string[]): PageDoc[] {
  const allowed = allowedPathsMatcher(allowedPaths);
  const pages: PageDoc[] = [];
  for (const path of site.files) {
    if (!allowed(path)) continue;
    const page = site.page(path);
    if (page !== undefined) pages.push(page);
  }
  return pages;
}
