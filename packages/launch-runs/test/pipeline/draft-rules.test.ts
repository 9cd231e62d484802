/**
 * Rules of the drafting half of the launch pipeline (W3 snippets, W4 plan, W5 drafts, W6 link, W8 fixes and
 * writeSiteFiles) that no other test held: each row fails when the rule it names is broken (found by mutating
 * the code by hand, see docs/pipeline.md for the rules).
 */
import { cp, lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  RunConfigSchema,
  SECTIONS,
  type GateName,
  type RunConfig,
  type Section,
  type ValidationIssue,
  type ValidationReport,
} from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFix, type FixOutcome } from '../../src/fixes/index.js';
import { SiteIndex } from '../../src/gates/site-index.js';
import type {
  Claim,
  OutlineItem,
  PagePlan,
  PatchBundle,
  ProductFacts,
  Snippet,
  SnippetCatalog,
} from '../../src/pipeline/artifact-schemas.js';
import type { ExampleRepos } from '../../src/pipeline/examples.js';
import { frontMatterValue, launchFrontMatter } from '../../src/pipeline/front-matter-values.js';
import { sha256Hex, snippetId } from '../../src/pipeline/hashing.js';
import { createLaunchPipeline, exampleRunConfig, materializeExampleRepos } from '../../src/pipeline/index.js';
import { coherentPages, sentenceKey } from '../../src/pipeline/page-coherence.js';
import { buildPagePlan, contentRootOf } from '../../src/pipeline/plan.js';
import { heading } from '../../src/pipeline/plan-outline.js';
import {
  fencedBlock,
  renderBody,
  renderFrontMatter,
  renderPage,
  snippetBlock,
  type RenderContext,
} from '../../src/pipeline/render.js';
import { writeSiteFiles } from '../../src/pipeline/site-files.js';
import { fenceLanguage, inferLanguage } from '../../src/pipeline/snippets.js';
import {
  copyRun,
  failure,
  gitRepoFrom,
  prepareExampleRun,
  readSitePage,
  tempDir,
  workerContext,
  writeSitePage,
  type PreparedRun,
} from './helpers.js';

let root: string;
let cleanup: () => Promise<void>;
let repos: ExampleRepos;
beforeAll(async () => {
  ({ path: root, cleanup } = await tempDir('draft-rules'));
  repos = await materializeExampleRepos(join(root, 'repos'));
});
afterAll(() => cleanup());

let repoCount = 0;
/** A pipeline after W1 on a source repository holding `files` (path -> content), every section required. */
async function clonedSourceOf(files: Record<string, string>) {
  repoCount += 1;
  const dir = join(root, `source-${repoCount}`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, 'src', path)), { recursive: true });
    await writeFile(join(dir, 'src', path), content);
  }
  const repo = await gitRepoFrom(join(dir, 'src'), join(dir, 'repo'));
  const ctx = workerContext({
    config: {
      ...exampleRunConfig(repos),
      product_slug: 'widget',
      product_name: 'Widget',
      source: { repo },
      required_sections: [...SECTIONS],
      allowed_paths: ['content/**'],
    },
    runDir: join(dir, 'run'),
  });
  const pipeline = createLaunchPipeline();
  await pipeline.cloneInputs(ctx);
  return { ctx, pipeline };
}

/** W3's catalog for a source repository holding `files` (path -> content). */
async function catalogOf(files: Record<string, string>): Promise<SnippetCatalog['snippets']> {
  const { ctx, pipeline } = await clonedSourceOf(files);
  await pipeline.catalogSnippets(ctx);
  return ctx.artifacts.json<SnippetCatalog>('snippet_catalog.json').snippets;
}

const lines = (count: number): string => `${Array.from({ length: count }, (_, i) => `a${i};`).join('\n')}\n`;

describe('W3 snippet catalog rules', () => {
  let snippets: SnippetCatalog['snippets'];
  const byPath = (path: string) => snippets.find((snippet) => snippet.provenance[0]!.path === path);
  beforeAll(async () => {
    snippets = await catalogOf({
      'README.md': '# W\n\n## Usage\n\n```sh\nnpm run a\n```\n\n```\n   \n```\n',
      // Only the README skips sections (License, ...): a docs page's fences are all catalogued.
      'docs/guide.md': '# Widget notes\n\n## License\n\n```sh\nnpm run docs-license\n```\n',
      'Docs/Upper.markdown': '# Upper\n\n```sh\nnpm run upper-docs\n```\n',
      'docs/tool.js': 'console.log("docs code");\n',
      'example/one.js': 'console.log("singular");\n',
      'Examples/Two.JS': 'console.log("upper");\n',
      'examples/big-ok.js': `//${'x'.repeat(16 * 1024 - 3)}\n`,
      'examples/big-no.js': `//${'x'.repeat(16 * 1024 - 2)}\n`,
      'examples/lines-200.js': lines(200),
      'examples/lines-201.js': `${lines(200)}z;\n`,
      'examples/trail.js': 'x = 1;\n\n\n',
    });
  });

  const rows: [string, string, Partial<Snippet> | undefined][] = [
    ['a code file under docs/ is not a snippet (only its Markdown fences)', 'docs/tool.js', undefined],
    [
      'a docs page fence under a License heading is catalogued',
      'docs/guide.md',
      { content: 'npm run docs-license', section: 'docs' },
    ],
    [
      'a .markdown file is read; its section is its top folder in lower case',
      'Docs/Upper.markdown',
      { content: 'npm run upper-docs', section: 'docs' },
    ],
    [
      'a file under example/ (singular) is in the examples section',
      'example/one.js',
      {
        language: 'js',
        language_source: 'extension',
        section: 'examples',
        topics: ['example/one.js'],
      },
    ],
    [
      'folder and extension match case-insensitively',
      'Examples/Two.JS',
      { language: 'js', content: 'console.log("upper");' },
    ],
    ['a file of exactly 16 KiB is catalogued', 'examples/big-ok.js', { language: 'js' }],
    ['a file over 16 KiB is not', 'examples/big-no.js', undefined],
    ['a file of exactly 200 lines is catalogued', 'examples/lines-200.js', { language: 'js' }],
    ['a file of 201 lines is not', 'examples/lines-201.js', undefined],
  ];
  it.each(rows)('%s', (_rule, path, expected) => {
    const snippet = byPath(path);
    if (expected === undefined) expect(snippet).toBeUndefined();
    else expect(snippet).toMatchObject(expected);
  });

  it('a whole file loses all its trailing newlines; its provenance spans its content lines only', () => {
    const snippet = byPath('examples/trail.js')!;
    expect(snippet.content).toBe('x = 1;');
    expect(snippet.provenance[0]).toMatchObject({ line_start: 1, line_end: 1 });
    expect(byPath('examples/lines-200.js')!.provenance[0]).toMatchObject({
      line_start: 1,
      line_end: 200,
    });
  });

  it('a fence holding only whitespace is no snippet', () => {
    expect(snippets.filter((snippet) => snippet.content.trim() === '')).toEqual([]);
  });

  it('at most 40 whole files; a file left out for its size does not count', async () => {
    const files: Record<string, string> = {
      'examples/a-big.js': `//${'x'.repeat(16 * 1024)}\n`,
    };
    for (let index = 0; index <= 40; index += 1) {
      files[`examples/f${String(index).padStart(2, '0')}.js`] = `f(${index});\n`;
    }
    const catalogued = (await catalogOf(files)).map((snippet) => snippet.provenance[0]!.path);
    expect(catalogued).toEqual(
      Array.from({ length: 40 }, (_, index) => `examples/f${String(index).padStart(2, '0')}.js`),
    );
  });
});

