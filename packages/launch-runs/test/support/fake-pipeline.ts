import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { ValidationIssue, ValidationReport } from '@switchyard/contracts/launch-runs';
import type {
  DraftFallback,
  FixPlan,
  LaunchPipeline,
  SubmittedDraft,
  WorkerContext,
  WorkspaceRestore,
} from '../../src/pipeline/types.js';
import type { WorkerId } from '../../src/runs/worker-ids.js';

/**
 * A small deterministic LaunchPipeline for runtime tests: each worker writes its declared artifacts from
 * the run config alone; W6 writes pages with `seededProblems` `__FIXME__` tokens into the site worktree,
 * W7 reports each token as a TemplateTokens blocker, W8 removes the first one; restoreWorkspace rebuilds
 * that worktree from W6's pages and the fix records. Tests can hold a worker (it waits until released or
 * aborted) or a fix right after it was written, make a worker fail, or make fixes no-ops.
 */
export interface FakePipelineOptions {
  seededProblems?: number;
  noOpFix?: boolean;
  fail?: Partial<Record<WorkerId, () => unknown>>;
  /** A binary artifact W3 writes as well (get_artifact base64). */
  binaryArtifact?: boolean;
  /** More artifacts W3 writes, by name (large ones for reading in parts). */
  extraArtifacts?: Readonly<Record<string, string | Uint8Array>>;
  /** False: workers write no artifacts (cheap runs for listing tests). */
  writeArtifacts?: boolean;
}

/** Where a test can hold the pipeline: when a worker starts, or (W8) right after its fix is written. */
export type HoldPoint = WorkerId | 'W8:written';

interface Hold {
  reached: Promise<void>;
  /** Resolves with the abort reason when the held worker saw its signal abort. */
  aborted: Promise<unknown>;
  release(): void;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

export class FakePipeline implements LaunchPipeline {
  readonly calls: WorkerId[] = [];
  readonly prsOpened: string[] = [];
  private readonly holds = new Map<
    HoldPoint,
    { hold: Hold; arrive: () => void; wait: Promise<void>; onAbort: (r: unknown) => void }
  >();

  constructor(private readonly options: FakePipelineOptions = {}) {}

  /** The next time the pipeline reaches `point` it waits until `release()` (or its signal aborts). */
  hold(point: HoldPoint): Hold {
    let arrive!: () => void;
    let release!: () => void;
    let onAbort!: (reason: unknown) => void;
    const reached = new Promise<void>((resolve) => (arrive = resolve));
    const wait = new Promise<void>((resolve) => (release = resolve));
    const aborted = new Promise<unknown>((resolve) => (onAbort = resolve));
    const hold: Hold = { reached, aborted, release };
    this.holds.set(point, { hold, arrive, wait, onAbort });
    return hold;
  }

  private async pause(point: HoldPoint, ctx: WorkerContext): Promise<void> {
    const held = this.holds.get(point);
    if (held === undefined) return;
    this.holds.delete(point);
    held.arrive();
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        held.onAbort(ctx.signal.reason);
        reject(new SwitchyardError('cancelled', 'aborted while held', { code: 'CANCELLED' }));
      };
      if (ctx.signal.aborted) return onAbort();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      void held.wait.then(() => {
        ctx.signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  private async enter(worker: WorkerId, ctx: WorkerContext): Promise<void> {
    this.calls.push(worker);
    if (this.options.writeArtifacts === false) {
      Object.assign(ctx, {
        artifacts: {
          write: async (name: string) => ({ name, sha256: '0'.repeat(64) }),
          read: async () => undefined,
        },
      });
    }
    await this.pause(worker, ctx);
    const failure = this.options.fail?.[worker];
    if (failure !== undefined) throw failure();
  }

  private site(ctx: WorkerContext): string {
    return path.join(ctx.runDir, 'workspace', 'site');
  }

  /** W1's clones: the fake source clone is an empty folder, the site worktree gets W6's pages. */
  private async makeWorkspace(ctx: WorkerContext): Promise<void> {
    await fs.mkdir(path.join(ctx.runDir, 'workspace', 'source'), { recursive: true });
    await fs.mkdir(this.site(ctx), { recursive: true });
  }

  async cloneInputs(ctx: WorkerContext) {
    await this.enter('W1', ctx);
    await this.makeWorkspace(ctx);
    await ctx.artifacts.write(
      'repo_inventory.json',
      json({
        source: ctx.config.source.repo,
        site: ctx.config.site.repo,
        files: ['README.md', 'package.json'],
      }),
    );
    return {
      source_sha: sha('source:' + ctx.config.source.repo).slice(0, 40),
      site_sha: sha('site:' + ctx.config.site.repo).slice(0, 40),
    };
  }

  async extractFacts(ctx: WorkerContext) {
    await this.enter('W2', ctx);
    await ctx.artifacts.write(
      'product_facts.json',
      json({ product: ctx.config.product_name, claims: ['c_000000000001'] }),
    );
    await ctx.artifacts.write(
      'evidence_map.json',
      json({ c_000000000001: { path: 'README.md', lines: [1, 1] } }),
    );
  }

  async catalogSnippets(ctx: WorkerContext) {
    await this.enter('W3', ctx);
    await ctx.artifacts.write('snippet_catalog.json', json({ snippets: [] }));
    if (this.options.binaryArtifact) {
      await ctx.artifacts.write(
        'logo.png',
        new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]),
      );
    }
    for (const [name, content] of Object.entries(this.options.extraArtifacts ?? {})) {
      await ctx.artifacts.write(name, content);
    }
  }

