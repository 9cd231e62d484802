/**
 * Gate rules that no other test held (found by mutating src/gates/ by hand): each row pins one rule of a
 * gate's contract (docs/pipeline.md, "Gates (W7)"), so changing the rule fails a row here.
 */
import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { GateResult, ValidationIssue, ValidationReport } from '@switchyard/contracts/launch-runs';
import { registerSecret } from '@switchyard/resilience/context';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consistencyGate,
  installVariants,
  productNameVariants,
  repositoryVariants,
} from '../../src/gates/consistency.js';
import { factualReason, numericTokens, SNIPPET_MARKER, statementOf } from '../../src/gates/factual.js';
import { frontMatterGate } from '../../src/gates/front-matter-gate.js';
import { hugoBuildArgs, hugoLockdownEnv, hugoMountsOutsideSite } from '../../src/gates/hugo-lockdown.js';
import { internalLinksGate } from '../../src/gates/internal-links.js';
import { markdownLintGate } from '../../src/gates/markdown-lint.js';
import { parsePage } from '../../src/gates/page-doc.js';
import { buildReport, toIssue } from '../../src/gates/report.js';
import { pagesInScope } from '../../src/gates/scope.js';
import { runSiteBuild, siteBuildPlan, type SiteBuildPlan } from '../../src/gates/site-build.js';
import { SiteIndex } from '../../src/gates/site-index.js';
import { symlinkLeavingSite } from '../../src/gates/site-symlinks.js';
import { citedSnippet, snippetsGate } from '../../src/gates/snippets-gate.js';
import { templateTokensGate } from '../../src/gates/template-tokens.js';
import { truthLockGate } from '../../src/gates/truth-lock.js';
import type { Gate, GateContext, IssueDraft } from '../../src/gates/types.js';
import { tempDir } from './helpers.js';

const PAGE = 'content/docs/rules.md';
const FRONT = '---\ntitle: Rules\ndescription: A page of rules.\nweight: 5\n---\n';
/** Line 7 is the first body line of a page that starts with FRONT and a blank line. */
const body = (...lines: string[]): string => [FRONT, ...lines, ''].join('\n');

const CLAIM = 'c_0000000000a1';
const SNIPPET = 's_0000000000b1';
const REPO = 'https://github.com/switchyard-examples/tallyho';

function context(pages: GateContext['pages'], extra: Partial<GateContext> = {}): GateContext {
  return {
    config: { product_name: 'Tallyho', product_slug: 'tallyho', allow_inference: false },
    siteRoot: '/nonexistent-site',
    contentRoot: 'content',
    pages,
    evidence: {
      schema_version: '1.0',
      source_sha: '0'.repeat(40),
      claims: {
        [CLAIM]: { kind: 'version', text: 'The current version of Tallyho is 1.4.0.', evidence: [] },
      },
    },
    catalog: { snippets: [{ snippet_id: SNIPPET, language: 'sh', content: 'npm install tallyho' }] },
    facts: {
      product: { package_name: 'tallyho', repository_url: REPO, install_command: 'npm install tallyho' },
    },
    signal: new AbortController().signal,
    ...extra,
  } as unknown as GateContext;
}

async function runGate(gate: Gate, text: string, extra: Partial<GateContext> = {}): Promise<IssueDraft[]> {
  return gate.run(context([parsePage(PAGE, text)], extra));
}
const codeLines = (issues: IssueDraft[]): [string, number][] =>
  issues.map((issue) => [issue.error_code, issue.line]);

let root: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ path: root, cleanup } = await tempDir('gate-rules'));
});
afterAll(() => cleanup());

let siteCount = 0;
/** A site worktree with these files (site-relative path -> content). */
async function siteWith(files: Record<string, string>): Promise<string> {
  siteCount += 1;
  const siteRoot = join(root, `site-${siteCount}`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(siteRoot, path)), { recursive: true });
    await writeFile(join(siteRoot, path), content);
  }
  return siteRoot;
}

