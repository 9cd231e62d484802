import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitClient } from '../../src/git/git-client.js';
import {
  createLaunchPipeline,
  exampleRunConfig,
  materializeExampleRepos,
  type ExampleRepos,
} from '../../src/pipeline/index.js';
import { fixNext, MemoryArtifactStore, readSitePage, tempDir, workerContext } from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
let repos: ExampleRepos;

beforeAll(async () => {
  dir = await tempDir('example');
  repos = await materializeExampleRepos(join(dir.path, 'repos'));
});
afterAll(() => dir.cleanup());

describe('the example repositories, offline, end to end', () => {
  it('stop at VALIDATING with one fixable issue; one fix makes the report ok; the pushed branch passes TruthLock', async () => {
    const ctx = workerContext({ config: exampleRunConfig(repos), runDir: join(dir.path, 'run') });
    const pipeline = createLaunchPipeline();
    await pipeline.cloneInputs(ctx);
    await pipeline.extractFacts(ctx);
    await pipeline.catalogSnippets(ctx);
    expect(await pipeline.planPages(ctx)).toEqual({ sections: { products: 'OUTLINED', docs: 'OUTLINED' } });
    expect(await pipeline.draftPages(ctx)).toEqual({ sections: { products: 'DRAFTED', docs: 'DRAFTED' } });
    await pipeline.linkPages(ctx);
    const first = await pipeline.validateSite(ctx);
    expect(first.ok).toBe(false);
    const open = first.issues.filter((issue) => issue.status === 'OPEN');
    expect(open.map((issue) => [issue.gate, issue.error_code, issue.location.path])).toEqual([
      ['InternalLinks', 'BROKEN_LINK', 'content/docs/_index.md'],
    ]);

    const fix = await fixNext(pipeline, ctx, first);
    expect(fix).toMatchObject({ fixed_issue_id: open[0]!.issue_id, changed: true });
    expect(fix.applied_patch_ids).toHaveLength(1);
    expect(await readSitePage(ctx, 'content/docs/_index.md')).toContain(
      '[Install Tallyho](/docs/tallyho/installation/)',
    );
    const second = await pipeline.validateSite(ctx);
    expect(second.ok).toBe(true);
    expect(second.issues).toEqual([{ ...open[0], status: 'RESOLVED' }]);

    const pr = await pipeline.openPullRequest(ctx);
    const branches = await gitClient(repos.siteRepo).raw([
      'branch',
      '--list',
      '--format=%(refname:short) %(objectname)',
    ]);
    expect(branches).toContain(`${pr.branch} ${pr.commit_sha}`);

    // Check the branch as pushed: clone it as a base and validate it against the run's evidence.
    const artifacts = new MemoryArtifactStore();
    for (const [name, bytes] of ctx.artifacts.files)
      if (name !== 'validation_report.json') artifacts.files.set(name, bytes);
    const check = workerContext({
      runId: 'r_check_branch_01',
      config: { ...exampleRunConfig(repos), site: { repo: repos.siteRepo, base_ref: pr.branch } },
      runDir: join(dir.path, 'check'),
      artifacts,
    });
    await pipeline.cloneInputs(check);
    const report = await pipeline.validateSite(check);
    expect(report.gates.find((gate) => gate.name === 'TruthLock')).toMatchObject({ ok: true });
    expect(report.ok).toBe(true);
  });
});
