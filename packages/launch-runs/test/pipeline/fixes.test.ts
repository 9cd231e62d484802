import { SwitchyardError } from '@switchyard/contracts/errors';
import type { ValidationIssue, ValidationReport } from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectNextIssue } from '../../src/fixes/index.js';
import type { ProductFacts, SnippetCatalog } from '../../src/pipeline/artifact-schemas.js';
import { createLaunchPipeline, type LaunchPipelineOptions } from '../../src/pipeline/index.js';
import {
  fixNext,
  copyRun,
  prepareExampleRun,
  readSitePage,
  writeSitePage,
  type PreparedRun,
  type TestContext,
} from './helpers.js';

const PAGE = 'content/docs/crafted.md';
const FRONT =
  "---\ntitle: Crafted\ndescription: A crafted page.\nweight: 50\ndate: '2025-01-01'\ndraft: false\n---\n";
let prepared: PreparedRun;
let ctx: TestContext;
let facts: ProductFacts;
let catalog: SnippetCatalog;
const claim = (kind: string) => facts.claims.find((item) => item.kind === kind)!;

beforeAll(async () => {
  prepared = await prepareExampleRun({ prefix: 'fixes', seedFixableProblem: false });
  ctx = await copyRun(prepared, 'fixes-local');
  facts = prepared.ctx.artifacts.json<ProductFacts>('product_facts.json');
  catalog = prepared.ctx.artifacts.json<SnippetCatalog>('snippet_catalog.json');
});
afterAll(() => prepared.cleanup());

/** Writes the page, validates, applies one fix, re-validates. */
async function fixOnce(content: string, run: TestContext = ctx, options: LaunchPipelineOptions = {}) {
  const pipeline = createLaunchPipeline(options);
  await writeSitePage(run, PAGE, content);
  const report = await pipeline.validateSite(run);
  const issue = selectNextIssue(report)!;
  const fix = await fixNext(pipeline, run, report);
  const text = await readSitePage(run, PAGE);
  const after = await pipeline.validateSite(run);
  return {
    issue,
    fix,
    text,
    after,
    artifact: run.artifacts.json<Record<string, unknown>>(`fix_${fix.fixed_issue_id}.json`),
  };
}

function resolved(after: ValidationReport, issue: ValidationIssue): boolean {
  return after.issues.some(
    (candidate) => candidate.issue_id === issue.issue_id && candidate.status === 'RESOLVED',
  );
}