describe('severities: FrontMatter structure, TruthLock and SiteBuild are blockers, the rest errors', () => {
  it.each<[Gate, string, string, string]>([
    [frontMatterGate, 'FRONT_MATTER_MISSING', 'blocker', 'Text.\n'],
    [frontMatterGate, 'FRONT_MATTER_INVALID', 'blocker', '---\ntitle: [unclosed\n---\n'],
    [frontMatterGate, 'FRONT_MATTER_MISSING_KEY', 'error', '---\ntitle: T\ndescription: D\n---\n'],
    [
      frontMatterGate,
      'FRONT_MATTER_INVALID_VALUE',
      'error',
      '---\ntitle: T\ndescription: D\nweight: x\n---\n',
    ],
    [truthLockGate, 'UNCITED_CLAIM', 'blocker', body('Version 9.9.9 is out.')],
    [truthLockGate, 'UNKNOWN_CLAIM_MARKER', 'blocker', body('Text. <!-- claim_id: c_000000000000 -->')],
    [
      truthLockGate,
      'CLAIM_TEXT_MISMATCH',
      'blocker',
      body(`Version 2.0.0 is out. <!-- claim_id: ${CLAIM} -->`),
    ],
    [templateTokensGate, 'UNRESOLVED_TEMPLATE_TOKEN', 'error', body('Hello __NAME__.')],
    [consistencyGate, 'INCONSISTENT_PRODUCT_NAME', 'error', body('TALLYHO counts.')],
    [consistencyGate, 'INCONSISTENT_REPOSITORY_URL', 'error', body(`See ${REPO}.git for it.`)],
    [consistencyGate, 'INCONSISTENT_INSTALL_COMMAND', 'error', body('Run npm i tallyho first.')],
    [
      snippetsGate,
      'MISSING_CODE_LANGUAGE',
      'error',
      body(`<!-- snippet_id: ${SNIPPET} -->`, '```', 'npm install tallyho', '```'),
    ],
    [snippetsGate, 'INVALID_JSON_SNIPPET', 'error', body('```json', '{,}', '```')],
    [snippetsGate, 'UNCITED_SNIPPET', 'error', body('```sh', 'ls', '```')],
    [
      snippetsGate,
      'UNKNOWN_SNIPPET',
      'error',
      body('<!-- snippet_id: s_000000000000 -->', '```sh', 'ls', '```'),
    ],
    [
      snippetsGate,
      'SNIPPET_MISMATCH',
      'error',
      body(`<!-- snippet_id: ${SNIPPET} -->`, '```sh', 'ls', '```'),
    ],
  ])('%#: %s', async (gate, code, severity, text) => {
    const issues = await runGate(gate, text);
    expect(issues.filter((issue) => issue.error_code === code).map((issue) => issue.severity)).toEqual([
      severity,
    ]);
  });
});