describe('W3 language rules', () => {
  const rows: [string, string, string][] = [
    ['a "$ " prompt is shell', '$ tallyho --help', 'sh'],
    ['shell comments between commands stay shell', '# build\nnpm run build', 'sh'],
    ['one line that is not a command is not shell', 'npm run build\nthen read the output', 'text'],
    ['empty content is unknown', '', 'text'],
    ['a JSON array is JSON', '[1, 2, 3]', 'json'],
    ['a YAML list is YAML', '- one\n- two', 'yaml'],
    ['an arrow function is JS', 'items.map((x) => x * 2)', 'js'],
    ['a JS keyword on a later line is JS', '// comment\nconst a = 1;', 'js'],
    ['fn and use lines are Rust', 'use std::io;\nfn main() {}', 'rust'],
    ['a package clause is Go', 'package main', 'go'],
    ['let mut is Rust, not a JS let', 'let mut total = 0;', 'rust'],
    [
      'a Rust match arm is not a JS arrow',
      'fn sign(x: i32) -> i32 {\n  match x { 0 => 0, _ => 1 }\n}',
      'rust',
    ],
    ['a Python class with methods is Python', 'class Widget:\n    def render(self):\n        pass', 'python'],
    ['a bare Python import is Python', 'import os\nprint(os.getcwd())', 'python'],
    ['a Go file importing a package is Go', 'package main\n\nimport "fmt"\n\nvar n = 1', 'go'],
    ['a JS import from a module stays JS', "import { a } from './a.js';", 'js'],
    ['markup is HTML', '<div class="x"></div>', 'html'],
  ];
  it.each(rows)('%s', (_rule, content, language) => {
    expect(inferLanguage(content).language).toBe(language);
    expect(inferLanguage(content).source).toBe(language === 'text' ? 'unknown' : 'inferred');
  });

  it('a fence language keeps + and # and is lower case', () => {
    expect(fenceLanguage('C++ title="x"')).toBe('c++');
    expect(fenceLanguage('C#')).toBe('c#');
  });
});

let claimCount = 0;
/** A claim of the source README (or `source.path`), one line per claim unless `source` says otherwise. */
function claim(kind: Claim['kind'], text: string, extra: Partial<Claim> = {}): Claim {
  claimCount += 1;
  return {
    claim_id: `c_${claimCount.toString(16).padStart(12, '0')}`,
    kind,
    text,
    topics: [],
    style: 'sentence',
    source: { path: 'README.md', line: claimCount * 10 },
    ...extra,
  };
}

/** A catalogued snippet (README, line `line`, unless `extra` says otherwise). */
function snippet(section: string, content: string, line: number, extra: Partial<Snippet> = {}): Snippet {
  return {
    snippet_id: snippetId(content),
    language: 'sh',
    language_source: 'fence',
    content,
    topics: [],
    section,
    provenance: [
      {
        path: 'README.md',
        line_start: line,
        line_end: line,
        sha256: '0'.repeat(64),
      },
    ],
    ...extra,
  };
}

function planOf(
  claims: Claim[],
  snippets: Snippet[],
  sections: readonly Section[] = SECTIONS,
  name = 'Widget',
): PagePlan {
  const facts: ProductFacts = {
    schema_version: '1.0',
    product: {
      name,
      slug: 'widget',
      package_name: 'widget',
      ecosystem: 'npm',
      version: '1.0.0',
      license: 'MIT',
      install_command: 'npm install widget',
      repository_url: null,
    },
    claims,
  };
  return buildPagePlan({ facts, snippets, slug: 'widget', name, contentRoot: 'content' }, sections);
}

/** An outline as readable strings: `h2 Text`, `claim text (style)`, `snippet content`, `text ...`, `links ...`. */
function readable(plan: PagePlan, pageId: string): string[] {
  const page = plan.pages.find((candidate) => candidate.page_id === pageId);
  if (page === undefined) throw new Error(`no page ${pageId}`);
  const claims = new Map(allClaims.map((item) => [item.claim_id, item.text]));
  const snippets = new Map(allSnippets.map((item) => [item.snippet_id, item.content]));
  return page.outline.map((item: OutlineItem) => {
    switch (item.type) {
      case 'heading':
        return `h${item.level} ${item.text}`;
      case 'claim':
        return `${claims.get(item.claim_id) ?? item.claim_id} (${item.style})`;
      case 'snippet':
        return `snippet ${snippets.get(item.snippet_id) ?? item.snippet_id}`;
      case 'text':
        return `text ${item.text}`;
      case 'links':
        return `links ${item.heading}: ${item.page_ids.join(', ')}`;
    }
  });
}

const allClaims: Claim[] = [];
const allSnippets: Snippet[] = [];
const track = <T extends Claim | Snippet>(list: T[], item: T): T => {
  list.push(item);
  return item;
};
const c = (kind: Claim['kind'], text: string, extra: Partial<Claim> = {}): Claim =>
  track(allClaims, claim(kind, text, extra));
const s = (section: string, content: string, line: number, extra: Partial<Snippet> = {}): Snippet =>
  track(allSnippets, snippet(section, content, line, extra));

