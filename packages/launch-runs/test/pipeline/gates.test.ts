import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  ValidationReportSchema,
  type ValidationIssue,
  type ValidationReport,
} from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitClient } from '../../src/git/git-client.js';
import type { ProductFacts, SnippetCatalog } from '../../src/pipeline/artifact-schemas.js';
import { createLaunchPipeline, type LaunchPipelineOptions } from '../../src/pipeline/index.js';
import { copyRun, prepareExampleRun, writeSitePage, type PreparedRun, type TestContext } from './helpers.js';

const PAGE = 'content/docs/crafted.md';
let prepared: PreparedRun;
let ctx: TestContext;
let licenseId: string;
let versionId: string;
let installSnippet: string;
let jsonSnippet: string;

beforeAll(async () => {
  prepared = await prepareExampleRun({ prefix: 'gates', seedFixableProblem: false });
  ctx = await copyRun(prepared, 'gates-local');
  const facts = prepared.ctx.artifacts.json<ProductFacts>('product_facts.json');
  licenseId = facts.claims.find((claim) => claim.kind === 'license')!.claim_id;
  versionId = facts.claims.find((claim) => claim.kind === 'version')!.claim_id;
  const catalog = prepared.ctx.artifacts.json<SnippetCatalog>('snippet_catalog.json');
  installSnippet = catalog.snippets.find((snippet) => snippet.content === 'npm install tallyho')!.snippet_id;
  jsonSnippet = catalog.snippets.find((snippet) => snippet.language === 'json')!.snippet_id;
});
afterAll(() => prepared.cleanup());

const FRONT =
  "---\ntitle: Crafted\ndescription: A crafted page.\nweight: 50\ndate: '2025-01-01'\ndraft: false\n---\n";

function goodPage(): string {
  return [
    FRONT,
    '## Crafted',
    '',
    `Tallyho is released under the MIT license. <!-- claim_id: ${licenseId} -->`,
    '',
    'See [Install Tallyho](/docs/tallyho/installation/) and [the top](#crafted) for details.',
    '',
    `<!-- snippet_id: ${installSnippet} -->`,
    '',
    '```sh',
    'npm install tallyho',
    '```',
    '',
  ].join('\n');
}

async function validate(
  content: string,
  options: LaunchPipelineOptions = {},
  run: TestContext = ctx,
): Promise<ValidationReport> {
  await writeSitePage(run, PAGE, content);
  return createLaunchPipeline(options).validateSite(run);
}

const onPage = (report: ValidationReport, gate: string): ValidationIssue[] =>
  report.issues.filter(
    (issue) => issue.gate === gate && issue.location.path === PAGE && issue.status === 'OPEN',
  );
const codes = (report: ValidationReport, gate: string): string[] =>
  onPage(report, gate).map((issue) => issue.error_code);