  async planPages(ctx: WorkerContext) {
    await this.enter('W4', ctx);
    const pages = ctx.config.required_sections.map((section) => ({
      section,
      url_path: `/${section}/${ctx.config.product_slug}/`,
    }));
    await ctx.artifacts.write('page_plan.json', json({ pages }));
    return {
      sections: Object.fromEntries(ctx.config.required_sections.map((s) => [s, 'OUTLINED' as const])),
    };
  }

  async draftPages(ctx: WorkerContext) {
    await this.enter('W5', ctx);
    for (const section of ctx.config.required_sections) {
      await ctx.artifacts.write(
        `drafts/${section}/${ctx.config.product_slug}.md`,
        `# ${ctx.config.product_name} ${section}\n`,
      );
    }
    return { sections: Object.fromEntries(ctx.config.required_sections.map((s) => [s, 'DRAFTED' as const])) };
  }

  /** Model drafting: one page per required section, `<section>/<product_slug>`, each with an empty brief. */
  async publishWritingBrief(ctx: WorkerContext) {
    await this.enter('W5', ctx);
    const { product_name: name, product_slug: slug } = ctx.config;
    const pages = ctx.config.required_sections.map((section) => ({
      page_id: `${section}/${slug}`,
      section,
      title: `${name} ${section}`,
      purpose: `The ${section} page.`,
      path: `content/${section}/${slug}.md`,
      url_path: `/${section}/${slug}/`,
      sections: [{ heading: null, claim_ids: [], snippet_ids: [] }],
      evidence: [],
      snippets: [],
      links: [],
      must_not_claim: [],
    }));
    const product = {
      name,
      slug,
      package_name: null,
      version: null,
      license: null,
      install_command: null,
      repository_url: null,
    };
    const markers = { claim: '<!-- claim_id: ID -->', snippet: '<!-- snippet_id: ID -->' };
    const brief = { schema_version: '1.0', product, markers, rules: ['Write well.'], pages };
    await ctx.artifacts.write('writing_brief.json', json(brief));
    return { page_ids: pages.map((page) => page.page_id) };
  }

  /** Refuses a draft with a `__FIXME__` line (its issue names the line), stores any other as the page. */
  async acceptDraft(ctx: WorkerContext, { page, markdown }: SubmittedDraft) {
    await this.enter('W5', ctx);
    const lines = markdown.split('\n');
    const issues = lines.flatMap((sentence, index) =>
      sentence.includes('__FIXME__')
        ? [{ line: index + 1, sentence, code: 'UNCITED_FACT', message: 'Cite it or leave it out.' }]
        : [],
    );
    if (issues.length === 0) await ctx.artifacts.write(`drafts/${page}.md`, markdown);
    return { accepted: issues.length === 0, issues };
  }

  /** The page's "extractive" draft, naming why the model's did not make it. */
  async fallBackDraft(ctx: WorkerContext, { page, rounds, reason }: DraftFallback) {
    await this.enter('W5', ctx);
    await ctx.artifacts.write(`drafts/${page}.md`, `Extractive after ${rounds} rounds: ${reason}\n`);
  }

  private pageFile(ctx: WorkerContext, section: string): string {
    return path.join(this.site(ctx), ctx.config.site.content_root, section, `${ctx.config.product_slug}.md`);
  }

  /** W6's pages: one per section, the seeded problems spread over them. */
  private async writePages(ctx: WorkerContext): Promise<void> {
    const problems = this.options.seededProblems ?? 2;
    const sections = ctx.config.required_sections;
    for (const [index, section] of sections.entries()) {
      const file = this.pageFile(ctx, section);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const lines = [`# ${ctx.config.product_name} ${section}`];
      for (let p = index; p < problems; p += sections.length) lines.push(`Line ${p} __FIXME__`);
      await fs.writeFile(file, lines.join('\n') + '\n');
    }
  }