describe('W4 page templates', () => {
  const manifest = (line: number) => ({
    source: { path: 'package.json', line },
  });
  // Claims in source order (README lines 10, 20, ...), manifest facts from package.json.
  const claims = [
    c('summary', 'Widget is small.'),
    c('description', 'Widget counts words.', manifest(3)),
    c('feature', 'Fast counting.', { style: 'bullet' }),
    c('install', 'Install Widget with `npm install widget`.'),
    c('install', 'Or add it with yarn.'),
    c('install_note', 'Node 20 is enough.', { topics: ['Installation'] }),
    c('usage', 'Run it on a file.', { topics: ['Usage', 'CLI'] }),
    c('usage', 'Pass --json for JSON.', { topics: ['Usage', 'CLI'] }),
    c('usage', 'Import it as a module.', { topics: ['Usage', 'API use'] }),
    c('usage', 'Deep down.', { topics: ['Usage', 'A', 'B', 'C'] }),
    c('api', 'count() returns a number.', { topics: ['API', 'count()'] }),
    c('faq', 'Yes, it is fast.', { topics: ['FAQ', 'Is it fast?'] }),
    c('release', 'Widget 1.0.0 is out.'),
    c('change', 'Added counting.', { topics: ['1.0.0'], style: 'bullet' }),
    c('package_name', 'The package is widget.', manifest(2)),
    c('version', 'The current version of Widget is 1.0.0.', manifest(4)),
    c('license', 'Widget is released under the MIT license.', manifest(5)),
    c('runtime', 'Widget requires Node.js `>=20`.', manifest(6)),
    c('command', 'Widget provides the `widget` command.', manifest(7)),
    c('repository', 'The source is on GitHub.', manifest(8)),
    c('homepage', 'The homepage is widget.dev.', manifest(9)),
  ];
  const snippets = [
    s('intro', 'widget --version', 5),
    s('install', 'npm install widget', 65, { topics: ['Installation'] }),
    s('usage', 'widget file.txt', 75, { topics: ['Usage', 'CLI'] }),
    s('usage', '{not json', 76, { language: 'json', topics: ['Usage', 'CLI'] }),
    s('usage', 'a: [', 77, { language: 'yml', topics: ['Usage', 'CLI'] }),
    s('api', 'count("a b")', 115, { topics: ['API', 'count()'] }),
    s('examples', 'count(file)', 1, {
      topics: ['examples/a.js'],
      provenance: [
        {
          path: 'examples/a.js',
          line_start: 1,
          line_end: 1,
          sha256: '0'.repeat(64),
        },
      ],
    }),
  ];
  const plan = planOf(claims, snippets);

  const rows: [string, string, string[]][] = [
    [
      'products: description before summary; the usage snippet is the example (before intro); glance facts in fixed order',
      'products/overview',
      [
        'h2 Overview',
        'Widget counts words. (paragraph)',
        'Widget is small. (paragraph)',
        'h2 Features',
        'Fast counting. (bullet)',
        'h2 Example',
        'snippet widget file.txt',
        'h2 At a glance',
        'The package is widget. (bullet)',
        'The current version of Widget is 1.0.0. (bullet)',
        'Widget is released under the MIT license. (bullet)',
        'Widget requires Node.js `>=20`. (bullet)',
        'Widget provides the `widget` command. (bullet)',
        'The source is on GitHub. (bullet)',
        'The homepage is widget.dev. (bullet)',
        'links Related pages: docs/getting-started, docs/installation, docs/usage, reference/overview, kb/faq, blog/launch',
      ],
    ],
    [
      'getting started: the overview without the sentence the product page opens with; the first install claim and a link line; the first usage claim and the example',
      'docs/getting-started',
      [
        'h2 Overview',
        'Widget is small. (paragraph)',
        'h2 Install',
        'Install Widget with `npm install widget`. (paragraph)',
        'text See [Install Widget](/docs/widget/installation/) for details.',
        'h2 First steps',
        'Run it on a file. (paragraph)',
        'snippet widget file.txt',
        'links Related pages: docs/installation, docs/usage, reference/overview, kb/faq',
      ],
    ],
    [
      'installation: the install claim, the install notes and snippets by topic, requirements as bullets',
      'docs/installation',
      [
        'Install Widget with `npm install widget`. (paragraph)',
        'h2 Installation',
        'Node 20 is enough. (paragraph)',
        'snippet npm install widget',
        'h2 Requirements',
        'Widget requires Node.js `>=20`. (bullet)',
        'links Related pages: docs/getting-started, docs/usage, kb/faq',
      ],
    ],
    [
      'usage: README usage in source order, shared headings once, levels capped at 4, unparsable JSON/YAML left out',
      'docs/usage',
      [
        'h2 Usage',
        'h3 CLI',
        'Run it on a file. (paragraph)',
        'snippet widget file.txt',
        'Pass --json for JSON. (paragraph)',
        'h3 API use',
        'Import it as a module. (paragraph)',
        'h3 A',
        'h4 B',
        'h4 C',
        'Deep down. (paragraph)',
        'links Related pages: docs/getting-started, docs/installation, reference/overview',
      ],
    ],
    [
      'reference: package facts, then API claims and snippets in source order',
      'reference/overview',
      [
        'h2 Package',
        'The package is widget. (bullet)',
        'The current version of Widget is 1.0.0. (bullet)',
        'Widget is released under the MIT license. (bullet)',
        'Widget requires Node.js `>=20`. (bullet)',
        'Widget provides the `widget` command. (bullet)',
        'The source is on GitHub. (bullet)',
        'The homepage is widget.dev. (bullet)',
        'h2 API',
        'h3 count()',
        'count() returns a number. (paragraph)',
        'snippet count("a b")',
        'links Related pages: docs/usage, docs/installation, products/overview',
      ],
    ],
    [
      "kb: quick answers at level 3 (version, license, requirements; install is the installation page's opening), then the FAQ",
      'kb/faq',
      [
        'h2 Quick answers',
        'h3 Which version is current?',
        'The current version of Widget is 1.0.0. (paragraph)',
        'h3 Which license applies?',
        'Widget is released under the MIT license. (paragraph)',
        'h3 What does it require?',
        'Widget requires Node.js `>=20`. (paragraph)',
        'h2 FAQ',
        'h3 Is it fast?',
        'Yes, it is fast. (paragraph)',
        'links Related pages: docs/getting-started, docs/installation, products/overview',
      ],
    ],
    [
      "blog: highlights (the overview sentences open earlier pages), what's new (release, then changes under level-3 headings), get it (install, version)",
      'blog/launch',
      [
        'h2 Highlights',
        'Fast counting. (bullet)',
        "h2 What's new",
        'Widget 1.0.0 is out. (paragraph)',
        'h3 1.0.0',
        'Added counting. (bullet)',
        'h2 Get it',
        'Install Widget with `npm install widget`. (paragraph)',
        'The current version of Widget is 1.0.0. (paragraph)',
        'links Related pages: products/overview, docs/getting-started',
      ],
    ],
  ];
  it.each(rows)('%s', (_rule, pageId, outline) => {
    expect(readable(plan, pageId)).toEqual(outline);
  });

  it('pages, paths and URLs per section', () => {
    expect(plan.pages.map((page) => [page.page_id, page.path, page.url_path, page.draft])).toEqual([
      ['products/overview', 'content/products/widget.md', '/products/widget/', 'drafts/products/widget.md'],
      [
        'docs/getting-started',
        'content/docs/widget/getting-started.md',
        '/docs/widget/getting-started/',
        'drafts/docs/getting-started.md',
      ],
      [
        'docs/installation',
        'content/docs/widget/installation.md',
        '/docs/widget/installation/',
        'drafts/docs/installation.md',
      ],
      ['docs/usage', 'content/docs/widget/usage.md', '/docs/widget/usage/', 'drafts/docs/usage.md'],
      [
        'reference/overview',
        'content/reference/widget.md',
        '/reference/widget/',
        'drafts/reference/widget.md',
      ],
      ['kb/faq', 'content/kb/widget.md', '/kb/widget/', 'drafts/kb/widget.md'],
      [
        'blog/launch',
        'content/blog/introducing-widget.md',
        '/blog/introducing-widget/',
        'drafts/blog/introducing-widget.md',
      ],
    ]);
  });

  it('sections follow the canonical order, not the order of required_sections', () => {
    const reordered = planOf(claims, snippets, ['blog', 'kb', 'products']);
    expect(reordered.sections.map((entry) => entry.section)).toEqual(['products', 'kb', 'blog']);
    expect(reordered.pages.map((page) => page.page_id)).toEqual([
      'products/overview',
      'kb/faq',
      'blog/launch',
    ]);
    // Cross links only to planned pages; a page with none planned has no "Related pages" item.
    expect(reordered.pages.find((page) => page.page_id === 'blog/launch')!.links).toEqual([
      '/products/widget/',
    ]);
    const alone = planOf(claims, snippets, ['reference']);
    expect(alone.pages[0]!.links).toEqual([]);
    expect(alone.pages[0]!.outline.some((item) => item.type === 'links')).toBe(false);
  });

  it('without usage claims or snippets the usage page lists the example files under their paths; the product example falls back to them', () => {
    const fallback = planOf(
      claims.filter((item) => item.kind !== 'usage'),
      snippets.filter((item) => item.section === 'examples'),
    );
    expect(readable(fallback, 'docs/usage')).toEqual([
      'h2 Examples',
      'h3 examples/a.js',
      'snippet count(file)',
      'links Related pages: docs/getting-started, docs/installation, reference/overview',
    ]);
    expect(readable(fallback, 'products/overview')).toContain('snippet count(file)');
    const bare = planOf(
      claims.filter((item) => item.kind !== 'usage' && item.kind !== 'feature'),
      [],
    );
    // The overview claims, without the one the product page opens with.
    expect(readable(bare, 'docs/usage').slice(0, 2)).toEqual([
      'Widget is small. (paragraph)',
      'links Related pages: docs/getting-started, docs/installation, reference/overview',
    ]);
    // An empty template section has no heading.
    expect(readable(bare, 'products/overview')).not.toContain('h2 Features');
    expect(readable(bare, 'products/overview')).not.toContain('h2 Example');
  });

  it("the install link line escapes the product name's Markdown syntax", () => {
    const starred = planOf(claims, snippets, ['docs'], 'Wid*get');
    expect(readable(starred, 'docs/getting-started')).toContain(
      'text See [Install Wid\\*get](/docs/widget/installation/) for details.',
    );
  });

  const roots: [string, string][] = [
    ['./site/content/', 'site/content'],
    ['site\\content', 'site/content'],
    ['/content//', 'content'],
    ['', 'content'],
    ['/', 'content'],
  ];
  it.each(roots)('content root %j is %j', (value, expected) => {
    expect(contentRootOf(value)).toBe(expected);
  });
});

const fence = (language: string, code: string): string => `\`\`\`${language}\n${code}\n\`\`\``;

