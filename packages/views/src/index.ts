import { readFile } from 'node:fs/promises';
import type { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { CALLABLE_TOOLS_ELEMENT_ID, VIEW_NAMES, viewUri, type ViewName } from './catalog.js';

export { VIEW_NAMES, viewUri, type ViewName };

/**
 * `text/html;profile=mcp-app`, the extension's type for a view: the package's constant, checked by the compiler
 * (a type import: importing server-kit loads no `@modelcontextprotocol/` package, which its tests pin).
 */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
const _samePackageType: typeof RESOURCE_MIME_TYPE = VIEW_MIME_TYPE;

/**
 * The resource `_meta.ui` the extension reads from a view: no domain to connect to and none to load from
 * (hosts build the iframe's content security policy from it; empty lists mean no network at all).
 */
export const VIEW_RESOURCE_META = {
  ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
} as const;

/** Where the build wrote each view (dist/html/<name>.html, next to this module's dist/index.js). */
function viewFile(name: ViewName): URL {
  return new URL(`./html/${name}.html`, import.meta.url);
}

const pages = new Map<ViewName, Promise<string>>();

/** A view's page as built, read once per process. */
function page(name: ViewName): Promise<string> {
  let read = pages.get(name);
  if (read === undefined) {
    read = readFile(viewFile(name), 'utf8');
    read.catch(() => pages.delete(name));
    pages.set(name, read);
  }
  return read;
}

/** JSON safe inside a <script> element (no `</script>`, no `<!--`). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The view's HTML as a server serves it: the built page with the tools this server lets it call
 * (`callable`: name in the domain -> name the client calls).
 */
export async function viewHtml(name: ViewName, callable: Readonly<Record<string, string>>): Promise<string> {
  const html = await page(name);
  const element = `<script type="application/json" id="${CALLABLE_TOOLS_ELEMENT_ID}">${scriptJson(callable)}</script>`;
  return html.replace('</head>', () => `${element}</head>`);
}
