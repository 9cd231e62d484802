import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnippetCatalog } from '../../src/pipeline/artifact-schemas.js';
import { sha256Hex } from '../../src/pipeline/hashing.js';
import { createLaunchPipeline, exampleRunConfig } from '../../src/pipeline/index.js';
import { fenceLanguage, inferLanguage } from '../../src/pipeline/snippets.js';
import { gitRepoFrom, prepareExampleRun, tempDir, workerContext, type PreparedRun } from './helpers.js';

let prepared: PreparedRun;
let catalog: SnippetCatalog;

beforeAll(async () => {
  prepared = await prepareExampleRun({ prefix: 'snippets' });
  catalog = prepared.ctx.artifacts.json<SnippetCatalog>('snippet_catalog.json');
});
afterAll(() => prepared.cleanup());

/** W3's snippets for a source repository holding `files` (path -> content). */
async function snippetsOf(files: Record<string, string>): Promise<SnippetCatalog['snippets']> {
  const dir = await tempDir('snippet-repo');
  try {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(dir.path, 'src', path)), { recursive: true });
      await writeFile(join(dir.path, 'src', path), content);
    }
    const repo = await gitRepoFrom(join(dir.path, 'src'), join(dir.path, 'repo'));
    const ctx = workerContext({
      config: { ...exampleRunConfig(prepared.repos), source: { repo } },
      runDir: join(dir.path, 'run'),
    });
    const pipeline = createLaunchPipeline();
    await pipeline.cloneInputs(ctx);
    await pipeline.catalogSnippets(ctx);
    return ctx.artifacts.json<SnippetCatalog>('snippet_catalog.json').snippets;
  } finally {
    await dir.cleanup();
  }
}

describe('W3 catalogSnippets', () => {
  it('catalogs README fences and example files with language and provenance', async () => {
    const byContent = new Map(catalog.snippets.map((snippet) => [snippet.content, snippet]));
    expect(byContent.get('npm install tallyho')).toMatchObject({
      language: 'sh',
      language_source: 'fence',
      section: 'install',
    });
    expect(byContent.get('{\n  "prose": true,\n  "format": "json"\n}')).toMatchObject({
      language: 'json',
      section: 'api',
    });
    const file = catalog.snippets.find(
      (snippet) => snippet.provenance[0]!.path === 'examples/count-file.js',
    )!;
    expect(file).toMatchObject({ language: 'js', language_source: 'extension', section: 'examples' });
    for (const snippet of catalog.snippets) {
      expect(snippet.snippet_id).toBe(`s_${sha256Hex(snippet.content).slice(0, 12)}`);
      for (const item of snippet.provenance) {
        const lines = (
          await readFile(join(prepared.ctx.runDir, 'workspace', 'source', item.path), 'utf8')
        ).split('\n');
        const cited = lines.slice(item.line_start - 1, item.line_end).join('\n');
        expect(item.sha256).toBe(sha256Hex(cited));
        expect(cited).toBe(snippet.content);
      }
    }
    const order = catalog.snippets.map(
      (snippet) =>
        `${snippet.provenance[0]!.path}:${String(snippet.provenance[0]!.line_start).padStart(5, '0')}`,
    );
    expect(order).toEqual([...order].sort());
  });

  it('infers a missing language, marks an unknown one, merges duplicates into one snippet with two provenances', async () => {
    const snippets = await snippetsOf({
      'README.md':
        '# W\n\n## Usage\n\n```\nnpm run build\n```\n\n```\n{"a": 1}\n```\n\n```\nsomething plain\n```\n',
      'docs/guide.md': '# Guide\n\n```sh {title="x"}\nnpm run build\n```\n',
    });
    const build = snippets.find((snippet) => snippet.content === 'npm run build')!;
    expect(build.provenance.map((item) => item.path)).toEqual(['README.md', 'docs/guide.md']);
    expect(build).toMatchObject({ language: 'sh', language_source: 'inferred' });
    expect(snippets.find((snippet) => snippet.content === '{"a": 1}')).toMatchObject({
      language: 'json',
      language_source: 'inferred',
    });
    expect(snippets.find((snippet) => snippet.content === 'something plain')).toMatchObject({
      language: 'text',
      language_source: 'unknown',
    });
  });

  it("provenance spans exactly a fence's content lines (closed in a blockquote, a longer fence holding ```)", async () => {
    const snippets = await snippetsOf({
      'README.md':
        '# W\n\n## Usage\n\n> ```sh\n> npm run quoted\n> ```\n\n````md\nnpm run outer\n```\n````\n',
    });
    expect(
      snippets.map(({ content, provenance }) => [
        content,
        provenance[0]!.line_start,
        provenance[0]!.line_end,
      ]),
    ).toEqual([
      ['npm run quoted', 6, 6],
      ['npm run outer\n```', 10, 11],
    ]);
  });

  it('language helpers', () => {
    expect(fenceLanguage('ts title="a.ts"')).toBe('ts');
    expect(fenceLanguage('js{1,3}')).toBe('js');
    expect(inferLanguage('name: x\nitems:\n  - a').language).toBe('yaml');
    expect(inferLanguage('const a = 1;').language).toBe('js');
    expect(inferLanguage('def main():\n    pass').language).toBe('python');
  });
});