describe('W4 pages read as written (README lead-ins, repeats, openings)', () => {
  const quick = "count('a b');";
  const plain = "'a b'.split(' ').length;";
  const fileCall = "countFile('a.txt');";
  const filesCall = "countFiles(['a.txt']);";
  const pipe = 'cat a.txt | widget -';
  const readme = [
    '# Widget',
    'Widget counts words in files.',
    '## Features',
    '- Counts words fast\n- Reads any UTF-8 file',
    '## Install',
    fence('sh', 'npm install widget'),
    'Widget needs Node.js 20 or later.',
    '## Usage',
    fence('js', quick),
    'Without Widget, you would count them like this:',
    fence('js', plain),
    '## API',
    '### countFile(path)',
    'Returns the number of words in the file.',
    'Call it like this:',
    fence('js', fileCall),
    '### countFiles(paths)',
    'Returns the total over all the files.',
    'Call it like this:',
    fence('js', filesCall),
    '## FAQ',
    '### Can it read standard input?',
    'Pipe the text in and pass a dash like this:',
    fence('sh', pipe),
  ].join('\n\n');
  const manifest = JSON.stringify({
    name: 'widget',
    version: '1.0.0',
    description: 'Counts words in files.',
    license: 'MIT',
  });
  let plan: PagePlan;
  let facts: ProductFacts;
  beforeAll(async () => {
    const { ctx, pipeline } = await clonedSourceOf({ 'README.md': `${readme}\n`, 'package.json': manifest });
    await pipeline.extractFacts(ctx);
    await pipeline.catalogSnippets(ctx);
    await pipeline.planPages(ctx);
    facts = ctx.artifacts.json<ProductFacts>('product_facts.json');
    plan = ctx.artifacts.json<PagePlan>('page_plan.json');
  });
  const claimText = (id: string): string => facts.claims.find((claim) => claim.claim_id === id)?.text ?? id;
  const byText = (text: string): Claim => facts.claims.find((claim) => claim.text === text)!;
  const page = (pageId: string) => plan.pages.find((candidate) => candidate.page_id === pageId)!;
  /** The outline as `claim text` and `snippet <code>`, headings as `hN text`. */
  const items = (pageId: string): string[] =>
    page(pageId).outline.flatMap((item) =>
      item.type === 'claim'
        ? [claimText(item.claim_id)]
        : item.type === 'snippet'
          ? [`snippet ${item.snippet_id}`]
          : item.type === 'heading'
            ? [`h${item.level} ${item.text}`]
            : [],
    );
  const snippetLine = (code: string): string => `snippet ${snippetId(code)}`;

  it('W2: the sentence ending with a colon right before a fence introduces that fence (one sentence before two fences introduces both)', () => {
    expect(byText('Without Widget, you would count them like this:').introduces).toEqual([snippetId(plain)]);
    expect(byText('Call it like this:').introduces).toEqual([snippetId(fileCall), snippetId(filesCall)]);
    expect(byText('Pipe the text in and pass a dash like this:').introduces).toEqual([snippetId(pipe)]);
    expect(byText('Returns the number of words in the file.').introduces).toBeUndefined();
  });

  it('a lead-in stands on a page only directly above its block, and every planned block with a lead-in has it', () => {
    for (const planned of plan.pages) {
      const outline = planned.outline;
      outline.forEach((item, index) => {
        const claim = item.type === 'claim' ? byText(claimText(item.claim_id)) : undefined;
        if (claim?.introduces !== undefined) {
          const next = outline[index + 1];
          expect(
            next?.type === 'snippet' && claim.introduces.includes(next.snippet_id),
            planned.page_id,
          ).toBe(true);
        }
        if (item.type !== 'snippet') return;
        const leadIns = facts.claims.filter((candidate) => candidate.introduces?.includes(item.snippet_id));
        for (const leadIn of leadIns)
          expect(outline[index - 1], planned.page_id).toMatchObject({ claim_id: leadIn.claim_id });
      });
    }
  });

  it("getting started's first steps: the quick example without the next block's lead-in", () => {
    const steps = items('docs/getting-started');
    expect(steps.slice(steps.indexOf('h2 First steps'))).toEqual(['h2 First steps', snippetLine(quick)]);
  });

  it('the FAQ carries the blocks its answers lead into (both chosen)', () => {
    expect(items('kb/faq')).toContain('Pipe the text in and pass a dash like this:');
    const answer = items('kb/faq').indexOf('Pipe the text in and pass a dash like this:');
    expect(items('kb/faq')[answer + 1]).toBe(snippetLine(pipe));
  });

  it('the tagline is not repeated as a sentence: the overview keeps the description only', () => {
    const overview = items('products/overview');
    expect(overview.slice(0, overview.indexOf('h2 Features'))).toEqual([
      'h2 Overview',
      'Counts words in files.',
    ]);
  });

  it('no sentence or snippet twice on a page (a lead-in above two different blocks stays with each)', () => {
    for (const planned of plan.pages) {
      const leadIns = new Set(
        facts.claims.filter((claim) => claim.introduces !== undefined).map((claim) => claim.text),
      );
      const lines = items(planned.page_id).filter((line) => !line.startsWith('h') && !leadIns.has(line));
      expect(lines, planned.page_id).toEqual([...new Set(lines)]);
      const keys = lines
        .filter((line) => !line.startsWith('snippet '))
        .map((line) => sentenceKey(line, 'Widget'));
      expect(keys, planned.page_id).toEqual([...new Set(keys)]);
    }
    const reference = items('reference/overview');
    expect(reference.filter((line) => line === 'Call it like this:')).toHaveLength(2);
    expect(reference[reference.indexOf(snippetLine(filesCall)) - 1]).toBe('Call it like this:');
  });

  it('no page opens with the sentence an earlier page opens with', () => {
    const openings = plan.pages.map((planned) => items(planned.page_id).find((line) => !/^h\d /.test(line)));
    expect(openings).toEqual([...new Set(openings)]);
    expect(openings[0]).toBe('Counts words in files.');
  });

  it('a snippet planned twice on a page is drafted once, with its lead-in once', () => {
    const leadIn = { ...byText('Without Widget, you would count them like this:') };
    const snippetItem: OutlineItem = { type: 'snippet', snippet_id: snippetId(plain) };
    const [drafted] = coherentPages(
      [
        {
          page_id: 'docs/usage',
          section: 'docs',
          template: 'docs/usage',
          title: 'Using Widget',
          description: 'How to use Widget.',
          weight: 30,
          file: 'widget/usage.md',
          url_path: '/docs/widget/usage/',
          outline: [heading('One'), snippetItem, heading('Two'), snippetItem],
          related: [],
        },
      ],
      [leadIn],
      'Widget',
    );
    expect(drafted!.outline).toEqual([
      heading('One'),
      { type: 'claim', claim_id: leadIn.claim_id, style: 'paragraph' },
      snippetItem,
    ]);
  });
});

describe('W5 front matter values', () => {
  let config: RunConfig;
  beforeAll(() => {
    config = RunConfigSchema.parse({
      ...exampleRunConfig(repos),
      product_slug: 'widget',
      product_name: 'Widget',
      commit: {
        author_name: 'Ada Author',
        author_email: 'ada@example.invalid',
      },
    });
  });
  const page = {
    title: 'Using Widget',
    description: 'How to use Widget.',
    weight: 30,
    urlPath: '/docs/widget/usage/',
  };
  const committedAt = '2025-01-01T00:00:00Z';
  const rows: [string, unknown, unknown][] = [
    ['summary', 'archetype summary', 'How to use Widget.'],
    ['date', '{{ .Date }}', committedAt],
    ['publishDate', null, committedAt],
    ['lastmod', null, committedAt],
    ['draft', true, false],
    ['slug', null, 'usage'],
    ['tags', ['launch'], ['launch']],
    ['categories', 'not a list', []],
    ['keywords', null, []],
    ['toc', false, true],
    ['product', null, 'widget'],
    ['author', null, 'Ada Author'],
    ['authors', null, ['Ada Author']],
    ['series', 'tools', 'tools'],
    ['image', undefined, null],
  ];
  it.each(rows)('%s (archetype default %j) is %j', (key, archetypeDefault, expected) => {
    expect(frontMatterValue(key, page, { config, committedAt, archetypeDefault })).toEqual(expected);
  });

  it('title, description and weight come first and from the plan, then the archetype keys in its order', () => {
    const data = launchFrontMatter(
      page,
      [
        { key: 'draft', default: true },
        { key: 'title', default: '{{ .Name }}' },
        { key: 'date', default: null },
      ],
      config,
      committedAt,
    );
    expect(Object.entries(data)).toEqual([
      ['title', 'Using Widget'],
      ['description', 'How to use Widget.'],
      ['weight', 30],
      ['draft', false],
      ['date', committedAt],
    ]);
  });
});

