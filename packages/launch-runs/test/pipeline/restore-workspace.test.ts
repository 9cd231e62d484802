import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ValidationReport } from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitClient } from '../../src/git/git-client.js';
import type { RepoInventory } from '../../src/pipeline/artifact-schemas.js';
import { sha256Hex } from '../../src/pipeline/hashing.js';
import { createLaunchPipeline, exampleRunConfig } from '../../src/pipeline/index.js';
import type { AppliedFix, FixPlan, WorkspaceRestore } from '../../src/pipeline/types.js';
import { workspacePaths } from '../../src/pipeline/workspace.js';
import type { LaunchPolicy } from '../../src/policy/launch-policy.js';
import { withLaunchPolicy } from '../../src/policy/policed-pipeline.js';
import { FakePipeline } from '../support/fake-pipeline.js';
import {
  copyRun,
  failure,
  prepareExampleRun,
  runWorkersThrough,
  tempDir,
  workerContext,
  type PreparedRun,
  type TestContext,
} from './helpers.js';

/**
 * Issue #18: a replica that takes a run over rebuilds its workspace from the repositories (at the pinned
 * SHAs) and the run's artifacts (patch bundle, fix records), never from another replica's disk.
 */
const pipeline = createLaunchPipeline();
let prepared: PreparedRun;
let fixes: AppliedFix[];

/** A fix W8 applies as the runtime does; what the runtime's events record about it. */
async function applyAndRecord(ctx: TestContext, plan: FixPlan): Promise<AppliedFix> {
  await pipeline.applyFix(ctx, plan);
  const { change } = plan;
  if (change === null) throw new Error('the fix changes nothing');
  return { issue_id: plan.issue_id, path: change.path, after_sha256: change.after_sha256 };
}

/** A fix written by hand: `content` for `path` (a later fix of a page W6 wrote, for last-writer order). */
function handFix(issueId: string, path: string, before: string, content: string): FixPlan {
  return {
    issue_id: issueId,
    change: {
      patch_id: `p_${sha256Hex(content).slice(0, 12)}`,
      path,
      before_sha256: sha256Hex(before),
      after_sha256: sha256Hex(content),
      content,
    },
    record: { fix_kind: 'by_hand' },
  };
}

/** Every file of a folder but `.git`: path -> sha256. */
async function fileHashes(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (!entry.isFile() || path.split('/')[0] === '.git') continue;
    files[path] = sha256Hex(await readFile(join(dir, path)));
  }
  return files;
}

/** A worktree's files, branch and HEAD. */
async function snapshot(dir: string) {
  const git = gitClient(dir);
  return {
    files: await fileHashes(dir),
    branch: (await git.raw(['rev-parse', '--abbrev-ref', 'HEAD'])).trim(),
    head: (await git.raw(['rev-parse', 'HEAD'])).trim(),
  };
}

function restoreOf(ctx: TestContext, applied: readonly AppliedFix[]): WorkspaceRestore {
  const inventory = ctx.artifacts.json<RepoInventory>('repo_inventory.json');
  return {
    inputs: { source_sha: inventory.source.sha, site_sha: inventory.site.sha },
    linked: true,
    fixes: applied,
  };
}

beforeAll(async () => {
  prepared = await prepareExampleRun({ prefix: 'restore', through: 'validate' });
  const { ctx } = prepared;
  const report = ctx.artifacts.json<ValidationReport>('validation_report.json');
  const brokenLink = await applyAndRecord(ctx, await pipeline.planFix(ctx, report));
  const page = 'content/products/tallyho.md';
  const linked = await readFile(join(workspacePaths(ctx.runDir).site, page), 'utf8');
  const later = await applyAndRecord(ctx, handFix('iss_byhand', page, linked, `${linked}\nA later line.\n`));
  fixes = [brokenLink, later];
}, 120_000);
afterAll(() => prepared.cleanup());

