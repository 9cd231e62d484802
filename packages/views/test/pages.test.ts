import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MAX_VIEW_BYTES } from '../src/catalog.js';
import type * as Views from '../src/index.js';

// The package as built (dist/index.js reads dist/html), as servers use it; typed by its source, so that a
// type-check before the build (a clean checkout) does not need dist/.
const BUILT = '../dist/index.js';
const { VIEW_NAMES, viewHtml } = (await import(BUILT)) as typeof Views;

// The built pages (dist/html), as the server reads them: `pnpm build` first.
describe.each(VIEW_NAMES)('the built %s view', (name) => {
  it('is one self-contained page under 150 KB: nothing loaded, no address to reach', async () => {
    const html = await readFile(new URL(`../dist/html/${name}.html`, import.meta.url), 'utf8');
    expect(Buffer.byteLength(html, 'utf8')).toBeLessThan(MAX_VIEW_BYTES);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/\b(src|href|srcset|action)=|@import|url\(\s*['"]?(https?:|\/\/)/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none';`);
  });

  it('carries the tools it may call as data that cannot end its script element', async () => {
    const html = await viewHtml(name, { get_line_status: 'x</script><script>alert(1)</script>' });
    const element = /<script type="application\/json" id="switchyard-tools">(.*?)<\/script>/.exec(html);
    expect(JSON.parse(element?.[1] ?? 'null')).toEqual({
      get_line_status: 'x</script><script>alert(1)</script>',
    });
  });
});