describe('W5 rendering', () => {
  const at = (line: number, text: string, style: Claim['style'] = 'sentence'): Claim =>
    claim('usage', text, { source: { path: 'README.md', line }, style });
  const one = at(1, 'One.');
  const two = at(1, 'Two.');
  const three = at(2, 'Three.');
  const bullet = at(3, 'Bullet.', 'bullet');
  const code = snippet('usage', 'npm test', 9);
  const context: RenderContext = {
    claims: new Map([one, two, three, bullet].map((item) => [item.claim_id, item])),
    snippets: new Map([[code.snippet_id, code]]),
    pages: new Map([['docs/usage', { title: 'Use *it*', url_path: '/docs/widget/usage/' }]]),
  };
  const para = (item: Claim): OutlineItem => ({
    type: 'claim',
    claim_id: item.claim_id,
    style: 'paragraph',
  });
  const list = (item: Claim): OutlineItem => ({
    type: 'claim',
    claim_id: item.claim_id,
    style: 'bullet',
  });
  const m = (item: Claim): string => `${item.text} <!-- claim_id: ${item.claim_id} -->`;
  const rows: [string, OutlineItem[], string][] = [
    [
      'sentences of one source line share a paragraph; another line starts a new one',
      [para(one), para(two), para(three)],
      `${m(one)}\n${m(two)}\n\n${m(three)}`,
    ],
    [
      'a list ends before the next paragraph, in order',
      [list(bullet), para(one)],
      `- ${m(bullet)}\n\n${m(one)}`,
    ],
    [
      'text is a block of its own after the paragraph',
      [para(one), { type: 'text', text: 'See more.' }],
      `${m(one)}\n\nSee more.`,
    ],
    [
      'headings keep their level',
      [{ type: 'heading', level: 3, text: 'Deep' }, para(one)],
      `### Deep\n\n${m(one)}`,
    ],
    [
      'a code block is cited on its own line, then a blank line',
      [{ type: 'snippet', snippet_id: code.snippet_id }],
      `<!-- snippet_id: ${code.snippet_id} -->\n\n\`\`\`sh\nnpm test\n\`\`\``,
    ],
    [
      'related links escape the title; links to unknown pages are dropped, and an empty list has no heading',
      [
        {
          type: 'links',
          heading: 'Related pages',
          page_ids: ['docs/usage', 'kb/faq'],
        },
        { type: 'links', heading: 'Nothing', page_ids: ['kb/faq'] },
      ],
      '## Related pages\n\n- [Use \\*it\\*](/docs/widget/usage/)',
    ],
  ];
  it.each(rows)('%s', (_rule, outline, expected) => {
    expect(renderBody(outline, context, 'page')).toBe(expected);
  });

  it('an unknown claim or snippet is a damaged plan', () => {
    for (const item of [
      { type: 'claim', claim_id: 'c_ffffffffffff', style: 'paragraph' },
      { type: 'snippet', snippet_id: 's_ffffffffffff' },
    ] as OutlineItem[]) {
      expect(() => renderBody([item], context, 'page')).toThrow(/cites unknown/);
    }
  });

  const fences: [string, string, string][] = [
    ['no backticks: three', 'a', '```'],
    ['a ``` line: four', 'a\n```\nb', '````'],
    ['an indented ```` line: five', 'a\n  ````\nb', '`````'],
  ];
  it.each(fences)('the fence is longer than any backtick run (%s)', (_rule, content, fence) => {
    expect(fencedBlock('md', content)).toBe(`${fence}md\n${content}\n${fence}`);
  });

  it('front matter lines are never folded; a page without body is only its front matter', () => {
    const description = 'word '.repeat(40).trim();
    expect(renderFrontMatter({ description })).toBe(`---\ndescription: ${description}\n---\n`);
    expect(renderPage({ title: 'T' }, '')).toBe('---\ntitle: T\n---\n');
    expect(renderPage({ title: 'T' }, 'Body.')).toBe('---\ntitle: T\n---\n\nBody.\n');
    expect(snippetBlock({ snippet_id: 's_1', language: 'sh', content: 'x' })).toBe(
      '<!-- snippet_id: s_1 -->\n\n```sh\nx\n```',
    );
  });
});

describe('W6 diff report', () => {
  it('counts the lines each patch adds and removes (not the diff headers); only updates get a diff', async () => {
    const siteSource = join(root, 'site-with-page');
    await cp(repos.siteWorkingCopy, siteSource, {
      recursive: true,
      filter: (path) => !path.includes('.git'),
    });
    await writeFile(
      join(siteSource, 'content', 'products', 'tallyho.md'),
      '---\ntitle: Old\n---\n\nOld page.\nSecond old line.\n',
    );
    const siteRepo = await gitRepoFrom(siteSource, join(root, 'site-with-page.git'));
    const run = await prepareExampleRun({ prefix: 'draft-rules-diff', siteRepo });
    try {
      const bundle = run.ctx.artifacts.json<PatchBundle>('patch_bundle.json');
      const report = run.ctx.artifacts.text('diff_report.md');
      const rows = new Map(
        [...report.matchAll(/^\| `p_[0-9a-f]+` \| (\w+) \| `([^`]+)` \| (\d+) \| (\d+) \|$/gm)].map(
          (match) => [match[2]!, { op: match[1]!, added: Number(match[3]), removed: Number(match[4]) }],
        ),
      );
      expect(rows.size).toBe(bundle.patches.length);
      expect(bundle.patches.find((patch) => patch.op === 'update')!.base_sha256).toBe(
        sha256Hex('---\ntitle: Old\n---\n\nOld page.\nSecond old line.\n'),
      );
      for (const patch of bundle.patches) {
        const row = rows.get(patch.path)!;
        if (patch.op === 'create') {
          expect(row).toEqual({ op: 'create', added: patch.content.split('\n').length - 1, removed: 0 });
          expect(report).not.toContain(`## ${patch.path}`);
          continue;
        }
        const diff = report.split(`## ${patch.path}\n\n\`\`\`diff\n`)[1]!.split('\n```')[0]!.split('\n');
        expect(diff[0]).toBe('--- a');
        expect(diff[1]).toBe('+++ b');
        const body = diff.slice(2);
        expect(row).toEqual({
          op: 'update',
          added: body.filter((line) => line.startsWith('+')).length,
          removed: body.filter((line) => line.startsWith('-')).length,
        });
        expect(body).toContain('-Second old line.');
      }
    } finally {
      await run.cleanup();
    }
  });
});

describe('W6 link refusals', () => {
  let drafted: PreparedRun;
  beforeAll(async () => {
    drafted = await prepareExampleRun({
      prefix: 'draft-rules-link',
      through: 'draft',
    });
  });
  afterAll(() => drafted.cleanup());

  it('a draft without front matter is a damaged artifact', async () => {
    const run = await copyRun(drafted, 'no-front-matter');
    const plan = run.artifacts.json<PagePlan>('page_plan.json');
    await run.artifacts.write(plan.pages[0]!.draft, 'Just a body.\n');
    const error = await failure(createLaunchPipeline().linkPages(run));
    expect(error.code).toBe('SCHEMA_VALIDATION_FAILED');
  });

  it('a missing site worktree is not reported as an allowed_paths violation', async () => {
    const run = await copyRun(drafted, 'no-site');
    await rm(join(run.runDir, 'workspace', 'site'), {
      recursive: true,
      force: true,
    });
    const error: unknown = await createLaunchPipeline()
      .linkPages(run)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeDefined();
    expect((error as { code?: string }).code).not.toBe('ALLOWED_PATHS_VIOLATION');
  });
});

