import type {
  GateName,
  GateResult,
  ValidationIssue,
  ValidationReport,
} from '@switchyard/contracts/launch-runs';
import { consistencyGate } from '../gates/consistency.js';
import { frontMatterGate } from '../gates/front-matter-gate.js';
import { internalLinksGate } from '../gates/internal-links.js';
import { markdownLintGate } from '../gates/markdown-lint.js';
import { buildReport, isBlocking, toIssue } from '../gates/report.js';
import { pagesInScope } from '../gates/scope.js';
import { assertToolchain, runSiteBuild, siteBuildPlan } from '../gates/site-build.js';
import { SiteIndex } from '../gates/site-index.js';
import { snippetsGate } from '../gates/snippets-gate.js';
import { templateTokensGate } from '../gates/template-tokens.js';
import { truthLockGate } from '../gates/truth-lock.js';
import type { Gate, GateContext } from '../gates/types.js';
import { writeJsonArtifact } from './artifact-io.js';
import { throwIfCancelled } from './errors.js';
import type { ResolvedPipelineOptions } from './options.js';
import { contentRootOf } from './plan.js';
import type { WorkerContext } from './types.js';
import { readOptionalWorkerArtifact, readPlanningInputs, readWorkerArtifact } from './worker-artifacts.js';
import { workspacePaths } from './workspace.js';

/** Gates that need an external toolchain: run under ci and prod only (design). */
const TOOLCHAIN_GATES: readonly GateName[] = ['MarkdownLint', 'SiteBuild'];

const CONTENT_GATES: readonly Gate[] = [
  frontMatterGate,
  truthLockGate,
  internalLinksGate,
  templateTokensGate,
  consistencyGate,
  snippetsGate,
  markdownLintGate,
];

/** Everything the gates read: the worktree (read-only) and the facts, evidence and snippet artifacts. */
export async function loadGateContext(ctx: WorkerContext): Promise<GateContext> {
  const evidence = await readWorkerArtifact(ctx.artifacts, 'evidence_map.json');
  const { facts, catalog } = await readPlanningInputs(ctx.artifacts);
  const siteRoot = workspacePaths(ctx.runDir).site;
  const contentRoot = contentRootOf(ctx.config.site.content_root);
  const site = await SiteIndex.load(siteRoot, contentRoot);
  return {
    config: ctx.config,
    siteRoot,
    contentRoot,
    pages: pagesInScope(site, ctx.config.allowed_paths),
    site,
    evidence,
    catalog,
    facts,
    signal: ctx.signal,
  };
}

/**
 * W7: runs the profile's gates over the worktree and writes validation_report.json. Under `local` the
 * toolchain gates are listed as skipped with the reason; under ci/prod a missing site generator is
 * TOOLCHAIN_MISSING (checked before any gate runs), never a silent pass.
 */
export async function validateSite(
  ctx: WorkerContext,
  options: ResolvedPipelineOptions,
): Promise<ValidationReport> {
  const profile = ctx.config.validation_profile;
  const paths = workspacePaths(ctx.runDir);
  const context = await loadGateContext(ctx);
  const runsToolchain = profile !== 'local';
  const build = runsToolchain
    ? await assertToolchain(
        siteBuildPlan(context.site.files, options, { site: paths.site, output: paths.build }),
        profile,
        paths.build,
        ctx.signal,
      )
    : undefined;

  const results: GateResult[] = [];
  const found: ValidationIssue[] = [];
  const record = (name: GateName, issues: ValidationIssue[], started: number): void => {
    found.push(...issues);
    results.push({
      name,
      ok: !issues.some(isBlocking),
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    });
  };
  for (const gate of CONTENT_GATES) {
    throwIfCancelled(ctx.signal);
    if (!runsToolchain && TOOLCHAIN_GATES.includes(gate.name)) {
      results.push({
        name: gate.name,
        ok: true,
        duration_ms: 0,
        skipped: true,
        reason: `The ${profile} profile skips ${gate.name}; it runs under ci and prod`,
      });
      continue;
    }
    const started = performance.now();
    record(
      gate.name,
      (await gate.run(context)).map((draft) => toIssue(gate.name, draft)),
      started,
    );
  }
  if (build === undefined) {
    results.push({
      name: 'SiteBuild',
      ok: true,
      duration_ms: 0,
      skipped: true,
      reason: `The ${profile} profile skips SiteBuild; it runs under ci and prod`,
    });
  } else {
    throwIfCancelled(ctx.signal);
    const started = performance.now();
    const drafts = await runSiteBuild(
      build,
      paths.site,
      paths.build,
      { timeoutMs: options.siteBuildTimeoutMs, maxOutputBytes: options.siteBuildMaxOutputBytes },
      ctx.signal,
      profile,
    );
    record(
      'SiteBuild',
      drafts.map((draft) => toIssue('SiteBuild', draft)),
      started,
    );
  }
  throwIfCancelled(ctx.signal);

  // A previous report only contributes RESOLVED entries; a damaged one is ignored rather than fatal.
  const previous = await readOptionalWorkerArtifact(ctx.artifacts, 'validation_report.json').catch(
    () => undefined,
  );
  const report = buildReport(profile, results, found, previous);
  await writeJsonArtifact(ctx.artifacts, 'validation_report.json', report);
  ctx.logger.info('W7 validated site', {
    ok: report.ok,
    open: report.issues.filter((issue) => issue.status === 'OPEN').length,
  });
  return report;
}
