import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  RunConfigSchema,
  type RunConfig,
  type RunConfigInput,
  type ValidationReport,
} from '@switchyard/contracts/launch-runs';
import { sha256Hex } from '../../src/pipeline/hashing.js';
import type { EvidenceMap, ProductFacts } from '../../src/pipeline/artifact-schemas.js';
import type { ExampleRepos } from '../../src/pipeline/examples.js';
import type {
  ArtifactStore,
  ArtifactWriteResult,
  LaunchPipeline,
  WorkerContext,
  WorkerLogger,
} from '../../src/pipeline/types.js';

/** The tests' ArtifactStore: bytes in memory, sha256 like the runtime's, a write count per name. */
export class MemoryArtifactStore implements ArtifactStore {
  readonly files = new Map<string, Uint8Array>();
  readonly writes = new Map<string, number>();

  write(name: string, content: string | Uint8Array): Promise<ArtifactWriteResult> {
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    this.files.set(name, bytes);
    this.writes.set(name, (this.writes.get(name) ?? 0) + 1);
    return Promise.resolve({ name, sha256: sha256Hex(bytes) });
  }

  read(name: string): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.files.get(name));
  }

  text(name: string): string {
    const bytes = this.files.get(name);
    if (bytes === undefined) throw new Error(`no artifact ${name}`);
    return new TextDecoder().decode(bytes);
  }

  json<T = unknown>(name: string): T {
    return JSON.parse(this.text(name)) as T;
  }

  names(): string[] {
    return [...this.files.keys()].sort();
  }
}

export const silentLogger: WorkerLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
};

export interface TestContext extends WorkerContext {
  artifacts: MemoryArtifactStore;
  controller: AbortController;
}

export function workerContext(input: {
  runId?: string;
  config: RunConfigInput;
  runDir: string;
  artifacts?: MemoryArtifactStore;
  env?: Record<string, string | undefined>;
}): TestContext {
  const controller = new AbortController();
  const config: RunConfig = RunConfigSchema.parse(input.config);
  return {
    runId: input.runId ?? 'r_2026-01-21T10-00-00Z_abcd1234',
    config,
    runDir: input.runDir,
    artifacts: input.artifacts ?? new MemoryArtifactStore(),
    signal: controller.signal,
    controller,
    logger: silentLogger,
    env: input.env ?? {},
  };
}

/** The artifacts W1..W7 write: everything a run has when it reaches VALIDATING. */
export const ARTIFACTS_THROUGH_VALIDATION = [
  'repo_inventory.json',
  'product_facts.json',
  'evidence_map.json',
  'snippet_catalog.json',
  'page_plan.json',
  'patch_bundle.json',
  'diff_report.md',
  'validation_report.json',
];

/** W1..W5 (`draft`) or W1..W6 (`link`) in order on one context, as the runtime runs a new run's steps. */
export async function runWorkersThrough(
  pipeline: LaunchPipeline,
  ctx: WorkerContext,
  through: 'draft' | 'link',
): Promise<void> {
  await pipeline.cloneInputs(ctx);
  await pipeline.extractFacts(ctx);
  await pipeline.catalogSnippets(ctx);
  await pipeline.planPages(ctx);
  await pipeline.draftPages(ctx);
  if (through === 'link') await pipeline.linkPages(ctx);
}

/** W8 as the runtime runs it (plan, then apply); `changed: false` for a fix that changes nothing. */
export async function fixNext(pipeline: LaunchPipeline, ctx: WorkerContext, report: ValidationReport) {
  const plan = await pipeline.planFix(ctx, report);
  await pipeline.applyFix(ctx, plan);
  return {
    fixed_issue_id: plan.issue_id,
    applied_patch_ids: plan.change === null ? [] : [plan.change.patch_id],
    changed: plan.change !== null,
  };
}

/** The SwitchyardError `promise` rejects with (a test failure when it resolves or throws anything else). */
export async function failure(promise: Promise<unknown>): Promise<SwitchyardError> {
  const { expect } = await import('vitest');
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SwitchyardError);
  return error as SwitchyardError;
}