describe('writeSiteFiles', () => {
  const ctx = (signal = new AbortController().signal) => ({
    config: { allowed_paths: ['content/**'] } as unknown as RunConfig,
    signal,
  });
  let site: string;
  beforeAll(async () => {
    site = join(root, 'write-site');
    await mkdir(join(site, 'content'), { recursive: true });
    await writeFile(join(site, 'content', 'same.md'), 'same\n');
    await writeFile(join(site, 'content', 'file'), 'a file, not a folder\n');
  });

  it('leaves a file with the same content alone (same inode) and replaces one that differs', async () => {
    const before = (await lstat(join(site, 'content', 'same.md'))).ino;
    await writeSiteFiles(site, [{ path: 'content/same.md', content: 'same\n' }], ctx());
    expect((await lstat(join(site, 'content', 'same.md'))).ino).toBe(before);
    await writeSiteFiles(site, [{ path: 'content/same.md', content: 'changed\n' }], ctx());
    expect(await readFile(join(site, 'content', 'same.md'), 'utf8')).toBe('changed\n');
  });

  it('an unsafe path is ALLOWED_PATHS_VIOLATION naming it', async () => {
    const error = await failure(writeSiteFiles(site, [{ path: '.git/config', content: 'x' }], ctx()));
    expect(error.code).toBe('ALLOWED_PATHS_VIOLATION');
    expect(error.details).toMatchObject({
      paths: ['.git/config'],
      allowed_paths: ['content/**'],
    });
  });

  it('any other failure is INTERNAL naming the path and the cause class', async () => {
    const error = await failure(
      writeSiteFiles(site, [{ path: 'content/file/under.md', content: 'x' }], ctx()),
    );
    expect(error.code).toBe('INTERNAL');
    expect(error.details).toMatchObject({
      path: 'content/file/under.md',
      cause_class: 'Error',
    });
  });

  it('a cancelled run writes nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(
      writeSiteFiles(site, [{ path: 'content/new.md', content: 'x' }], ctx(controller.signal)),
    );
    expect(error.code).toBe('CANCELLED');
    await expect(lstat(join(site, 'content', 'new.md'))).rejects.toThrow();
  });
});