describe('TruthLock: what a factual line is', () => {
  it.each<[string, string | undefined]>([
    ['Released as v3.0 today.', 'version'],
    ['Distributed under the license of the authors.', 'license'],
    ['Use it under any License you like.', 'license'],
    ['Run `tallyho notes.txt` to count.', 'command'],
    ['Then npm ci --silent does the rest.', 'command'],
    ['Call formatTally(counts) on the result.', 'api name'],
    ['You can count pages.', 'capability'],
    ['Supports Markdown.', 'capability'],
    ['Supports 3 formats.', 'number'],
    ['2025', undefined],
    ['See the guide. <!-- note 42 -->', undefined],
    ['See [the guide](/docs/v2/guide/) first.', undefined],
    ['See https://example.com/v2 first.', undefined],
    ['See <img src="logo2.png" alt="logo"> above.', undefined],
    ['1. Read the guide.', undefined],
    ['Web3 Kit at a glance.', undefined],
  ])('%s -> %s', (line, reason) => {
    expect(factualReason(statementOf(line, ['Web3 Kit']))).toBe(reason);
  });

  it.each<[string, string[]]>([
    ['Run `npm i x@2` for version 1.4.0.', ['1.4.0']],
    ['Counts 1,000 words.', ['1,000']],
    ['Tallyho v1.4.0 is out.', ['1.4.0']],
  ])('the numbers a cited line states: %s', (statement, tokens) => {
    expect(numericTokens(statement)).toEqual(tokens);
  });

  it('a snippet marker is a line of its own', () => {
    expect(SNIPPET_MARKER.test(`<!-- snippet_id: ${SNIPPET} -->`)).toBe(true);
    expect(SNIPPET_MARKER.test(`Text <!-- snippet_id: ${SNIPPET} -->`)).toBe(false);
  });

  it.each<[string, string, [string, number][]]>([
    [
      'a table row is factual',
      body('| Version | 9.9.9 |', '| --- | --- |', '| a | b |'),
      [['UNCITED_CLAIM', 7]],
    ],
    ['an HTML line is factual', body('<p>Supports 3 formats</p>'), [['UNCITED_CLAIM', 7]]],
    ['a heading is not', body('## Version 9.9', '', 'Read on.'), []],
    [
      'a line whose marker does not resolve is not also checked for numbers',
      body('Counts 42 words. <!-- claim_id: c_000000000000 -->'),
      [['UNKNOWN_CLAIM_MARKER', 7]],
    ],
    [
      'a marker must have the claim id format even when the evidence map has the key',
      body('Counts words. <!-- claim_id: C_BAD -->'),
      [['UNKNOWN_CLAIM_MARKER', 7]],
    ],
  ])('%s', async (_title, text, expected) => {
    const evidence = {
      schema_version: '1.0',
      source_sha: '0'.repeat(40),
      claims: {
        [CLAIM]: { kind: 'version', text: 'The current version of Tallyho is 1.4.0.', evidence: [] },
        C_BAD: { kind: 'feature', text: 'Counts words.', evidence: [] },
      },
    } as unknown as GateContext['evidence'];
    expect(codeLines(await runGate(truthLockGate, text, { evidence }))).toEqual(expected);
  });

  it('a cited line is compared with its claims as statements (a URL in the claim text states nothing)', async () => {
    const evidence = {
      schema_version: '1.0',
      source_sha: '0'.repeat(40),
      claims: {
        [CLAIM]: { kind: 'feature', text: 'Docs live at https://tallyho.dev/v2 now.', evidence: [] },
      },
    } as unknown as GateContext['evidence'];
    const issues = await runGate(
      truthLockGate,
      body(`Docs for version 2 live there. <!-- claim_id: ${CLAIM} -->`),
      {
        evidence,
      },
    );
    expect(codeLines(issues)).toEqual([['CLAIM_TEXT_MISMATCH', 7]]);
  });

  it('the message quotes the statement without autolinks', async () => {
    const [issue] = await runGate(truthLockGate, body('Supports <https://tallyho.dev> now.'));
    expect(issue!.message).toBe('Factual line (capability) has no claim marker: "Supports now."');
  });

  it('the message quotes at most 80 characters of the statement', async () => {
    const at = async (length: number): Promise<string> => {
      const statement = `Version 9 ${'x'.repeat(length - 10)}`;
      const [issue] = await runGate(truthLockGate, body(statement));
      return issue!.message;
    };
    expect(await at(80)).toMatch(/x"$/);
    expect(await at(81)).toMatch(/x\.\.\."$/);
    expect((await at(81)).split('"')[1]).toHaveLength(80);
  });
});

describe('Consistency', () => {
  it.each<[string, string[]]>([
    ['Use `TALLYHO` here.', []],
    ['Text <!-- TALLYHO --> here.', []],
    ['Read [the guide](TALLYHO.md).', []],
    ['Read [the guide][TALLYHO docs].', []],
    ['Read [TALLYHO docs][].', ['TALLYHO']],
    ['Read [TALLYHO][docs].', ['TALLYHO']],
    ['See https://example.com/?q=TALLYHO now.', []],
    ['The my-TALLYHO fork.', []],
    ['The SuperTALLYHO fork.', []],
    ['Two TALLYHOs.', []],
    ['Install tallyho.', []],
    ['TALLYHO and TallyHo.', ['TALLYHO', 'TallyHo']],
  ])('product name variants of %s', (line, expected) => {
    expect(productNameVariants(line, 'Tallyho', ['tallyho'])).toEqual(expected);
  });

  it.each<[string, string[]]>([
    [
      'Clone git://github.com/switchyard-examples/tallyho now.',
      ['git://github.com/switchyard-examples/tallyho'],
    ],
    [
      'Clone git+https://github.com/switchyard-examples/tallyho.git now.',
      ['git+https://github.com/switchyard-examples/tallyho.git'],
    ],
    [`See ${REPO}.`, []],
    [
      'See https://github.com/switchyard-examples/TallyHo.',
      ['https://github.com/switchyard-examples/TallyHo'],
    ],
    [`See ${REPO}?tab=readme-ov-file, ${REPO}#usage and ${REPO}/issues.`, []],
    [
      'See https://github.com/switchyard-examples/TallyHo now.',
      ['https://github.com/switchyard-examples/TallyHo'],
    ],
    [
      'See https://github.com/switchyard-examplez/tallyho/issues now.',
      ['https://github.com/switchyard-examplez/tallyho/issues'],
    ],
    ['A mirror: https://gitlab.com/switchyard-examples/tallyho.', []],
  ])('repository URL variants of %s', (line, expected) => {
    expect(repositoryVariants(line, REPO)).toEqual(expected);
  });

  it.each<[string, string[]]>([
    ['npm i tallyho', ['npm i tallyho']],
    ['pnpm add tallyho', []],
    ['npm install tallyho', []],
    ['npm install tallyho@1.4.0', ['npm install tallyho@1.4.0']],
    ['npm install tallyho@^1.4.0', ['npm install tallyho@^1.4.0']],
    ['npm install Tally-Ho', ['npm install Tally-Ho']],
    ['npm install other', []],
  ])('install command variants of %s', (line, expected) => {
    expect(installVariants(line, 'npm install tallyho', 'tallyho')).toEqual(expected);
  });

  it("checks a link reference definition's URL, which is published, but not its label, which is not", async () => {
    const text = body(
      'See [the source][src] and [the issues][tallyho issues].',
      '',
      '[src]: https://github.com/switchyard-examplez/tallyho',
      '[TallyHo issues]: <https://github.com/switchyard-examples/tallyho/issues>',
      '[npm i tallyho]: https://www.npmjs.com/package/tallyho',
    );
    const issues = await runGate(consistencyGate, text);
    expect(issues.map((issue) => [issue.error_code, issue.line, issue.message])).toEqual([
      [
        'INCONSISTENT_REPOSITORY_URL',
        9,
        `Repository URL https://github.com/switchyard-examplez/tallyho differs from ${REPO}`,
      ],
    ]);
  });

  it('the slug is an allowed spelling of the product name; install commands in front matter are left alone', async () => {
    const config = { product_name: 'Counter', product_slug: 'counter', allow_inference: false };
    const text =
      '---\ntitle: Rules\ndescription: Install with npm i tallyho, says COUNTER.\nweight: 5\n---\n\nThe counter CLI, not the COUNTER one.\n';
    const issues = await runGate(consistencyGate, text, { config } as Partial<GateContext>);
    expect(codeLines(issues)).toEqual([
      ['INCONSISTENT_PRODUCT_NAME', 3],
      ['INCONSISTENT_PRODUCT_NAME', 7],
    ]);
  });
});

describe('Snippets', () => {
  it.each<[string, string, { id: string; line: number } | undefined]>([
    [
      'a marker on the first line of a page',
      `<!-- snippet_id: ${SNIPPET} -->\n\n\`\`\`sh\nls\n\`\`\`\n`,
      { id: SNIPPET, line: 1 },
    ],
    [
      'a marker above other text',
      `<!-- snippet_id: ${SNIPPET} -->\n\nText.\n\n\`\`\`sh\nls\n\`\`\`\n`,
      undefined,
    ],
  ])('the snippet cited by a fence: %s', (_title, text, expected) => {
    const page = parsePage(PAGE, text);
    const fence = page.doc.blocks.find((block) => block.type === 'fence')!;
    expect(citedSnippet(page, fence.startLine)).toEqual(expected);
  });

  it.each<[string, string, [string, number][]]>([
    [
      'an invalid yml block',
      body('```yml', 'a: [', '```'),
      [
        ['INVALID_YAML_SNIPPET', 7],
        ['UNCITED_SNIPPET', 7],
      ],
    ],
    [
      'an invalid yaml block',
      body('```yaml', 'a: [', '```'),
      [
        ['INVALID_YAML_SNIPPET', 7],
        ['UNCITED_SNIPPET', 7],
      ],
    ],
    [
      'a trailing space is a change',
      body(`<!-- snippet_id: ${SNIPPET} -->`, '', '```sh', 'npm install tallyho ', '```'),
      [['SNIPPET_MISMATCH', 9]],
    ],
  ])('%s', async (_title, text, expected) => {
    expect(codeLines(await runGate(snippetsGate, text))).toEqual(expected);
  });
});

describe('FrontMatter values', () => {
  it.each<[string, string, string[]]>([
    ['a blank title', "title: '   '\ndescription: D\nweight: 1", ['FRONT_MATTER_INVALID_VALUE title']],
    [
      'an empty description',
      "title: T\ndescription: ''\nweight: 1",
      ['FRONT_MATTER_INVALID_VALUE description'],
    ],
    ['a numeric title', 'title: 42\ndescription: D\nweight: 1', ['FRONT_MATTER_INVALID_VALUE title']],
    ['a fractional weight', 'title: T\ndescription: D\nweight: 1.5', ['FRONT_MATTER_INVALID_VALUE weight']],
    [
      'a missing description is missing, not invalid',
      'title: T\nweight: 1',
      ['FRONT_MATTER_MISSING_KEY description'],
    ],
    [
      'a missing weight is missing, not invalid',
      'title: T\ndescription: D',
      ['FRONT_MATTER_MISSING_KEY weight'],
    ],
  ])('%s', async (_title, yaml, expected) => {
    const issues = await runGate(frontMatterGate, `---\n${yaml}\n---\n\nText.\n`);
    expect(issues.map((issue) => `${issue.error_code} ${/"(\w+)"/.exec(issue.message)?.[1]}`)).toEqual(
      expected,
    );
  });
});

describe('FrontMatter archetypes', () => {
  it("a page's section (its first folder under content_root) picks its archetype", async () => {
    const siteRoot = await siteWith({
      'archetypes/default.md': '---\ntitle: x\n---\n',
      'archetypes/docs.md': '---\ntitle: x\ntoc: true\n---\n',
    });
    const issues = await runGate(frontMatterGate, `${FRONT}\nText.\n`, { siteRoot });
    expect(issues.map((issue) => issue.message)).toEqual(['Front matter key "toc" is missing']);
  });
});

describe('TemplateTokens', () => {
  it.each<[string, string, string[]]>([
    [
      'a token inside a code block',
      body(`<!-- snippet_id: ${SNIPPET} -->`, '', '```sh', 'echo {{ .Site.Title }} __NAME__', '```'),
      [],
    ],
    ['a lower-case dunder name', body('Python calls __init__ first.'), []],
    ['a Hugo % shortcode', body('{{% notice %}}Hi{{% /notice %}}'), []],
    ['a double-backtick code span', body('Use ``__NOT_A_TOKEN__`` here.'), []],
    ['a prose token', body('Hello __NAME__.'), ['__NAME__']],
  ])('%s', async (_title, text, expected) => {
    const issues = await runGate(templateTokensGate, text);
    expect(issues.map((issue) => /token (.*)$/.exec(issue.message)?.[1])).toEqual(expected);
  });
});

describe('InternalLinks and the site index', () => {
  const PAGES = {
    'content/_index.md': '---\ntitle: Home\n---\n',
    'content/docs/_index.md': '---\ntitle: Docs\n---\n',
    'content/docs/guide.md':
      '---\ntitle: Guide\n---\n\n## Intro {#custom}\n\n## Café au lait\n\n## Options\n\n## Options\n\n<a name="legacy"></a>\n',
    'content/docs/notes.markdown': '---\ntitle: Notes\n---\n',
    'content/docs/moved.md': '---\ntitle: Moved\nurl: /elsewhere/moved/\n---\n',
    'content/docs/bundle/index.md': '---\ntitle: Bundle\n---\n',
    'content/docs/slugged.md': "---\ntitle: Slugged\nslug: ' renamed '\n---\n",
    'content/docs/accent.md': '---\ntitle: Accent\nslug: café\n---\n',
    'static/images/logo.png': 'png',
    'static/images/my logo.png': 'png',
    'README.md': '# Site\n',
  };
  let site: SiteIndex;
  let siteRoot: string;
  beforeAll(async () => {
    siteRoot = await siteWith(PAGES);
    await symlink(join(siteRoot, 'static', 'images', 'logo.png'), join(siteRoot, 'static', 'linked.png'));
    site = await SiteIndex.load(siteRoot, 'content');
  });
  const check = async (href: string): Promise<string[]> => {
    const page = parsePage(PAGE, `${FRONT}\n## Rules\n\nSee [the target](${href}).\n`);
    const issues = await internalLinksGate.run({ ...context([page]), site });
    return issues.map((issue) => issue.error_code);
  };

  it.each<[string, string[]]>([
    ['//cdn.example.com/x.js', []],
    ['mailto:team@example.com', []],
    ['guide.md?plain=1', []],
    ['guide.md#caf%C3%A9-au-lait', []],
    ['/docs/guide/#café-au-lait', []],
    ['/docs/_index.md', []],
    ['/products/nothing.md', ['BROKEN_LINK']],
    ['notes.markdown', []],
    ['../../README.md#no-such-heading', []],
    ['/images/logo.png', []],
    ['/images/logo.png#x', []],
    ['/images/my%20logo.png', []],
    ['/linked.png', ['BROKEN_LINK']],
    ['#', []],
    ['/elsewhere/moved/', []],
    ['/docs/moved/', ['BROKEN_LINK']],
    ['/docs/bundle/', []],
    ['/docs/renamed/', []],
    ['/docs/caf%C3%A9/', []],
    ['/docs//guide/', []],
    ['/docs/guide/index.html', []],
    ['/docs/guide/#intro', []],
    ['/docs/guide/#custom', []],
    ['/docs/guide/#intro-custom', ['BROKEN_ANCHOR']],
    ['/docs/guide/#options-1', []],
    ['/docs/guide/#legacy', []],
  ])('%s -> %j', async (href, expected) => {
    expect(await check(href)).toEqual(expected);
  });

  it('the site root resolves even without a content/_index.md', async () => {
    const bare = await SiteIndex.load(
      await siteWith({ 'content/docs/guide.md': '---\ntitle: G\n---\n' }),
      'content',
    );
    const page = parsePage(PAGE, `${FRONT}\nSee [home](/).\n`);
    expect(await internalLinksGate.run({ ...context([page]), site: bare })).toEqual([]);
  });

  it('only pages inside allowed_paths are in scope', () => {
    expect(pagesInScope(site, ['content/docs/bundle/**']).map((page) => page.path)).toEqual([
      'content/docs/bundle/index.md',
    ]);
  });
});

describe('MarkdownLint: the pinned rule set', () => {
  const lint = async (...lines: string[]): Promise<[string, string, boolean][]> => {
    const issues = await runGate(markdownLintGate, body('## Rules', '', ...lines));
    return issues.map((issue) => [issue.error_code, issue.severity, issue.suggested_fix !== null]);
  };
  it.each<[string, string[]]>([
    ['a tab in a code block', ['```sh', 'a\tb', '```']],
    ['a long line', [`A ${'long '.repeat(40)}line.`]],
    ['a $ prompt', ['```sh', '$ npm install tallyho', '```']],
    [
      'repeated headings under different parents',
      ['### Options', '', 'A.', '', '## Other', '', '### Options', '', 'B.'],
    ],
    ['a comment', ['<!-- claim_id: c_000000000000 -->']],
  ])('%s is allowed', async (_title, lines) => {
    expect(await lint(...lines)).toEqual([]);
  });

  it('an HTML element is a warning without a fix (markdownlint cannot fix it); a fixable rule is an error', async () => {
    expect(await lint('<div>x</div>')).toEqual([['MD033_NO_INLINE_HTML', 'warn', false]]);
    expect(await lint('Text. ')).toEqual([['MD009_NO_TRAILING_SPACES', 'error', true]]);
  });
});

describe('the report', () => {
  const issue = (
    gate: ValidationIssue['gate'],
    severity: ValidationIssue['severity'],
    path: string,
    line: number,
    message = 'm',
  ) => toIssue(gate, { severity, error_code: 'X', message, path, line, suggested_fix: null });
  const gates = (...names: GateResult['name'][]): GateResult[] =>
    names.map((name) => ({ name, ok: true, duration_ms: 0 }));

  it('sorts by severity, gate, path, line, then issue id', () => {
    const found = [
      issue('InternalLinks', 'error', 'content/a.md', 1),
      issue('Consistency', 'error', 'content/b.md', 9),
      issue('Consistency', 'error', 'content/a.md', 20),
      issue('Consistency', 'error', 'content/a.md', 3),
      issue('Consistency', 'error', 'content/a.md', 3, 'other'),
      issue('TruthLock', 'blocker', 'content/z.md', 50),
    ];
    const report = buildReport('local', [], found, undefined);
    const tie = [found[3]!, found[4]!].sort((a, b) => (a.issue_id < b.issue_id ? -1 : 1));
    expect(report.issues).toEqual([found[5], ...tie, found[2], found[1], found[0]]);
  });

  it('ok is false with an open error; true with warnings only', () => {
    expect(buildReport('local', [], [issue('Snippets', 'error', 'p', 1)], undefined).ok).toBe(false);
    expect(buildReport('local', [], [issue('MarkdownLint', 'warn', 'p', 1)], undefined).ok).toBe(true);
  });

  it('open issues come first, then RESOLVED ones; an issue still open is not also RESOLVED', () => {
    const stillOpen = issue('Snippets', 'error', 'p', 2);
    const gone = issue('TruthLock', 'blocker', 'p', 1);
    const previous: ValidationReport = buildReport('local', [], [gone, stillOpen], undefined);
    const report = buildReport('local', [], [stillOpen], previous);
    expect(report.issues.map((entry) => [entry.issue_id, entry.status])).toEqual([
      [stillOpen.issue_id, 'OPEN'],
      [gone.issue_id, 'RESOLVED'],
    ]);
  });

  it('lists gates in contract order whatever order they ran in', () => {
    const report = buildReport(
      'ci',
      gates('SiteBuild', 'Snippets', 'FrontMatter', 'TruthLock'),
      [],
      undefined,
    );
    expect(report.gates.map((gate) => gate.name)).toEqual([
      'FrontMatter',
      'TruthLock',
      'Snippets',
      'SiteBuild',
    ]);
  });
});

describe('SiteBuild', () => {
  it.each([
    'hugo.toml',
    'hugo.yaml',
    'hugo.yml',
    'hugo.json',
    'config.toml',
    'config.yaml',
    'config.yml',
    'config.json',
  ])('a site with %s is built with hugo', (config) => {
    const plan = siteBuildPlan(
      new Set([config, 'content/_index.md']),
      { siteBuildCommand: undefined, hugoBinary: 'hugo', hugoSecurity: { execAllow: [], httpUrls: [] } },
      { site: '/s', output: '/o' },
    );
    expect(plan).toMatchObject({ generator: 'hugo', configPath: config, command: 'hugo' });
  });

  it('a configured build command wins over a hugo config; its issues have no config path', () => {
    const plan = siteBuildPlan(
      new Set(['hugo.toml']),
      {
        siteBuildCommand: { command: 'make', args: ['site'] },
        hugoBinary: 'hugo',
        hugoSecurity: { execAllow: [], httpUrls: [] },
      },
      { site: '/s', output: '/o' },
    );
    expect(plan).toEqual({ command: 'make', args: ['site'], env: {}, configPath: '', generator: 'custom' });
  });

  const node = (script: string): SiteBuildPlan => ({
    command: process.execPath,
    args: ['-e', script],
    env: {},
    configPath: '',
    generator: 'custom',
  });
  const build = async (plan: SiteBuildPlan, timeoutMs = 30_000): Promise<IssueDraft[]> => {
    const siteRoot = await siteWith({ 'content/_index.md': '---\ntitle: Home\n---\n' });
    return runSiteBuild(
      plan,
      siteRoot,
      join(root, `build-${siteCount}`),
      { timeoutMs, maxOutputBytes: 10_000_000 },
      new AbortController().signal,
      'ci',
    );
  };

  it('a failed build names its exit code and the last five lines of output, site and build folders masked', async () => {
    const [issue] = await build(
      node(
        'for (const n of [1,2,3,4,5,6]) console.error("line" + n); console.error(process.cwd() + "/x " + process.env.SWITCHYARD_SITE_BUILD_DIR + "/y"); process.exit(3)',
      ),
    );
    expect(issue).toMatchObject({ severity: 'blocker', error_code: 'SITE_BUILD_FAILED', path: '', line: 0 });
    expect(issue!.message).toBe('The custom build failed (exit code 3)');
    expect(issue!.suggested_fix).toBe('Fix the build error: line3 | line4 | line5 | line6 | ./x <build>/y');
  });

  it('a registered secret the build prints is masked in the suggested fix', async () => {
    registerSecret('gate-rules-secret-7f3a9c');
    const [issue] = await build(node('console.error("token gate-rules-secret-7f3a9c"); process.exit(2)'));
    expect(issue!.suggested_fix).toBe('Fix the build error: token [REDACTED]');
  });

  it('a silent failure has no suggested fix; a slow build is a timeout', async () => {
    expect(await build(node('process.exit(1)'))).toMatchObject([
      { error_code: 'SITE_BUILD_FAILED', suggested_fix: null },
    ]);
    expect(await build(node('setTimeout(() => {}, 20000)'), 300)).toMatchObject([
      { error_code: 'SITE_BUILD_TIMEOUT', severity: 'blocker' },
    ]);
  });

  it('a build command that cannot be executed is TOOLCHAIN_MISSING', async () => {
    const script = join(root, 'not-executable.sh');
    await writeFile(script, '#!/bin/sh\nexit 0\n');
    await chmod(script, 0o644);
    await expect(build({ ...node(''), command: script, args: [] })).rejects.toMatchObject({
      code: 'TOOLCHAIN_MISSING',
    });
  });
});

describe('hugo lockdown', () => {
  it('pins every security key and every folder hugo writes', () => {
    expect(hugoLockdownEnv({ execAllow: ['postcss', 'a.b'], httpUrls: ['https://x.com/'] }, '/out')).toEqual({
      HUGO_SECURITY_ENABLEINLINESHORTCODES: 'false',
      HUGO_SECURITY_EXEC_ALLOW: '^(?:postcss|a\\.b)$',
      HUGO_SECURITY_EXEC_OSENV: '(?i)^(PATH|HOME|USERPROFILE|LANG|LC_ALL|TMPDIR|TE?MP)$',
      HUGO_SECURITY_FUNCS_GETENV: '^HUGO_',
      HUGO_SECURITY_HTTP_URLS: '^(?:https://x\\.com/)',
      HUGO_SECURITY_HTTP_METHODS: '(?i)^(GET|POST)$',
      HUGO_RESOURCEDIR: '/out/resources',
      HUGO_CACHES_GETJSON_DIR: '/out/cache/getjson',
      HUGO_CACHES_GETCSV_DIR: '/out/cache/getcsv',
      HUGO_CACHES_GETRESOURCE_DIR: '/out/cache/getresource',
      HUGO_CACHES_IMAGES_DIR: '/out/cache/images',
      HUGO_CACHES_ASSETS_DIR: '/out/cache/assets',
      HUGO_CACHES_MODULES_DIR: '/out/cache/modules',
    });
    expect(hugoLockdownEnv({ execAllow: [], httpUrls: [] }, '/out')).toMatchObject({
      HUGO_SECURITY_EXEC_ALLOW: 'none',
      HUGO_SECURITY_HTTP_URLS: 'none',
    });
    expect(hugoBuildArgs('/site', '/out')).toEqual([
      '--source',
      '/site',
      '--themesDir',
      '/site/themes',
      '--minify',
      '--destination',
      '/out/public',
      '--cacheDir',
      '/out/cache',
      '--noBuildLock',
      '--quiet',
    ]);
  });

  it.each<[string, (site: string) => string, string | undefined]>([
    ['no modules', () => '', undefined],
    ['unparseable output', () => 'not json', 'unreadable'],
    ['a module without a folder', () => '{"path":"p"}', 'unreadable'],
    ['a mount without a source', (s) => JSON.stringify({ path: 'p', dir: s, mounts: [{}] }), 'unreadable'],
    [
      'mounts inside the site',
      (s) =>
        `${JSON.stringify({ path: 'p', dir: s, mounts: [{ source: 'content' }] })}\n${JSON.stringify({ path: 't', dir: `${s}/themes/t`, mounts: [{ source: '../../static' }] })}`,
      undefined,
    ],
    [
      'a module folder outside the site',
      (s) => JSON.stringify({ path: 'evil', dir: dirname(s), mounts: [] }),
      'module evil',
    ],
    [
      'a mount outside the site',
      (s) => JSON.stringify({ path: 'p', dir: s, mounts: [{ source: '../x' }] }),
      'mount ../x',
    ],
    [
      "a mount of the site's .git",
      (s) => JSON.stringify({ path: 'p', dir: s, mounts: [{ source: '.git' }] }),
      'mount .git',
    ],
  ])('hugo mounts: %s', async (_title, output, expected) => {
    const site = await siteWith({ 'themes/t/theme.toml': '', 'content/_index.md': '' });
    expect(hugoMountsOutsideSite(output(site), site)).toBe(expected);
  });

  it('a symlink to a sibling folder whose name starts like the site leaves the site; one inside does not', async () => {
    const site = await siteWith({ 'static/a.txt': 'a' });
    await mkdir(`${site}-evil`, { recursive: true });
    await symlink(join(site, 'static', 'a.txt'), join(site, 'static', 'inside.txt'));
    expect(await symlinkLeavingSite(site)).toBeUndefined();
    await symlink(`${site}-evil`, join(site, 'static', 'sibling'));
    expect(await symlinkLeavingSite(site)).toBe('static/sibling');
    await rm(join(site, 'static', 'sibling'));
    await symlink('/nonexistent/dangling', join(site, 'dangling'));
    expect(await symlinkLeavingSite(site)).toBe('dangling');
  });

  it.each([
    ['content/leak.md', '../.git/config'],
    ['content/git', '../.git'],
    ['content/later.md', '../.git/not-yet-there'],
    ['content/root', '..'],
  ])("a symlink into the site's .git, or to the site itself, is refused: %s -> %s", async (link, target) => {
    const site = await siteWith({ '.git/config': '[core]\n', 'content/_index.md': '' });
    await symlink(target, join(site, ...link.split('/')));
    expect(await symlinkLeavingSite(site)).toBe(link);
  });
});
