import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { compareCodePoints } from '../canonical-json.js';
import { uniqueSlugs } from '../pipeline/markdown/slug.js';
import { readSiteFile } from '../pipeline/site-files.js';
import { parsePage, type PageDoc } from './page-doc.js';

const MARKDOWN = /\.(md|markdown)$/i;

/** Every regular file of the worktree (site-relative, sorted); `.git` and symlinks are skipped. */
export async function listSiteFiles(siteRoot: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === '.git' || entry.isSymbolicLink()) continue;
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) await walk(join(dir, entry.name), path);
      else if (entry.isFile()) out.push(path);
    }
  };
  await walk(siteRoot, '');
  return out.sort(compareCodePoints);
}

/**
 * The site as a reader's browser sees it: every content page's URL (Hugo rules: `_index.md`/`index.md` give
 * the folder URL, `url` and `slug` front matter override), heading anchors, static files.
 */
export class SiteIndex {
  private readonly urls = new Map<string, string>();
  private readonly anchors = new Map<string, Set<string>>();
  private readonly docs = new Map<string, PageDoc>();

  private constructor(
    readonly files: ReadonlySet<string>,
    readonly contentRoot: string,
  ) {}

  static async load(siteRoot: string, contentRoot: string): Promise<SiteIndex> {
    const files = await listSiteFiles(siteRoot);
    const index = new SiteIndex(new Set(files), contentRoot);
    for (const path of files) {
      if (!path.startsWith(`${contentRoot}/`) || !MARKDOWN.test(path)) continue;
      const text = await readSiteFile(siteRoot, path);
      if (text === undefined) continue;
      const doc = parsePage(path, text);
      index.docs.set(path, doc);
      index.urls.set(normalizeUrl(index.urlOf(doc)), path);
    }
    return index;
  }

  /** The parsed page at `path`, when it is a content page. */
  page(path: string): PageDoc | undefined {
    return this.docs.get(path);
  }

  /** The URL Hugo serves a content page at. */
  urlOf(doc: PageDoc): string {
    const data = doc.frontMatter.data ?? {};
    if (typeof data.url === 'string' && data.url.trim() !== '') return data.url;
    const relative = doc.path.slice(this.contentRoot.length + 1).replace(MARKDOWN, '');
    const segments = relative.split('/');
    const last = segments.pop() ?? '';
    if (last === '_index' || last === 'index') return `/${segments.join('/')}/`.replace(/\/+/g, '/');
    const slug = typeof data.slug === 'string' && data.slug.trim() !== '' ? data.slug.trim() : last;
    return `/${[...segments, slug].join('/')}/`.replace(/\/+/g, '/');
  }

  /** The content page a site URL resolves to. */
  pageForUrl(url: string): string | undefined {
    return this.urls.get(normalizeUrl(url));
  }

  allUrls(): string[] {
    return [...this.urls.keys()].sort(compareCodePoints);
  }

  /** Heading anchors of a page (and explicit `{#id}` / `id="..."` anchors). */
  anchorsOf(path: string): Set<string> {
    const cached = this.anchors.get(path);
    if (cached !== undefined) return cached;
    const doc = this.docs.get(path);
    const result = new Set<string>();
    if (doc !== undefined) {
      const headings = doc.doc.blocks.filter((block) => block.type === 'heading');
      const texts = headings.map((block) => block.text.replace(/\s*\{#[^}]+\}\s*$/, ''));
      for (const slug of uniqueSlugs(texts)) result.add(slug);
      for (const block of headings) {
        const explicit = /\{#([^}\s]+)\}\s*$/.exec(block.text);
        if (explicit !== null) result.add(explicit[1]!);
      }
      for (const match of doc.text.matchAll(/\b(?:id|name)=["']([^"']+)["']/g)) result.add(match[1]!);
    }
    this.anchors.set(path, result);
    return result;
  }

  hasFile(path: string): boolean {
    return this.files.has(posix.normalize(path));
  }
}

/** `/docs/x` and `/docs/x/` and `/docs/x/index.html` are the same page. */
export function normalizeUrl(url: string): string {
  let path = url.split(/[?#]/)[0] ?? '';
  try {
    path = decodeURI(path);
  } catch {
    // keep as written
  }
  path = path.replace(/\/index\.html?$/i, '/');
  if (!path.startsWith('/')) path = `/${path}`;
  if (!path.endsWith('/')) path = `${path}/`;
  return path.replace(/\/+/g, '/');
}