describe('W8 fix rules', () => {
  const FIX_PAGE = 'content/docs/widget/page.md';
  const FRONT = '---\ntitle: Page\ndescription: A page.\nweight: 5\n---\n';
  const VERSION = 'c_00000000a001';
  const COUNTS = 'c_00000000a002';
  const COUNTS_TWIN = 'c_00000000a003';
  const evidenceClaims = {
    [VERSION]: {
      kind: 'version',
      text: 'The current version of Widget is 1.0.0.',
    },
    [COUNTS]: { kind: 'feature', text: 'Counts words quickly.' },
    [COUNTS_TWIN]: { kind: 'feature', text: 'Counts words quickly.' },
  } as const;
  const CODE_TS = snippet('usage', 'x = 1', 1, { language: 'ts' });
  const CODE_PY = snippet('usage', 'y = 2', 2, { language: 'python' });
  const CODE_BAD_JSON = snippet('usage', '{bad', 3, { language: 'json' });
  let fixCount = 0;

  interface FixCase {
    gate: GateName;
    code: string;
    message?: string;
    line: number;
    text: string;
    path?: string;
    files?: Record<string, string>;
    productName?: string;
  }
  async function fixed(input: FixCase): Promise<FixOutcome> {
    fixCount += 1;
    const siteRoot = join(root, `fix-site-${fixCount}`);
    const path = input.path ?? FIX_PAGE;
    for (const [file, content] of Object.entries({
      ...input.files,
      [path]: input.text,
    })) {
      await mkdir(dirname(join(siteRoot, file)), { recursive: true });
      await writeFile(join(siteRoot, file), content);
    }
    const site = await SiteIndex.load(siteRoot, 'content');
    const config = RunConfigSchema.parse({
      ...exampleRunConfig(repos),
      product_name: input.productName ?? 'Widget',
      product_slug: 'widget',
    });
    const issue: ValidationIssue = {
      issue_id: 'i_1',
      gate: input.gate,
      severity: 'error',
      error_code: input.code,
      message: input.message ?? '',
      location: { path, line: input.line },
      status: 'OPEN',
      suggested_fix: null,
    };
    const plan = planOf([], []);
    return applyFix(
      {
        issue,
        page: site.page(path)!,
        config,
        contentRoot: 'content',
        siteRoot,
        site,
        plan,
        facts: {
          schema_version: '1.0',
          product: {
            name: 'Widget',
            slug: 'widget',
            package_name: 'widget',
            ecosystem: 'npm',
            version: '1.0.0',
            license: 'MIT',
            install_command: 'npm install widget',
            repository_url: 'https://github.com/acme/widget',
          },
          claims: [],
        },
        evidence: {
          schema_version: '1.0',
          source_sha: '0'.repeat(40),
          claims: Object.fromEntries(
            Object.entries(evidenceClaims).map(([id, entry]) => [
              id,
              {
                ...entry,
                evidence: [
                  {
                    path: 'README.md',
                    line_start: 1,
                    line_end: 1,
                    sha256: '0'.repeat(64),
                  },
                ],
              },
            ]),
          ),
        },
        catalog: {
          schema_version: '1.0',
          snippets: [CODE_TS, CODE_PY, CODE_BAD_JSON],
        },
      },
      '2025-01-01T00:00:00Z',
    );
  }
  const body = (...lines: string[]): string => `${FRONT}\n${lines.join('\n')}\n`;
  const marker = (id: string) => `<!-- claim_id: ${id} -->`;

  const rows: [string, FixCase, string][] = [
    // Front matter
    [
      "a planned page gets the plan's title, description and weight, then a blank line and the old text",
      {
        gate: 'FrontMatter',
        code: 'FRONT_MATTER_MISSING',
        line: 1,
        path: 'content/docs/widget/usage.md',
        text: 'Body.\n',
      },
      '---\ntitle: Using Widget\ndescription: How to use Widget.\nweight: 30\n---\n\nBody.\n',
    ],
    [
      'an unplanned page without heading is titled from its file name (underscores are spaces, first letter upper case)',
      {
        gate: 'FrontMatter',
        code: 'FRONT_MATTER_MISSING',
        line: 1,
        path: 'content/docs/widget/my_guide.md',
        text: 'Body.\n',
      },
      '---\ntitle: My guide\ndescription: My guide\nweight: 100\n---\n\nBody.\n',
    ],
    [
      'an index page is titled from its folder',
      {
        gate: 'FrontMatter',
        code: 'FRONT_MATTER_MISSING',
        line: 1,
        path: 'content/docs/setup/index.md',
        text: 'Body.\n',
      },
      '---\ntitle: Setup\ndescription: Setup\nweight: 100\n---\n\nBody.\n',
    ],
    [
      'a rebuilt front matter keeps the values that still parse',
      {
        gate: 'FrontMatter',
        code: 'FRONT_MATTER_INVALID',
        line: 1,
        path: 'content/docs/widget/other.md',
        text: '---\ntitle: Mine\ndescription: [broken\nweight: 7\n---\n\nBody.\n',
      },
      '---\ntitle: Mine\ndescription: Other\nweight: 7\n---\n\nBody.\n',
    ],
    [
      'a missing key that is there after all is left alone',
      {
        gate: 'FrontMatter',
        code: 'FRONT_MATTER_MISSING_KEY',
        message: 'Front matter key "title" is missing',
        line: 1,
        text: body('Body.'),
      },
      body('Body.'),
    ],
    [
      "a missing key gets the archetype's literal default",
      {
        gate: 'FrontMatter',
        code: 'FRONT_MATTER_MISSING_KEY',
        message: 'Front matter key "series" is missing',
        line: 1,
        text: body('Body.'),
        files: { 'archetypes/docs.md': '---\ntitle: x\nseries: tools\n---\n' },
      },
      '---\ntitle: Page\ndescription: A page.\nweight: 5\nseries: tools\n---\n\nBody.\n',
    ],
    [
      'a value set keeps the closing fence and the body',
      {
        gate: 'FrontMatter',
        code: 'FRONT_MATTER_INVALID_VALUE',
        message: 'Front matter key "weight" has an invalid value',
        line: 4,
        text: '---\ntitle: Page\ndescription: A page.\nweight: heavy\n---\n\nBody.\n',
      },
      '---\ntitle: Page\ndescription: A page.\nweight: 100\n---\n\nBody.\n',
    ],
    // TruthLock
    [
      'a word overlap of exactly 0.5 is enough to cite the claim; the list marker stays',
      {
        gate: 'TruthLock',
        code: 'UNCITED_CLAIM',
        line: 7,
        text: body('- It counts words.'),
      },
      body(`- Counts words quickly. ${marker(COUNTS)}`),
    ],
    [
      'a factual line whose rest has no letter is removed, without leaving two blank lines',
      {
        gate: 'TruthLock',
        code: 'UNCITED_CLAIM',
        line: 9,
        text: body('Para.', '', 'Version 9.9.9 is out. :-)', '', 'Next.'),
      },
      body('Para.', '', 'Next.'),
    ],
    [
      'a mismatching line is restored from the marker that names a known claim; "1)" stays',
      {
        gate: 'TruthLock',
        code: 'CLAIM_TEXT_MISMATCH',
        line: 7,
        text: body(`1) The version is 2.0.0. <!-- claim_id: c_0000000bad00 --> ${marker(VERSION)}`),
      },
      body(`1) The current version of Widget is 1.0.0. ${marker(VERSION)}`),
    ],
    [
      'a dangling marker on a paraphrase is re-pointed to the claim',
      {
        gate: 'TruthLock',
        code: 'UNKNOWN_CLAIM_MARKER',
        line: 7,
        text: body('It counts words. <!-- claim_id: c_0000000bad00 -->'),
      },
      body(`Counts words quickly. ${marker(COUNTS)}`),
    ],
    // InternalLinks
    [
      'a last segment sharing fewer than 4 letters is no match: unlinked',
      {
        gate: 'InternalLinks',
        code: 'BROKEN_LINK',
        message: 'Link target /docs/ins/ does not resolve',
        line: 7,
        text: body('Read [this](/docs/ins/).'),
      },
      body('Read this.'),
    ],
    [
      'equal scores: the first planned page by URL wins',
      {
        gate: 'InternalLinks',
        code: 'BROKEN_LINK',
        message: 'Link target /a/started-introducing-zz/ does not resolve',
        line: 7,
        text: body('Read [this](/a/started-introducing-zz/).'),
      },
      body('Read [this](/blog/introducing-widget/).'),
    ],
    [
      'a broken anchor of the same page is unlinked (its text kept)',
      {
        gate: 'InternalLinks',
        code: 'BROKEN_ANCHOR',
        message: 'Anchor #nope of #nope does not match',
        line: 7,
        text: body('Read [above](#nope).'),
      },
      body('Read above.'),
    ],
    [
      'a broken image is removed, spaces collapsed',
      {
        gate: 'InternalLinks',
        code: 'BROKEN_LINK',
        message: 'Link target /img/none.png does not resolve',
        line: 7,
        text: body('See ![logo](/img/none.png) here. Then ![x](/img/none.png)'),
      },
      body('See here. Then ![x](/img/none.png)'),
    ],
    [
      'a broken image at the end leaves no trailing space',
      {
        gate: 'InternalLinks',
        code: 'BROKEN_LINK',
        message: 'Link target /img/none.png does not resolve',
        line: 7,
        text: body('See ![logo](/img/none.png)'),
      },
      body('See'),
    ],
    [
      'a re-pointed link keeps its title; the link the issue names is fixed',
      {
        gate: 'InternalLinks',
        code: 'BROKEN_LINK',
        message: 'Link target /docs/widget/usage-guide/ does not resolve',
        line: 7,
        text: body('[a](/pricing/) and [u](/docs/widget/usage-guide/ "Usage")'),
      },
      body('[a](/pricing/) and [u](/docs/widget/usage/ "Usage")'),
    ],
    [
      'an index.md link is matched by its folder name',
      {
        gate: 'InternalLinks',
        code: 'BROKEN_LINK',
        message: 'Link target /docs/widget/install/index.md does not resolve',
        line: 7,
        text: body('Read [this](/docs/widget/install/index.md).'),
      },
      body('Read [this](/docs/widget/installation/).'),
    ],
    // Reference-style links: the gate reports the use; the definition sits on another line.
    [
      'a reference link is re-pointed in its own definition, not one whose URL merely starts the same',
      {
        gate: 'InternalLinks',
        code: 'BROKEN_LINK',
        message: 'Link target /docs/widget/install/ does not resolve',
        line: 7,
        text: body(
          'Read [the guide][setup] first.',
          '',
          '[unused]: /docs/widget/install/old',
          '[setup]: /docs/widget/install/',
        ),
      },
      body(
        'Read [the guide][setup] first.',
        '',
        '[unused]: /docs/widget/install/old',
        '[setup]: /docs/widget/installation/',
      ),
    ],
    [
      'a reference link no planned page matches is unlinked where it is used; the definition stays',
      {
        gate: 'InternalLinks',
        code: 'BROKEN_LINK',
        message: 'Link target /docs/ins/ does not resolve',
        line: 7,
        text: body('Read [this][Gone] and [gone].', '', '[gone]: /docs/ins/ "Old"'),
      },
      body('Read this and [gone].', '', '[gone]: /docs/ins/ "Old"'),
    ],
    [
      'a collapsed reference is unlinked to its label; a reference image is removed',
      {
        gate: 'InternalLinks',
        code: 'BROKEN_LINK',
        message: 'Link target /img/none.png does not resolve',
        line: 7,
        text: body('See ![logo][] here.', '', '[logo]: /img/none.png'),
      },
      body('See here.', '', '[logo]: /img/none.png'),
    ],
    [
      "a reference link's broken anchor is dropped in its definition",
      {
        gate: 'InternalLinks',
        code: 'BROKEN_ANCHOR',
        message: 'Anchor #nope of /docs/widget/usage/#nope does not match',
        line: 7,
        text: body('Read [usage].', '', '[usage]: /docs/widget/usage/#nope'),
      },
      body('Read [usage].', '', '[usage]: /docs/widget/usage/'),
    ],
    [
      'a line in a code block that only looks like a definition is left alone',
      {
        gate: 'InternalLinks',
        code: 'BROKEN_ANCHOR',
        message: 'Anchor #nope of /docs/widget/usage/#nope does not match',
        line: 7,
        text: body(
          'Read [usage].',
          '',
          '```md',
          '[usage]: /docs/widget/usage/#nope',
          '```',
          '',
          '[usage]: /docs/widget/usage/#nope',
        ),
      },
      body(
        'Read [usage].',
        '',
        '```md',
        '[usage]: /docs/widget/usage/#nope',
        '```',
        '',
        '[usage]: /docs/widget/usage/',
      ),
    ],
    // TemplateTokens
    [
      'the product name is escaped for Markdown',
      {
        gate: 'TemplateTokens',
        code: 'UNRESOLVED_TEMPLATE_TOKEN',
        message: 'Unresolved template token __PRODUCT__',
        line: 7,
        text: body('__PRODUCT__ rocks.'),
        productName: 'Wid*get',
      },
      body('Wid\\*get rocks.'),
    ],
    [
      'one token per fix; tokens in code spans are left alone',
      {
        gate: 'TemplateTokens',
        code: 'UNRESOLVED_TEMPLATE_TOKEN',
        message: 'Unresolved template token __PRODUCT__',
        line: 7,
        text: body('Use `__PRODUCT__` or __PRODUCT__ and __PRODUCT__.'),
      },
      body('Use `__PRODUCT__` or Widget and __PRODUCT__.'),
    ],
    [
      'a removed token leaves no space before punctuation',
      {
        gate: 'TemplateTokens',
        code: 'UNRESOLVED_TEMPLATE_TOKEN',
        message: 'Unresolved template token __VERSION__',
        line: 7,
        text: body('Welcome to __VERSION__, friends.'),
      },
      body('Welcome to, friends.'),
    ],
    // Consistency
    [
      'the product name is rewritten in prose only (not in paths, link targets or code)',
      {
        gate: 'Consistency',
        code: 'INCONSISTENT_PRODUCT_NAME',
        message: 'The product name is written "widget"',
        line: 7,
        text: body('Get widget via cdn.io/widget, [the widget guide](widget.md) or `widget`.'),
      },
      body('Get Widget via cdn.io/widget, [the Widget guide](widget.md) or `widget`.'),
    ],
    [
      "a full reference link's label, which is not shown, is left alone",
      {
        gate: 'Consistency',
        code: 'INCONSISTENT_PRODUCT_NAME',
        message: 'The product name is written "widget"',
        line: 7,
        text: body('Read [the widget guide][widget docs].', '', '[widget docs]: /docs/widget/'),
      },
      body('Read [the Widget guide][widget docs].', '', '[widget docs]: /docs/widget/'),
    ],
    [
      'a repository URL keeps its path after the repository',
      {
        gate: 'Consistency',
        code: 'INCONSISTENT_REPOSITORY_URL',
        message:
          'Repository URL https://github.com/old/widgetz/tree/main/docs differs from the canonical one',
        line: 7,
        text: body('Docs: https://github.com/old/widgetz/tree/main/docs here.'),
      },
      body('Docs: https://github.com/acme/widget/tree/main/docs here.'),
    ],
    // Snippets
    [
      "a block without language takes its cited snippet's language and keeps its attributes",
      {
        gate: 'Snippets',
        code: 'MISSING_CODE_LANGUAGE',
        line: 9,
        text: body(`<!-- snippet_id: ${CODE_TS.snippet_id} -->`, '', '``` {title="x"}', 'y = 2', '```'),
      },
      body(`<!-- snippet_id: ${CODE_TS.snippet_id} -->`, '', '```ts {title="x"}', 'y = 2', '```'),
    ],
    [
      'a block that has a language is left alone',
      {
        gate: 'Snippets',
        code: 'MISSING_CODE_LANGUAGE',
        line: 7,
        text: body('```sh', 'y = 2', '```'),
      },
      body('```sh', 'y = 2', '```'),
    ],
    [
      'an uncited catalog block is cited with a blank line after the marker',
      {
        gate: 'Snippets',
        code: 'UNCITED_SNIPPET',
        line: 7,
        text: body('```python', 'y = 2', '```'),
      },
      body(`<!-- snippet_id: ${CODE_PY.snippet_id} -->`, '', '```python', 'y = 2', '```'),
    ],
    [
      'an unknown block is removed with its marker',
      {
        gate: 'Snippets',
        code: 'UNKNOWN_SNIPPET',
        line: 11,
        text: body(
          'Before.',
          '',
          '<!-- snippet_id: s_0000000bad00 -->',
          '',
          '```sh',
          'rm -rf x',
          '```',
          '',
          'After.',
        ),
      },
      body('Before.', '', 'After.'),
    ],
    [
      'invalid JSON that is the catalog content itself is removed, not "restored"',
      {
        gate: 'Snippets',
        code: 'INVALID_JSON_SNIPPET',
        line: 9,
        text: body(
          `<!-- snippet_id: ${CODE_BAD_JSON.snippet_id} -->`,
          '',
          '```json',
          '{bad',
          '```',
          '',
          'After.',
        ),
      },
      body('After.'),
    ],
  ];
  it.each(rows)('%s', async (_rule, input, expected) => {
    expect((await fixed(input)).text).toBe(expected);
  });

  it('ties between claims go to the lower claim id', async () => {
    const outcome = await fixed({
      gate: 'TruthLock',
      code: 'UNCITED_CLAIM',
      line: 7,
      text: body('It counts words.'),
    });
    expect(outcome.text).toContain(marker(COUNTS));
    expect(outcome.text).not.toContain(COUNTS_TWIN);
  });
});