describe('W7 validateSite (local profile)', () => {
  it('passes a good page; the report follows the schema and says which gates were skipped', async () => {
    const report = await validate(goodPage());
    expect(ValidationReportSchema.parse(report)).toEqual(report);
    expect(report.issues.filter((issue) => issue.status === 'OPEN')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.gates.map((gate) => gate.name)).toEqual([
      'FrontMatter',
      'TruthLock',
      'InternalLinks',
      'TemplateTokens',
      'Consistency',
      'Snippets',
      'MarkdownLint',
      'SiteBuild',
    ]);
    for (const name of ['MarkdownLint', 'SiteBuild']) {
      expect(report.gates.find((gate) => gate.name === name)).toMatchObject({
        skipped: true,
        ok: true,
        reason: expect.stringContaining('local'),
      });
    }
    expect(ctx.artifacts.json<ValidationReport>('validation_report.json')).toEqual(report);
  });

  it('FrontMatter: missing, invalid, missing key, invalid value', async () => {
    expect(codes(await validate('## No front matter\n'), 'FrontMatter')).toEqual(['FRONT_MATTER_MISSING']);
    expect(codes(await validate('---\ntitle: [unclosed\n---\n\nText.\n'), 'FrontMatter')).toEqual([
      'FRONT_MATTER_INVALID',
    ]);
    const missingDate = await validate(goodPage().replace("date: '2025-01-01'\n", ''));
    expect(onPage(missingDate, 'FrontMatter').map((issue) => issue.message)).toEqual([
      'Front matter key "date" is missing',
    ]);
    expect(codes(await validate(goodPage().replace('weight: 50', 'weight: heavy')), 'FrontMatter')).toEqual([
      'FRONT_MATTER_INVALID_VALUE',
    ]);
    const blocker = await validate('text only\n');
    expect(onPage(blocker, 'FrontMatter')[0]!.severity).toBe('blocker');
    expect(blocker.ok).toBe(false);
  });

  it('FrontMatter: YAML that parses but cannot be read (a dangling alias, an alias bomb) is invalid, not a crash', async () => {
    const dangling = await validate('---\ntitle: *nowhere\n---\n\nText.\n');
    expect(onPage(dangling, 'FrontMatter').map((issue) => [issue.error_code, issue.message])).toEqual([
      ['FRONT_MATTER_INVALID', expect.stringContaining('nowhere')],
    ]);
    const ten = (item: string): string => `[${Array(10).fill(item).join(', ')}]`;
    const bomb = ['a: &a [x]', `b: &b ${ten('*a')}`, `c: &c ${ten('*b')}`, `d: ${ten('*c')}`].join('\n');
    expect(codes(await validate(`---\n${bomb}\n---\n\nText.\n`), 'FrontMatter')).toEqual([
      'FRONT_MATTER_INVALID',
    ]);
  });

  it('TruthLock: an uncited version, a marker that points nowhere, an uncited factual bullet, a cited line that changed a number', async () => {
    const report = await validate(
      [
        FRONT,
        'Version 9.9.9 is out now.',
        '',
        'Text with a marker. <!-- claim_id: c_000000000000 -->',
        '',
        '- Supports streaming input',
        '',
        `The current version is 2.0.0. <!-- claim_id: ${versionId} -->`,
        '',
        'Read on for details.',
        '',
      ].join('\n'),
    );
    const issues = onPage(report, 'TruthLock');
    expect(issues.map((issue) => [issue.error_code, issue.location.line, issue.severity])).toEqual([
      ['UNCITED_CLAIM', 9, 'blocker'],
      ['UNKNOWN_CLAIM_MARKER', 11, 'blocker'],
      ['UNCITED_CLAIM', 13, 'blocker'],
      ['CLAIM_TEXT_MISMATCH', 15, 'blocker'],
    ]);
    expect(issues[0]!.message).toContain('(version)');
    expect(issues[2]!.message).toContain('(capability)');
    expect(report.gates.find((gate) => gate.name === 'TruthLock')!.ok).toBe(false);
  });

  it('TruthLock with allow_inference: uncited lines pass, dangling markers still fail', async () => {
    const inferring = await copyRun(prepared, 'gates-inference', { allow_inference: true });
    const report = await validate(
      `${FRONT}\nVersion 9.9.9 is out now.\n\nText. <!-- claim_id: c_000000000000 -->\n`,
      {},
      inferring,
    );
    expect(codes(report, 'TruthLock')).toEqual(['UNKNOWN_CLAIM_MARKER']);
  });

  it('InternalLinks: a broken link and a broken anchor; relative, anchored and static links that resolve pass', async () => {
    const report = await validate(
      [
        FRONT,
        'See [gone](/docs/tallyho/nowhere/) and [bad anchor](/docs/tallyho/installation/#nope).',
        '',
        'Back to [docs](_index.md), [the guide](../tallyho/usage/#usage) and [home](/).',
        '',
      ].join('\n'),
    );
    expect(onPage(report, 'InternalLinks').map((issue) => issue.error_code)).toEqual([
      'BROKEN_ANCHOR',
      'BROKEN_LINK',
    ]);
  });

  it('TemplateTokens: placeholders in prose and front matter; code and Hugo shortcodes are left alone', async () => {
    const report = await validate(
      [
        "---\ntitle: '__PAGE_TITLE__'\ndescription: A crafted page.\nweight: 50\ndate: '2025-01-01'\ndraft: false\n---\n",
        'Welcome to __PRODUCT_NAME__ on {{ .Site.Title }}.',
        '',
        'Use `__NOT_A_TOKEN__` and {{< ref "x" >}}.',
        '',
        `<!-- snippet_id: ${installSnippet} -->`,
        '',
        '```sh',
        'npm install tallyho',
        '```',
        '',
      ].join('\n'),
    );
    const found = onPage(report, 'TemplateTokens').map((issue) => `${issue.location.line}: ${issue.message}`);
    expect(found.sort()).toEqual([
      '2: Unresolved template token __PAGE_TITLE__',
      '9: Unresolved template token __PRODUCT_NAME__',
      '9: Unresolved template token {{ .Site.Title }}',
    ]);
  });

  it('Consistency: product name, repository URL and install command written differently', async () => {
    const report = await validate(
      [
        FRONT,
        'TALLYHO and tallyho and Tallyho. <!-- claim_id: ' + licenseId + ' -->',
        '',
        'Clone https://github.com/switchyard-examples/tallyho.git or browse https://github.com/switchyard-examples/tallyho/issues.',
        '',
        'Or run `npm i tallyho` instead. <!-- claim_id: ' + licenseId + ' -->',
        '',
      ].join('\n'),
    );
    expect(onPage(report, 'Consistency').map((issue) => [issue.error_code, issue.location.line])).toEqual([
      ['INCONSISTENT_PRODUCT_NAME', 9],
      ['INCONSISTENT_REPOSITORY_URL', 11],
      ['INCONSISTENT_INSTALL_COMMAND', 13],
    ]);
  });

  it('Snippets: no language, invalid JSON, uncited, unknown and changed snippets', async () => {
    const report = await validate(
      [
        FRONT,
        `<!-- snippet_id: ${installSnippet} -->`,
        '',
        '```',
        'npm install tallyho',
        '```',
        '',
        `<!-- snippet_id: ${jsonSnippet} -->`,
        '',
        '```json',
        '{ "prose": true, }',
        '```',
        '',
        '```sh',
        'echo uncited',
        '```',
        '',
        '<!-- snippet_id: s_000000000000 -->',
        '',
        '```sh',
        'echo unknown',
        '```',
        '',
      ].join('\n'),
    );
    expect(onPage(report, 'Snippets').map((issue) => [issue.error_code, issue.location.line])).toEqual([
      ['MISSING_CODE_LANGUAGE', 11],
      ['INVALID_JSON_SNIPPET', 17],
      ['SNIPPET_MISMATCH', 17],
      ['UNCITED_SNIPPET', 21],
      ['UNKNOWN_SNIPPET', 27],
    ]);
  });

  it('issues are sorted by severity, gate, path, line and id; fixed issues come back as RESOLVED', async () => {
    const report = await validate(`${FRONT}\nVersion 9.9.9 is out. See [x](/nowhere/).\n`);
    const open = report.issues.filter((issue) => issue.status === 'OPEN');
    expect(open.map((issue) => issue.severity)).toEqual(['blocker', 'error']);
    const next = await validate(goodPage());
    expect(next.ok).toBe(true);
    expect(next.issues.map((issue) => [issue.issue_id, issue.status])).toEqual(
      expect.arrayContaining(open.map((issue) => [issue.issue_id, 'RESOLVED'])),
    );
  });

  it('validation only reads the worktree', async () => {
    const run = await copyRun(prepared, 'gates-readonly', { validation_profile: 'ci' });
    const site = gitClient(join(run.runDir, 'workspace', 'site'));
    const before = await site.raw(['status', '--porcelain', '--untracked-files=all']);
    await createLaunchPipeline({
      siteBuildCommand: {
        command: process.execPath,
        args: [
          '-e',
          'require("fs").writeFileSync(process.env.SWITCHYARD_SITE_BUILD_DIR + "/index.html", "ok")',
        ],
      },
    }).validateSite(run);
    expect(await site.raw(['status', '--porcelain', '--untracked-files=all'])).toBe(before);
    expect(await readdir(join(run.runDir, 'workspace'))).toEqual(['site', 'source']);
  });
});

