import { createTwoFilesPatch } from 'diff';
import { gitClient } from '../git/git-client.js';
import { fileAtCommit, gitInternalError, gitStep } from '../git/operations.js';
import { runScratchHome } from '../subprocess/environment.js';
import { readTextArtifact, writeJsonArtifact, writeMarkdownArtifact } from './artifact-io.js';
import type { Patch, PatchBundle } from './artifact-schemas.js';
import { allowedPathsViolation, invalidArtifact, missingArtifact, throwIfCancelled } from './errors.js';
import { patchId, sha256Hex } from './hashing.js';
import { splitFrontMatter } from './markdown/front-matter.js';
import type { ResolvedPipelineOptions } from './options.js';
import { renderFrontMatter } from './render.js';
import {
  allowedPathsMatcher,
  normalizeSitePath,
  resolveInSite,
  UnsafeSitePathError,
  writeSiteFiles,
} from './site-files.js';
import type { LinkResult, SectionProgress, WorkerContext } from './types.js';
import { readWorkerArtifact } from './worker-artifacts.js';
import { workspacePaths } from './workspace.js';

/**
 * The final content of a page at a path the base commit already has: the site's own front matter keys are
 * kept (launch keys win), the body is the draft's.
 */
function mergeWithExisting(draft: string, existing: string): { content: string; keys: string[] } {
  const ours = splitFrontMatter(draft);
  const theirs = splitFrontMatter(existing);
  const merged = { ...(theirs.data ?? {}), ...(ours.data ?? {}) };
  return { content: `${renderFrontMatter(merged)}${ours.body}`, keys: Object.keys(merged) };
}

function lineStats(before: string, after: string): { added: number; removed: number; diff: string } {
  const diff = createTwoFilesPatch('a', 'b', before, after, '', '', { context: 3 });
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n').slice(4)) {
    if (line.startsWith('+')) added += 1;
    else if (line.startsWith('-')) removed += 1;
  }
  return { added, removed, diff: diff.split('\n').slice(1).join('\n').trimEnd() };
}

function diffReport(bundle: PatchBundle, bases: ReadonlyMap<string, string>): string {
  const rows = bundle.patches.map((patch) => {
    const stats = lineStats(bases.get(patch.path) ?? '', patch.content);
    return { patch, stats };
  });
  const lines = [
    '# Diff report',
    '',
    `Base commit: \`${bundle.base_sha}\``,
    '',
    '| Patch | Operation | Path | Lines added | Lines removed |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      ({ patch, stats }) =>
        `| \`${patch.patch_id}\` | ${patch.op} | \`${patch.path}\` | ${stats.added} | ${stats.removed} |`,
    ),
  ];
  for (const { patch, stats } of rows) {
    if (patch.op !== 'update') continue;
    lines.push('', `## ${patch.path}`, '', '```diff', stats.diff, '```');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * W6: turns the drafts into a patch bundle against the base commit (create, or update keeping the site's
 * front matter keys) and applies it to the site worktree. Every target must match allowed_paths; if one does
 * not, nothing is written (ALLOWED_PATHS_VIOLATION). Patches are computed from the base commit, not the
 * worktree, so a re-run produces the same bundle and applying it again changes nothing.
 */
export async function linkPages(ctx: WorkerContext, options: ResolvedPipelineOptions): Promise<LinkResult> {
  const plan = await readWorkerArtifact(ctx.artifacts, 'page_plan.json');
  const inventory = await readWorkerArtifact(ctx.artifacts, 'repo_inventory.json');
  const siteRoot = workspacePaths(ctx.runDir).site;
  const allowed = allowedPathsMatcher(ctx.config.allowed_paths);

  // Every target is checked before anything is written.
  const refused: string[] = [];
  for (const page of plan.pages) {
    let normalized: string | undefined;
    try {
      normalized = normalizeSitePath(page.path);
      await resolveInSite(siteRoot, normalized);
    } catch (error) {
      if (!(error instanceof UnsafeSitePathError)) throw error;
      normalized = undefined;
    }
    if (normalized === undefined || !allowed(normalized)) refused.push(page.path);
  }
  if (refused.length > 0) throw allowedPathsViolation(refused, ctx.config.allowed_paths);

  const git = gitClient(siteRoot, {
    binary: options.gitBinary,
    signal: ctx.signal,
    home: runScratchHome(ctx.runDir),
  });
  const patches: Patch[] = [];
  const bases = new Map<string, string>();
  for (const page of plan.pages) {
    throwIfCancelled(ctx.signal);
    const draft = await readTextArtifact(ctx.artifacts, page.draft);
    if (draft === undefined) throw missingArtifact(page.draft, 'W5 (draftPages)');
    if (!splitFrontMatter(draft).present) throw invalidArtifact(page.draft, 'the draft has no front matter');
    const base = await gitStep(
      ctx.signal,
      () => fileAtCommit(git, inventory.site.sha, page.path),
      gitInternalError('cat-file'),
    );
    const op = base === undefined ? 'create' : 'update';
    const merged =
      base === undefined
        ? { content: draft, keys: Object.keys(splitFrontMatter(draft).data ?? {}) }
        : mergeWithExisting(draft, base);
    if (base !== undefined) bases.set(page.path, base);
    patches.push({
      patch_id: patchId(op, page.path, merged.content),
      op,
      path: page.path,
      page_id: page.page_id,
      base_sha256: base === undefined ? null : sha256Hex(base),
      sha256: sha256Hex(merged.content),
      front_matter_keys: [...merged.keys].sort(),
      content: merged.content,
    });
  }

  await writeSiteFiles(siteRoot, patches, ctx);

  const bundle: PatchBundle = { schema_version: '1.0', base_sha: inventory.site.sha, patches };
  await writeJsonArtifact(ctx.artifacts, 'patch_bundle.json', bundle);
  await writeMarkdownArtifact(ctx.artifacts, 'diff_report.md', diffReport(bundle, bases));
  const sections: SectionProgress = {};
  for (const entry of plan.sections) sections[entry.section] = 'MERGED_IN_WORKTREE';
  ctx.logger.info('W6 applied patches', { patches: patches.length });
  return { sections, applied_patch_ids: patches.map((patch) => patch.patch_id) };
}