describe('W8 planFix and applyFix', () => {
  let linked: PreparedRun;
  beforeAll(async () => {
    linked = await prepareExampleRun({
      prefix: 'draft-rules-fix',
      seedFixableProblem: false,
    });
  });
  afterAll(() => linked.cleanup());
  const PAGE = 'content/docs/crafted.md';
  const reportOf = (issue: Partial<ValidationIssue>): ValidationReport =>
    ({
      ok: false,
      issues: [
        {
          issue_id: 'i_crafted',
          gate: 'FrontMatter',
          severity: 'blocker',
          error_code: 'FRONT_MATTER_MISSING',
          message: 'The page has no front matter',
          location: { path: PAGE, line: 1 },
          status: 'OPEN',
          suggested_fix: null,
          ...issue,
        },
      ],
    }) as unknown as ValidationReport;

  it('an issue id longer than 64 characters is INVALID_INPUT', async () => {
    const run = await copyRun(linked, 'long-id');
    const error = await failure(createLaunchPipeline().planFix(run, reportOf({ issue_id: 'a'.repeat(65) })));
    expect(error.code).toBe('INVALID_INPUT');
  });

  it('planFix itself refuses a change outside allowed_paths', async () => {
    const run = await copyRun(linked, 'plan-outside', {
      allowed_paths: ['content/products/**'],
    });
    await writeSitePage(run, PAGE, 'Body.\n');
    const error = await failure(createLaunchPipeline().planFix(run, reportOf({})));
    expect(error.code).toBe('ALLOWED_PATHS_VIOLATION');
  });

  it('applyFix refuses a planned change outside allowed_paths and writes nothing', async () => {
    const run = await copyRun(linked, 'apply-outside', {
      allowed_paths: ['content/products/**'],
    });
    await writeSitePage(run, PAGE, 'Body.\n');
    const error = await failure(
      createLaunchPipeline().applyFix(run, {
        issue_id: 'i_crafted',
        change: {
          patch_id: 'p_1',
          path: PAGE,
          before_sha256: 'x',
          after_sha256: 'y',
          content: 'Changed.\n',
        },
        record: {},
      }),
    );
    expect(error.code).toBe('ALLOWED_PATHS_VIOLATION');
    expect(await readSitePage(run, PAGE)).toBe('Body.\n');
  });

  it('a fix that leaves the text as it is plans no change', async () => {
    const run = await copyRun(linked, 'no-op');
    await writeSitePage(run, PAGE, '---\ntitle: T\ndescription: D\nweight: 1\n---\n\nBody.\n');
    const plan = await createLaunchPipeline().planFix(
      run,
      reportOf({
        error_code: 'FRONT_MATTER_MISSING_KEY',
        message: 'Front matter key "title" is missing',
      }),
    );
    expect(plan.change).toBeNull();
    await createLaunchPipeline().applyFix(run, plan);
    expect(run.artifacts.json('fix_i_crafted.json')).toMatchObject({
      changed: false,
      patches: [],
      fix_kind: 'none',
    });
  });

  it('the fix record holds the sha256 before and after and the new content', async () => {
    const run = await copyRun(linked, 'record');
    await writeSitePage(run, PAGE, 'Body.\n');
    const pipeline = createLaunchPipeline();
    const plan = await pipeline.planFix(run, reportOf({}));
    await pipeline.applyFix(run, plan);
    const after = await readSitePage(run, PAGE);
    expect(run.artifacts.json('fix_i_crafted.json')).toMatchObject({
      changed: true,
      fix_kind: 'add_front_matter',
      patches: [
        {
          op: 'update',
          path: PAGE,
          before_sha256: sha256Hex('Body.\n'),
          after_sha256: sha256Hex(after),
          content: after,
        },
      ],
    });
  });
});