describe('restoreWorkspace', { timeout: 60_000 }, () => {
  it('rebuilds the site worktree and the source clone as they were: files, launch branch and HEADs', async () => {
    const ctx = await copyRun(prepared, 'rebuilt');
    const paths = workspacePaths(ctx.runDir);
    const site = await snapshot(paths.site);
    const source = await snapshot(paths.source);
    expect(site.branch).toBe(`launch/${ctx.runId}/${ctx.config.product_slug}`);
    const writes = new Map(ctx.artifacts.writes);

    await rm(paths.root, { recursive: true, force: true });
    await pipeline.restoreWorkspace(ctx, restoreOf(ctx, fixes));

    expect(await snapshot(paths.site)).toEqual(site);
    expect(await snapshot(paths.source)).toEqual(source);
    expect(ctx.artifacts.writes).toEqual(writes);
    // The rebuilt worktree is one a run continues on: the report is as it was after the fix.
    expect((await pipeline.validateSite(ctx)).ok).toBe(true);
  });

  it('rebuilds a partial workspace; a second call leaves the workspace alone', async () => {
    const ctx = await copyRun(prepared, 'partial');
    const paths = workspacePaths(ctx.runDir);
    const site = await snapshot(paths.site);
    await rm(paths.site, { recursive: true, force: true });
    await pipeline.restoreWorkspace(ctx, restoreOf(ctx, fixes));
    expect(await snapshot(paths.site)).toEqual(site);

    const marker = join(paths.site, 'untouched.txt');
    await writeFile(marker, 'kept\n');
    await pipeline.restoreWorkspace(ctx, restoreOf(ctx, fixes));
    expect(await readFile(marker, 'utf8')).toBe('kept\n');
  });

  it('before W6: the launch branch at the base commit, nothing else', async () => {
    const ctx = await copyRun(prepared, 'unlinked');
    const paths = workspacePaths(ctx.runDir);
    await rm(paths.root, { recursive: true, force: true });
    await pipeline.restoreWorkspace(ctx, { ...restoreOf(ctx, []), linked: false });
    expect(await gitClient(paths.site).raw(['status', '--porcelain'])).toBe('');
    expect((await snapshot(paths.site)).head).toBe(restoreOf(ctx, []).inputs.site_sha);
  });

  /** The example's fix applied once more for the same issue: its record now holds the later content. */
  async function fixAgain(ctx: TestContext): Promise<AppliedFix> {
    const [brokenLink] = fixes;
    const fixed = await readFile(join(workspacePaths(ctx.runDir).site, brokenLink!.path), 'utf8');
    return applyAndRecord(ctx, handFix(brokenLink!.issue_id, brokenLink!.path, fixed, `${fixed}\nAgain.\n`));
  }

  it('an issue fixed twice: the record of its latest fix rebuilds the file', async () => {
    const ctx = await copyRun(prepared, 'refixed');
    const again = await fixAgain(ctx);
    const paths = workspacePaths(ctx.runDir);
    const site = await snapshot(paths.site);
    await rm(paths.root, { recursive: true, force: true });
    await pipeline.restoreWorkspace(ctx, restoreOf(ctx, [...fixes, again]));
    expect(await snapshot(paths.site)).toEqual(site);
  });

  it('a fix record a later attempt replaced cannot rebuild the workspace (WorkspaceRestoreError)', async () => {
    const ctx = await copyRun(prepared, 'replaced');
    await fixAgain(ctx);
    await rm(workspacePaths(ctx.runDir).root, { recursive: true, force: true });
    // The later attempt is not among the applied fixes (say its FIX_APPLIED was never recorded).
    const [brokenLink] = fixes;
    const error = await failure(pipeline.restoreWorkspace(ctx, restoreOf(ctx, [brokenLink!])));
    expect(error).toMatchObject({
      kind: 'internal',
      retryable: false,
      details: {
        cause_class: 'WorkspaceRestoreError',
        issue_id: brokenLink!.issue_id,
        path: brokenLink!.path,
      },
    });
    expect(error.message).toMatch(/workspace cannot be rebuilt.*records a later fix/);
  });

  it('the policed pipeline refuses a repository outside the policy before cloning anything', async () => {
    const ctx = await copyRun(prepared, 'refused');
    const paths = workspacePaths(ctx.runDir);
    await rm(paths.root, { recursive: true, force: true });
    const policy: LaunchPolicy = {
      repoRoots: [join(prepared.root, 'elsewhere')],
      runsRoot: join(prepared.root, 'runs'),
      remoteHosts: [],
      githubApiUrls: [],
      prTokenEnv: [],
    };
    const error = await failure(
      withLaunchPolicy(pipeline, policy).restoreWorkspace(ctx, restoreOf(ctx, fixes)),
    );
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.details).toMatchObject({ reason: 'repo_outside_allowed_roots' });
    expect(await readdir(ctx.runDir)).not.toContain('workspace');
  });
});

describe('the fake pipeline restoreWorkspace', () => {
  it('rebuilds its site folder from its pages and fix records', async () => {
    const dir = await tempDir('restore-fake');
    try {
      const fake = new FakePipeline({ seededProblems: 2 });
      const ctx = workerContext({
        config: exampleRunConfig(prepared.repos),
        runDir: join(dir.path, 'run'),
      });
      await runWorkersThrough(fake, ctx, 'link');
      const report = await fake.validateSite(ctx);
      const plan = await fake.planFix(ctx, report);
      await fake.applyFix(ctx, plan);
      const site = workspacePaths(ctx.runDir).site;
      const before = await fileHashes(site);
      await rm(site, { recursive: true, force: true });
      await fake.restoreWorkspace(ctx, {
        inputs: { source_sha: '', site_sha: '' },
        linked: true,
        fixes: [
          { issue_id: plan.issue_id, path: plan.change!.path, after_sha256: plan.change!.after_sha256 },
        ],
      });
      expect(await fileHashes(site)).toEqual(before);
    } finally {
      await dir.cleanup();
    }
  });
});
