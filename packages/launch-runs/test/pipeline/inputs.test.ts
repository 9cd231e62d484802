import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitClient } from '../../src/git/git-client.js';
import type { RepoInventory } from '../../src/pipeline/artifact-schemas.js';
import { sha256Hex } from '../../src/pipeline/hashing.js';
import {
  createLaunchPipeline,
  exampleRunConfig,
  materializeExampleRepos,
  type ExampleRepos,
} from '../../src/pipeline/index.js';
import { tempDir, workerContext } from './helpers.js';

const pipeline = createLaunchPipeline();
let dir: { path: string; cleanup: () => Promise<void> };
let repos: ExampleRepos;
let releaseSha: string;

beforeAll(async () => {
  dir = await tempDir('inputs');
  repos = await materializeExampleRepos(join(dir.path, 'repos'));
  // A second commit on main after a tag, so ref selection is observable.
  const git = gitClient(repos.sourceRepo, {
    env: {
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@x.invalid',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@x.invalid',
    },
  });
  releaseSha = (await git.raw(['rev-parse', 'HEAD'])).trim();
  await git.raw(['tag', 'v1.4.0']);
  await writeFile(join(repos.sourceRepo, 'NEXT.md'), 'next\n');
  await git.raw(['add', 'NEXT.md']);
  await git.raw(['commit', '--quiet', '-m', 'next']);
});
afterAll(() => dir.cleanup());

async function expectError(promise: Promise<unknown>, code: string): Promise<SwitchyardError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SwitchyardError);
  expect((error as SwitchyardError).code).toBe(code);
  return error as SwitchyardError;
}

describe('W1 cloneInputs', () => {
  it('clones the default branch, creates the launch branch and inventories both repositories', async () => {
    const ctx = workerContext({ config: exampleRunConfig(repos), runDir: join(dir.path, 'run-default') });
    const result = await pipeline.cloneInputs(ctx);
    const inventory = ctx.artifacts.json<RepoInventory>('repo_inventory.json');
    expect(result.source_sha).toBe(inventory.source.sha);
    expect(result.source_sha).not.toBe(releaseSha);
    expect(inventory.source.files.map((file) => file.path)).toContain('NEXT.md');
    const paths = inventory.site.files.map((file) => file.path);
    expect(paths).toEqual([...paths].sort());
    for (const file of inventory.source.files) {
      const bytes = await readFile(join(ctx.runDir, 'workspace', 'source', file.path));
      expect(file.sha256).toBe(sha256Hex(bytes));
      expect(file.size).toBe(bytes.byteLength);
    }
    const site = gitClient(join(ctx.runDir, 'workspace', 'site'));
    expect((await site.raw(['rev-parse', '--abbrev-ref', 'HEAD'])).trim()).toBe(
      `launch/${ctx.runId}/tallyho`,
    );
    expect((await site.raw(['rev-parse', 'HEAD'])).trim()).toBe(result.site_sha);
    expect(JSON.stringify(inventory)).not.toContain(dir.path);
  });

  it('checks out a tag, a SHA, and file:// URLs', async () => {
    const byTag = workerContext({
      config: { ...exampleRunConfig(repos), source: { repo: repos.sourceRepo, ref: 'v1.4.0' } },
      runDir: join(dir.path, 'run-tag'),
    });
    expect((await pipeline.cloneInputs(byTag)).source_sha).toBe(releaseSha);
    const bySha = workerContext({
      config: {
        ...exampleRunConfig(repos),
        source: { repo: pathToFileURL(repos.sourceRepo).href, ref: releaseSha },
      },
      runDir: join(dir.path, 'run-sha'),
    });
    expect((await pipeline.cloneInputs(bySha)).source_sha).toBe(releaseSha);
    expect(
      bySha.artifacts.json<RepoInventory>('repo_inventory.json').source.files.map((file) => file.path),
    ).not.toContain('NEXT.md');
  });

  it('starts over when an interrupted attempt left a partial workspace', async () => {
    const ctx = workerContext({ config: exampleRunConfig(repos), runDir: join(dir.path, 'run-rerun') });
    await mkdir(join(ctx.runDir, 'workspace', 'site'), { recursive: true });
    await writeFile(join(ctx.runDir, 'workspace', 'site', 'half-written.md'), 'partial');
    const first = await pipeline.cloneInputs(ctx);
    const inventory = ctx.artifacts.text('repo_inventory.json');
    expect(inventory).not.toContain('half-written');
    expect(await pipeline.cloneInputs(ctx)).toEqual(first);
    expect(ctx.artifacts.text('repo_inventory.json')).toBe(inventory);
  });

  it('answers INVALID_INPUT for a repository that cannot be cloned, a ref that does not exist, or an option-like path', async () => {
    const missing = workerContext({
      config: { ...exampleRunConfig(repos), source: { repo: join(dir.path, 'nope') } },
      runDir: join(dir.path, 'run-missing'),
    });
    const error = await expectError(pipeline.cloneInputs(missing), 'INVALID_INPUT');
    expect(error.details).toMatchObject({ field: 'source.repo' });
    const badRef = workerContext({
      config: { ...exampleRunConfig(repos), site: { repo: repos.siteRepo, base_ref: 'no-such-branch' } },
      runDir: join(dir.path, 'run-ref'),
    });
    expect((await expectError(pipeline.cloneInputs(badRef), 'INVALID_INPUT')).details).toMatchObject({
      field: 'site.base_ref',
    });
    const optionLike = workerContext({
      config: { ...exampleRunConfig(repos), source: { repo: '--upload-pack=touch /tmp/x' } },
      runDir: join(dir.path, 'run-opt'),
    });
    await expectError(pipeline.cloneInputs(optionLike), 'INVALID_INPUT');
    const transport = workerContext({
      config: { ...exampleRunConfig(repos), source: { repo: 'ext::sh -c touch% /tmp/x' } },
      runDir: join(dir.path, 'run-ext'),
    });
    await expectError(pipeline.cloneInputs(transport), 'INVALID_INPUT');
  });

  it('stops with CANCELLED when the run is cancelled', async () => {
    const ctx = workerContext({ config: exampleRunConfig(repos), runDir: join(dir.path, 'run-cancel') });
    ctx.controller.abort();
    await expectError(pipeline.cloneInputs(ctx), 'CANCELLED');
    expect(ctx.artifacts.names()).toEqual([]);
  });
});