describe('W8 fix selection', () => {
  const issue = (
    id: string,
    severity: ValidationIssue['severity'],
    gate: ValidationIssue['gate'],
    path: string,
    line: number,
    status: ValidationIssue['status'] = 'OPEN',
  ): ValidationIssue => ({
    issue_id: id,
    gate,
    severity,
    error_code: 'X',
    message: id,
    location: { path, line },
    status,
    suggested_fix: null,
  });
  const report = (issues: ValidationIssue[]): ValidationReport => ({
    schema_version: '1.0',
    ok: false,
    profile: 'local',
    gates: [],
    issues,
  });

  it('takes the first open blocker/error by severity, gate, path, line, id', () => {
    const issues = [
      issue('iss_f', 'warn', 'FrontMatter', 'a.md', 1),
      issue('iss_e', 'error', 'FrontMatter', 'a.md', 1),
      issue('iss_d', 'blocker', 'TruthLock', 'a.md', 1),
      issue('iss_c', 'blocker', 'FrontMatter', 'b.md', 1),
      issue('iss_b', 'blocker', 'FrontMatter', 'a.md', 9),
      issue('iss_a2', 'blocker', 'FrontMatter', 'a.md', 2),
      issue('iss_a1', 'blocker', 'FrontMatter', 'a.md', 2),
      issue('iss_0', 'blocker', 'Consistency', 'z.md', 1, 'RESOLVED'),
    ];
    const order: string[] = [];
    let remaining = issues;
    for (
      let next = selectNextIssue(report(remaining));
      next !== undefined;
      next = selectNextIssue(report(remaining))
    ) {
      order.push(next.issue_id);
      remaining = remaining.filter((candidate) => candidate !== next);
    }
    expect(order).toEqual(['iss_a1', 'iss_a2', 'iss_b', 'iss_c', 'iss_d', 'iss_e']);
  });

  it('an issue id that is not a plain identifier is INVALID_INPUT (it would name the fix artifact)', async () => {
    const error = await fixNext(
      createLaunchPipeline(),
      ctx,
      report([issue('../../escape', 'blocker', 'TruthLock', 'content/docs/_index.md', 1)]),
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(ctx.artifacts.names().some((name) => name.includes('..'))).toBe(false);
  });

  it('a report without an open blocker or error is ILLEGAL_STATE', async () => {
    const error = await fixNext(
      createLaunchPipeline(),
      ctx,
      report([issue('iss_w', 'warn', 'MarkdownLint', 'a.md', 1)]),
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SwitchyardError);
    expect((error as SwitchyardError).code).toBe('ILLEGAL_STATE');
  });
});

describe('W8 fixes (one per call, the smallest change)', () => {
  it('front matter: adds a missing block, a missing key, a valid value; rebuilds an invalid block', async () => {
    const missing = await fixOnce('## Hello\n\nPlain words here.\n');
    expect(missing.fix.changed).toBe(true);
    expect(missing.text.startsWith('---\ntitle: Hello\ndescription: Hello\nweight: 100\ndate: ')).toBe(true);
    expect(resolved(missing.after, missing.issue)).toBe(true);
    expect(missing.artifact).toMatchObject({
      fix_kind: 'add_front_matter',
      changed: true,
      issue_id: missing.issue.issue_id,
    });

    const key = await fixOnce(FRONT.replace('draft: false\n', ''));
    expect(key.text).toContain('draft: false\n---');
    expect(key.after.issues.filter((issue) => issue.status === 'OPEN')).toEqual([]);

    const value = await fixOnce(FRONT.replace('weight: 50', 'weight: heavy'));
    expect(value.text).toContain('weight: 100');
    expect(resolved(value.after, value.issue)).toBe(true);

    const invalid = await fixOnce(
      '---\ntitle: Crafted\ndescription: [broken\nweight: 5\n---\n\nPlain words here.\n',
    );
    expect(invalid.issue.error_code).toBe('FRONT_MATTER_INVALID');
    expect(invalid.text).toMatch(/^---\ntitle: Crafted\ndescription: Crafted\nweight: 5\n/);
    expect(invalid.text).toContain('Plain words here.');
  });

  it('TruthLock: an uncited paraphrase becomes the cited claim; an uncited fact without a claim is dropped', async () => {
    const license = claim('license');
    const cite = await fixOnce(`${FRONT}\nTallyho is released under the MIT licence today.\n`);
    expect(cite.issue.error_code).toBe('UNCITED_CLAIM');
    expect(cite.text).toContain(`${license.text} <!-- claim_id: ${license.claim_id} -->`);
    expect(cite.after.ok).toBe(true);

    const drop = await fixOnce(`${FRONT}\n- Version 9.9.9 adds streaming. Read on.\n`);
    expect(drop.text.endsWith('\n- Read on.\n')).toBe(true);
    expect(drop.after.ok).toBe(true);
  });

  it('TruthLock: a dangling marker is re-pointed, a changed number is restored', async () => {
    const version = claim('version');
    const repoint = await fixOnce(`${FRONT}\n${version.text} <!-- claim_id: c_000000000000 -->\n`);
    expect(repoint.issue.error_code).toBe('UNKNOWN_CLAIM_MARKER');
    expect(repoint.text).toContain(`${version.text} <!-- claim_id: ${version.claim_id} -->`);
    const restore = await fixOnce(
      `${FRONT}\n- The current version is 7.0.0. <!-- claim_id: ${version.claim_id} -->\n`,
    );
    expect(restore.issue.error_code).toBe('CLAIM_TEXT_MISMATCH');
    expect(restore.text).toContain(`- ${version.text} <!-- claim_id: ${version.claim_id} -->`);
    expect(restore.after.ok).toBe(true);
  });

  it('InternalLinks: re-points to the planned page, unlinks what matches no page, drops a broken anchor', async () => {
    const repoint = await fixOnce(`${FRONT}\nRead [the usage guide](/docs/tallyho/usage-guide/).\n`);
    expect(repoint.text).toContain('Read [the usage guide](/docs/tallyho/usage/).');
    expect(repoint.artifact).toMatchObject({ fix_kind: 'repoint_link' });
    const unlink = await fixOnce(`${FRONT}\nRead [the pricing](/pricing/plans/).\n`);
    expect(unlink.text).toContain('\nRead the pricing.\n');
    const anchor = await fixOnce(`${FRONT}\nRead [usage](/docs/tallyho/usage/#nope).\n`);
    expect(anchor.text).toContain('Read [usage](/docs/tallyho/usage/).');
    expect(anchor.after.ok).toBe(true);
  });

  it('TemplateTokens: a product placeholder gets its value, any other token is removed', async () => {
    const named = await fixOnce(`${FRONT}\nWelcome to __PRODUCT_NAME__ docs.\n`);
    expect(named.text).toContain('\nWelcome to Tallyho docs.\n');
    const removed = await fixOnce(`${FRONT}\nWelcome to the docs {{ .Site.Title }}.\n`);
    expect(removed.text).toContain('\nWelcome to the docs.\n');
    expect(removed.after.ok).toBe(true);
  });

  it('Consistency: aligns the product name, repository URL and install command', async () => {
    const name = await fixOnce(`${FRONT}\nThanks for reading about TALLYHO here.\n`);
    expect(name.text).toContain('\nThanks for reading about Tallyho here.\n');
    const repo = await fixOnce(
      `${FRONT}\nBrowse http://github.com/switchyard-examples/tallyho/issues for open questions.\n`,
    );
    expect(repo.text).toContain('Browse https://github.com/switchyard-examples/tallyho/issues for');
    const install = claim('install');
    const command = await fixOnce(
      `${FRONT}\nInstall Tallyho with \`npm i tallyho\`. <!-- claim_id: ${install.claim_id} -->\n`,
    );
    expect(command.text).toContain(`${install.text} <!-- claim_id: ${install.claim_id} -->`);
    expect(command.after.ok).toBe(true);
  });

  it('Snippets: adds the language, cites catalog code, restores changed code, removes unknown code', async () => {
    const snippet = catalog.snippets.find((item) => item.content === 'npm install tallyho')!;
    const language = await fixOnce(
      `${FRONT}\n<!-- snippet_id: ${snippet.snippet_id} -->\n\n\`\`\`\nnpm install tallyho\n\`\`\`\n`,
    );
    expect(language.text).toContain('```sh\nnpm install tallyho');
    const cite = await fixOnce(`${FRONT}\n\`\`\`sh\nnpm install tallyho\n\`\`\`\n`);
    expect(cite.text).toContain(`<!-- snippet_id: ${snippet.snippet_id} -->\n\n\`\`\`sh`);
    const restore = await fixOnce(
      `${FRONT}\n<!-- snippet_id: ${snippet.snippet_id} -->\n\n\`\`\`sh\nnpm install tallyho@next\n\`\`\`\n`,
    );
    expect(restore.text).toContain('```sh\nnpm install tallyho\n```');
    const remove = await fixOnce(
      `${FRONT}\nSome words.\n\n<!-- snippet_id: s_000000000000 -->\n\n\`\`\`sh\necho hi\n\`\`\`\n`,
    );
    expect(remove.text).toBe(`${FRONT}\nSome words.\n`);
    expect(remove.after.ok).toBe(true);
  });

  it("MarkdownLint (ci): applies markdownlint's own fix", async () => {
    const ci = await copyRun(prepared, 'fixes-ci', { validation_profile: 'ci' });
    const options = { siteBuildCommand: { command: process.execPath, args: ['-e', ''] } };
    const lint = await fixOnce(`${FRONT}\n## Heading   \n\nPlain words here.\n`, ci, options);
    expect(lint.issue.error_code).toBe('MD009_NO_TRAILING_SPACES');
    expect(lint.text).toContain('\n## Heading\n');
    expect(lint.after.ok).toBe(true);
  });

  it('a failing site build has no automatic fix: changed is false and nothing is written', async () => {
    const ci = await copyRun(prepared, 'fixes-build', { validation_profile: 'ci' });
    const options = { siteBuildCommand: { command: process.execPath, args: ['-e', 'process.exit(1)'] } };
    const before = `${FRONT}\nPlain words here.\n`;
    const result = await fixOnce(before, ci, options);
    expect(result.issue.gate).toBe('SiteBuild');
    expect(result.fix).toEqual({
      fixed_issue_id: result.issue.issue_id,
      applied_patch_ids: [],
      changed: false,
    });
    expect(result.text).toBe(before);
  });

  it('a fix that would write outside allowed_paths is ALLOWED_PATHS_VIOLATION and writes nothing', async () => {
    const run = await copyRun(prepared, 'fixes-outside');
    const outside = 'content/_index.md';
    const original = await readSitePage(run, outside);
    await writeSitePage(
      run,
      outside,
      original.replace('Welcome to the example documentation site.', 'Welcome to __PRODUCT_NAME__.'),
    );
    const issue: ValidationIssue = {
      issue_id: 'iss_outside',
      gate: 'TemplateTokens',
      severity: 'error',
      error_code: 'UNRESOLVED_TEMPLATE_TOKEN',
      message: 'Unresolved template token __PRODUCT_NAME__',
      location: { path: outside, line: 9 },
      status: 'OPEN',
      suggested_fix: null,
    };
    const before = await readSitePage(run, outside);
    const error = await fixNext(createLaunchPipeline(), run, {
      schema_version: '1.0',
      ok: false,
      profile: 'local',
      gates: [],
      issues: [issue],
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'ALLOWED_PATHS_VIOLATION', details: { paths: [outside] } });
    expect(await readSitePage(run, outside)).toBe(before);
  });
});