describe('W7 under ci: MarkdownLint, SiteBuild and the toolchain', () => {
  let ci: TestContext;
  beforeAll(async () => {
    ci = await copyRun(prepared, 'gates-ci', { validation_profile: 'ci' });
  });
  const build = (code: number): LaunchPipelineOptions => ({
    siteBuildCommand: {
      command: process.execPath,
      args: ['-e', `process.stderr.write("boom"); process.exit(${code})`],
    },
  });

  it('the launch pages pass the pinned markdownlint rules and the build', async () => {
    const report = await validate(goodPage(), build(0), ci);
    expect(report.ok).toBe(true);
    expect(report.issues.filter((issue) => issue.status === 'OPEN')).toEqual([]);
    expect(report.gates.every((gate) => gate.skipped !== true)).toBe(true);
  });

  it('MarkdownLint flags a lint violation (fixable ones as errors)', async () => {
    const report = await validate(
      goodPage()
        .replace('## Crafted', '## Crafted   ')
        .replace('See [Install', '# Second title\n\nSee [Install'),
      build(0),
      ci,
    );
    const issues = onPage(report, 'MarkdownLint');
    expect(issues.map((issue) => issue.error_code)).toEqual(
      expect.arrayContaining(['MD009_NO_TRAILING_SPACES']),
    );
    expect(issues.find((issue) => issue.error_code === 'MD009_NO_TRAILING_SPACES')!.severity).toBe('error');
  });

  it('SiteBuild fails when the generator fails', async () => {
    const report = await validate(goodPage(), build(3), ci);
    const issue = report.issues.find((candidate) => candidate.gate === 'SiteBuild')!;
    expect(issue).toMatchObject({ error_code: 'SITE_BUILD_FAILED', severity: 'blocker', status: 'OPEN' });
    expect(issue.suggested_fix).toContain('boom');
    expect(report.ok).toBe(false);
  });

  it('TOOLCHAIN_MISSING when the site has no generator this machine can run (no config, no command)', async () => {
    const bare = await copyRun(prepared, 'gates-no-generator', { validation_profile: 'prod' });
    await rm(join(bare.runDir, 'workspace', 'site', 'hugo.toml'));
    const error = await createLaunchPipeline()
      .validateSite(bare)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toMatchObject({
      code: 'TOOLCHAIN_MISSING',
      details: { generator: 'unknown', profile: 'prod' },
    });
  });

  it('TOOLCHAIN_MISSING when hugo is needed but absent; no gate runs', async () => {
    await writeSitePage(ci, PAGE, goodPage());
    const previous = ci.artifacts.text('validation_report.json');
    const error = await createLaunchPipeline({ hugoBinary: join(prepared.root, 'no-such-hugo') })
      .validateSite(ci)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(SwitchyardError);
    expect(error).toMatchObject({
      code: 'TOOLCHAIN_MISSING',
      details: { gate: 'SiteBuild', generator: 'hugo', profile: 'ci' },
    });
    expect(ci.artifacts.text('validation_report.json')).toBe(previous);
  });
});