/** A temp folder removed by the returned cleanup. */
export async function tempDir(prefix: string): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `switchyard-${prefix}-`));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** The folder of an installed package (walks up from its entry point to the package.json naming it). */
export async function installedPackageDir(name: string): Promise<string> {
  const { createRequire } = await import('node:module');
  const { readFile } = await import('node:fs/promises');
  const { dirname } = await import('node:path');
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve(name));
  for (;;) {
    try {
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (manifest.name === name) return dir;
    } catch {
      // keep walking
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package ${name} not found`);
    dir = parent;
  }
}

/** Copies a folder into a fresh git repository with one commit on main (fixed identity and date). */
export async function gitRepoFrom(sourceDir: string, repoDir: string): Promise<string> {
  const { cp } = await import('node:fs/promises');
  const { gitClient } = await import('../../src/git/git-client.js');
  await cp(sourceDir, repoDir, {
    recursive: true,
    dereference: true,
    filter: (path) => !path.slice(sourceDir.length).includes('node_modules'),
  });
  const git = gitClient(repoDir, {
    env: {
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@switchyard.invalid',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@switchyard.invalid',
      GIT_AUTHOR_DATE: '2025-01-01T00:00:00Z',
      GIT_COMMITTER_DATE: '2025-01-01T00:00:00Z',
    },
  });
  await git.raw(['-c', 'init.defaultBranch=main', 'init', '--quiet']);
  await git.raw(['add', '-A']);
  await git.raw(['commit', '--quiet', '--no-verify', '--no-gpg-sign', '-m', 'import']);
  return repoDir;
}

/**
 * W1 and W2 over a source repository made of `files` (path -> content), product "Widget Kit": the
 * product_facts.json they write. The site is the example site.
 */
export async function extractFactsFromFiles(
  prefix: string,
  files: Record<string, string>,
): Promise<ProductFacts> {
  const { createLaunchPipeline, materializeExampleRepos } = await import('../../src/pipeline/index.js');
  const dir = await tempDir(prefix);
  try {
    const source = join(dir.path, 'src');
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(source, path)), { recursive: true });
      await writeFile(join(source, path), content);
    }
    const repo = await gitRepoFrom(source, join(dir.path, 'repo'));
    const repos = await materializeExampleRepos(join(dir.path, 'repos'), { seedFixableProblem: false });
    const ctx = workerContext({
      config: {
        schema_version: '1.0',
        product_slug: 'widget-kit',
        product_name: 'Widget Kit',
        source: { repo },
        site: { repo: repos.siteRepo },
        allowed_paths: ['content/**'],
      },
      runDir: join(dir.path, 'run'),
    });
    const pipeline = createLaunchPipeline();
    await pipeline.cloneInputs(ctx);
    await pipeline.extractFacts(ctx);
    return ctx.artifacts.json<ProductFacts>('product_facts.json');
  } finally {
    await dir.cleanup();
  }
}

/** A run of the example repositories taken through W1..W6 (and optionally W7), to copy per test. */
export interface PreparedRun {
  root: string;
  repos: ExampleRepos;
  ctx: TestContext;
  cleanup: () => Promise<void>;
}

export async function prepareExampleRun(options: {
  prefix: string;
  config?: Partial<RunConfigInput>;
  seedFixableProblem?: boolean;
  /** The last worker to run: W5 (draft), W6 (link, the default) or W7 (validate). */
  through?: 'draft' | 'link' | 'validate';
  siteRepo?: string;
}): Promise<PreparedRun> {
  const { createLaunchPipeline, exampleRunConfig, materializeExampleRepos } =
    await import('../../src/pipeline/index.js');
  const dir = await tempDir(options.prefix);
  const repos = await materializeExampleRepos(join(dir.path, 'repos'), {
    ...(options.seedFixableProblem === undefined ? {} : { seedFixableProblem: options.seedFixableProblem }),
  });
  const base = exampleRunConfig(repos);
  const ctx = workerContext({
    config: {
      ...base,
      ...(options.siteRepo === undefined ? {} : { site: { repo: options.siteRepo } }),
      ...options.config,
    },
    runDir: join(dir.path, 'run'),
  });
  const pipeline = createLaunchPipeline();
  const through = options.through ?? 'link';
  await runWorkersThrough(pipeline, ctx, through === 'draft' ? 'draft' : 'link');
  if (through === 'validate') await pipeline.validateSite(ctx);
  return { root: dir.path, repos, ctx, cleanup: dir.cleanup };
}

/** An independent copy of a prepared run (run folder and artifacts), so a test can change it freely. */
export async function copyRun(
  prepared: PreparedRun,
  name: string,
  config?: Partial<RunConfigInput>,
): Promise<TestContext> {
  const { cp } = await import('node:fs/promises');
  const runDir = join(prepared.root, name);
  await cp(prepared.ctx.runDir, runDir, { recursive: true, verbatimSymlinks: true });
  const artifacts = new MemoryArtifactStore();
  for (const [key, value] of prepared.ctx.artifacts.files) artifacts.files.set(key, value);
  const base = RunConfigSchema.parse(prepared.ctx.config) as RunConfigInput;
  return workerContext({ runId: prepared.ctx.runId, config: { ...base, ...config }, runDir, artifacts });
}

/** Writes a site file of a run (site-relative path) and returns its absolute path. */
export async function writeSitePage(ctx: WorkerContext, path: string, content: string): Promise<string> {
  const { dirname } = await import('node:path');
  const absolute = join(ctx.runDir, 'workspace', 'site', ...path.split('/'));
  await mkdir(dirname(absolute), { recursive: true });
  await writeFile(absolute, content);
  return absolute;
}

export async function readSitePage(ctx: WorkerContext, path: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(join(ctx.runDir, 'workspace', 'site', ...path.split('/')), 'utf8');
}

/**
 * Every evidence entry of a run's evidence map cites real lines of the source clone (sha256 of those lines),
 * and README-derived claims share their words with the lines they cite.
 */
export async function expectEvidenceIsReal(ctx: WorkerContext): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const { expect } = await import('vitest');
  const bytes = await ctx.artifacts.read('evidence_map.json');
  const evidence = JSON.parse(new TextDecoder().decode(bytes)) as EvidenceMap;
  const files = new Map<string, string[]>();
  let checked = 0;
  for (const entry of Object.values(evidence.claims)) {
    for (const item of entry.evidence) {
      if (!files.has(item.path)) {
        files.set(
          item.path,
          (await readFile(join(ctx.runDir, 'workspace', 'source', ...item.path.split('/')), 'utf8')).split(
            '\n',
          ),
        );
      }
      const cited = files
        .get(item.path)!
        .slice(item.line_start - 1, item.line_end)
        .join('\n');
      expect(item.sha256).toBe(sha256Hex(cited));
      if (['summary', 'feature', 'usage', 'api', 'faq', 'install_note', 'change'].includes(entry.kind)) {
        const words = entry.text.toLowerCase().match(/[a-z]{4,}/g) ?? [];
        const present = words.filter((word) => cited.toLowerCase().includes(word));
        expect(present.length, `${entry.text} cites ${item.path}:${item.line_start}`).toBeGreaterThanOrEqual(
          Math.ceil(words.length * 0.8),
        );
      }
      checked += 1;
    }
  }
  return checked;
}

const TLS_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'tls');

/**
 * An https server on loopback whose certificate no system trusts (test/fixtures/tls): git refuses it in the
 * TLS handshake, before any request. `url` is its origin.
 */
export async function startUntrustedHttps(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(
    {
      key: readFileSync(join(TLS_FIXTURES, 'untrusted-key.pem')),
      cert: readFileSync(join(TLS_FIXTURES, 'untrusted-cert.pem')),
    },
    (_request, response) => response.writeHead(404).end(),
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
