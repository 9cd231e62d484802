// Builds each view (src/views/<name>.ts and the shared CSS) into one self-contained page, dist/html/<name>.html:
// script and styles inline, nothing loaded from anywhere. Run after tsc (it reads the catalog from dist/).
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { MAX_VIEW_BYTES, VIEW_TITLES } from '../dist/catalog.js';

const OUT_DIR = 'dist/html';
/** No network for the page itself either, whatever the host's own policy. */
const PAGE_POLICY =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

const css = (
  await esbuild.transform(fs.readFileSync('src/app/base.css', 'utf8'), { loader: 'css', minify: true })
).code;

function escapeText(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

fs.mkdirSync(OUT_DIR, { recursive: true });
for (const [name, title] of Object.entries(VIEW_TITLES)) {
  const built = await esbuild.build({
    entryPoints: [`src/views/${name}.ts`],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  // `</script` inside the script (a string, a regex) would end the element early.
  const script = built.outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1');
  const page =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}">` +
    `<title>${escapeText(title)}</title><style>${css}</style></head>` +
    `<body><script type="module">${script}</script></body></html>\n`;
  const bytes = Buffer.byteLength(page, 'utf8');
  if (bytes > MAX_VIEW_BYTES) throw new Error(`view ${name} is ${bytes} bytes, over ${MAX_VIEW_BYTES}`);
  fs.writeFileSync(path.join(OUT_DIR, `${name}.html`), page);
  console.log(`view ${name}: ${bytes} bytes`);
}