  async linkPages(ctx: WorkerContext) {
    await this.enter('W6', ctx);
    await this.writePages(ctx);
    const sections = ctx.config.required_sections;
    await ctx.artifacts.write('patch_bundle.json', json({ patches: sections.map((s) => `patch_${s}`) }));
    await ctx.artifacts.write('diff_report.md', sections.map((s) => `- ${s}`).join('\n') + '\n');
    return {
      sections: Object.fromEntries(sections.map((s) => [s, 'MERGED_IN_WORKTREE' as const])),
      applied_patch_ids: sections.map((s) => `patch_${s}`),
    };
  }

  private async scan(ctx: WorkerContext): Promise<ValidationIssue[]> {
    const issues: ValidationIssue[] = [];
    for (const section of ctx.config.required_sections) {
      const file = this.pageFile(ctx, section);
      const rel = path.relative(this.site(ctx), file).split(path.sep).join('/');
      const text = await fs.readFile(file, 'utf8').catch(() => '');
      text.split('\n').forEach((line, index) => {
        if (!line.includes('__FIXME__')) return;
        issues.push({
          issue_id: 'iss_' + sha(`TemplateTokens|UNRESOLVED_TOKEN|${rel}|${index + 1}`).slice(0, 12),
          gate: 'TemplateTokens',
          severity: 'blocker',
          error_code: 'UNRESOLVED_TOKEN',
          message: `Unresolved template token __FIXME__ in ${rel}`,
          location: { path: rel, line: index + 1 },
          status: 'OPEN',
          suggested_fix: 'Remove the token',
        });
      });
    }
    return issues.sort(
      (a, b) => a.location.path.localeCompare(b.location.path) || a.location.line - b.location.line,
    );
  }

  async validateSite(ctx: WorkerContext): Promise<ValidationReport> {
    await this.enter('W7', ctx);
    const issues = await this.scan(ctx);
    const report: ValidationReport = {
      schema_version: '1.0',
      ok: issues.length === 0,
      profile: ctx.config.validation_profile,
      gates: [{ name: 'TemplateTokens', ok: issues.length === 0, duration_ms: 0 }],
      issues,
    };
    await ctx.artifacts.write('validation_report.json', json(report));
    return report;
  }

  async planFix(ctx: WorkerContext, report: ValidationReport): Promise<FixPlan> {
    await this.enter('W8', ctx);
    const issue = report.issues.find((candidate) => candidate.status === 'OPEN');
    if (issue === undefined) throw new SwitchyardError('internal', 'nothing to fix');
    const record = { gate: issue.gate };
    if (this.options.noOpFix) return { issue_id: issue.issue_id, change: null, record };
    const file = path.join(this.site(ctx), ...issue.location.path.split('/'));
    const before = await fs.readFile(file, 'utf8');
    const lines = before.split('\n');
    lines[issue.location.line - 1] = (lines[issue.location.line - 1] ?? '').replace(' __FIXME__', '');
    const content = lines.join('\n');
    return {
      issue_id: issue.issue_id,
      change: {
        patch_id: `patch_fix_${issue.issue_id}`,
        path: issue.location.path,
        before_sha256: sha(before),
        after_sha256: sha(content),
        content,
      },
      record,
    };
  }

  async applyFix(ctx: WorkerContext, plan: FixPlan) {
    if (plan.change !== null) {
      await fs.writeFile(path.join(this.site(ctx), ...plan.change.path.split('/')), plan.change.content);
      await this.pause('W8:written', ctx);
    }
    await ctx.artifacts.write(
      `fix_${plan.issue_id}.json`,
      json({ issue_id: plan.issue_id, content: plan.change?.content }),
    );
  }

  /** The fake workspace is the site folder: W6's pages, then each fix's content from its record. */
  async restoreWorkspace(ctx: WorkerContext, restore: WorkspaceRestore) {
    const site = this.site(ctx);
    if (
      await fs.stat(site).then(
        () => true,
        () => false,
      )
    )
      return;
    await this.makeWorkspace(ctx);
    if (restore.linked) await this.writePages(ctx);
    for (const fix of restore.fixes) {
      const bytes = await ctx.artifacts.read(`fix_${fix.issue_id}.json`);
      const record = JSON.parse(new TextDecoder().decode(bytes)) as { content?: string };
      if (record.content === undefined || sha(record.content) !== fix.after_sha256)
        throw new SwitchyardError('internal', `fix_${fix.issue_id}.json does not hold the applied fix`);
      await fs.writeFile(path.join(site, ...fix.path.split('/')), record.content);
    }
  }

  async openPullRequest(ctx: WorkerContext) {
    await this.enter('W9', ctx);
    const branch = `launch/${ctx.runId}/${ctx.config.product_slug}`;
    this.prsOpened.push(branch);
    const pr = {
      pr_url: `file://${ctx.config.site.repo}#${branch}`,
      branch,
      commit_sha: sha(branch).slice(0, 40),
    };
    await ctx.artifacts.write('pr.json', json(pr));
    return pr;
  }
}
