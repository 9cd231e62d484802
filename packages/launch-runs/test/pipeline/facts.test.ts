import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceMap, ProductFacts } from '../../src/pipeline/artifact-schemas.js';
import { ClaimCollector } from '../../src/pipeline/facts/claim-collector.js';
import { manifestClaims, readManifest } from '../../src/pipeline/facts/manifest.js';
import { readmeClaims } from '../../src/pipeline/facts/readme.js';
import { SourceFiles } from '../../src/pipeline/facts/source-files.js';
import { claimId, sha256Hex } from '../../src/pipeline/hashing.js';
import { DEFAULT_MAX_FILE_BYTES } from '../../src/pipeline/options.js';
import {
  expectEvidenceIsReal,
  extractFactsFromFiles,
  prepareExampleRun,
  tempDir,
  type PreparedRun,
} from './helpers.js';

let prepared: PreparedRun;
let facts: ProductFacts;
let evidence: EvidenceMap;

beforeAll(async () => {
  prepared = await prepareExampleRun({ prefix: 'facts' });
  facts = prepared.ctx.artifacts.json<ProductFacts>('product_facts.json');
  evidence = prepared.ctx.artifacts.json<EvidenceMap>('evidence_map.json');
});
afterAll(() => prepared.cleanup());

const claimOf = (kind: string, text?: string) =>
  facts.claims.find((claim) => claim.kind === kind && (text === undefined || claim.text === text));

async function sourceLines(path: string): Promise<string[]> {
  return (await readFile(join(prepared.ctx.runDir, 'workspace', 'source', path), 'utf8')).split('\n');
}

describe('W2 extractFacts on the example product', () => {
  it('ids are c_ + 12 hex of sha256(normalized text | kind), one evidence map entry per claim', () => {
    expect(facts.claims.length).toBeGreaterThan(20);
    for (const claim of facts.claims) {
      expect(claim.claim_id).toBe(`c_${sha256Hex(`${claim.text}|${claim.kind}`).slice(0, 12)}`);
      expect(evidence.claims[claim.claim_id]?.text).toBe(claim.text);
    }
    expect(Object.keys(evidence.claims)).toEqual(Object.keys(evidence.claims).sort());
    expect(claimId('  Two   words ', 'feature')).toBe(claimId('Two words', 'feature'));
  });

  it('every evidence entry cites real lines of the source with their sha256', async () => {
    expect(await expectEvidenceIsReal(prepared.ctx)).toBeGreaterThan(25);
  });

  it('manifest facts cite the manifest lines that state them', async () => {
    const lines = await sourceLines('package.json');
    const cited = (kind: string): string => {
      const item = evidence.claims[claimOf(kind)!.claim_id]!.evidence[0]!;
      return lines.slice(item.line_start - 1, item.line_end).join('\n');
    };
    expect(claimOf('version')!.text).toBe('The current version is 1.4.0.');
    expect(cited('version')).toContain('"version": "1.4.0"');
    expect(claimOf('package_name')!.text).toBe('The package name is `tallyho`.');
    expect(claimOf('runtime')!.text).toBe('Tallyho requires Node.js `>=20.19`.');
    expect(cited('runtime')).toContain('>=20.19');
    expect(claimOf('repository')!.text).toBe(
      'The source code is hosted at <https://github.com/switchyard-examples/tallyho>.',
    );
    expect(claimOf('command')!.text).toBe('Tallyho provides the `tallyho` command.');
    expect(facts.product).toMatchObject({
      package_name: 'tallyho',
      version: '1.4.0',
      license: 'MIT',
      ecosystem: 'npm',
      install_command: 'npm install tallyho',
    });
  });

  it('the license claim has evidence in both package.json and LICENSE', () => {
    const license = claimOf('license', 'Tallyho is released under the MIT license.')!;
    expect(evidence.claims[license.claim_id]!.evidence.map((item) => item.path).sort()).toEqual([
      'LICENSE',
      'package.json',
    ]);
  });

  it('README: install command from the install snippet, summary sentences, features, usage, API with topics', async () => {
    const readme = await sourceLines('README.md');
    const install = claimOf('install')!;
    expect(install.text).toBe('Install Tallyho with `npm install tallyho`.');
    const line = evidence.claims[install.claim_id]!.evidence[0]!;
    expect(readme[line.line_start - 1]).toBe('npm install tallyho');
    expect(facts.claims.filter((claim) => claim.kind === 'summary').map((claim) => claim.text)).toEqual([
      'Tallyho counts words, lines and characters in text files.',
      'It works as a command line tool and as a library.',
    ]);
    expect(facts.claims.filter((claim) => claim.kind === 'feature').map((claim) => claim.text)).toEqual([
      'Counts words, lines and characters in one pass',
      'Reads files or standard input',
      'Prints plain text or JSON',
      'Skips fenced code blocks with `--prose`',
    ]);
    const api = claimOf('api', 'Formats counts as `text` or `json`.')!;
    expect(api.topics).toEqual(['API', 'formatTally(counts, format)']);
    expect(claimOf('install_note')!.text).toBe('Tallyho needs Node.js 20.19 or later.');
    expect(claimOf('usage', 'Use it as a library:')).toBeDefined();
  });

  it('CHANGELOG: the latest release and its changes', () => {
    expect(claimOf('release')!.text).toBe('The latest changelog entry is version 1.4.0.');
    const changes = facts.claims.filter((claim) => claim.kind === 'change');
    expect(changes.map((claim) => claim.text)).toEqual([
      'JSON output with `--json`.',
      'The `--prose` flag skips fenced code blocks.',
      'Lines ending in CRLF are counted once.',
    ]);
    expect(changes[2]!.topics).toEqual(['1.4.0 - 2025-03-02', 'Fixed']);
  });

  it('badges, images, HTML blocks and link targets produce no claims', () => {
    for (const claim of facts.claims) {
      expect(claim.text).not.toMatch(/shields\.io|<img|<p|!\[|\]\(|logo\.svg/);
    }
  });
});

/** A throwaway source folder with an inventory, for manifest and README unit tests. */
async function sourceFolder(
  files: Record<string, string>,
): Promise<{ files: SourceFiles; cleanup: () => Promise<void> }> {
  const dir = await tempDir('source');
  const inventory = [];
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir.path, path)), { recursive: true });
    await writeFile(join(dir.path, path), content);
    inventory.push({ path, size: Buffer.byteLength(content), sha256: sha256Hex(content) });
  }
  return { files: new SourceFiles(dir.path, inventory, DEFAULT_MAX_FILE_BYTES), cleanup: dir.cleanup };
}

async function manifestFacts(files: Record<string, string>) {
  const source = await sourceFolder(files);
  try {
    const manifest = (await readManifest(source.files))!;
    const lines = new Map<string, string[]>();
    for (const path of Object.keys(files)) lines.set(path, files[path]!.split('\n'));
    const collector = new ClaimCollector((path) => lines.get(path));
    manifestClaims(manifest, 'Widget', collector, { installFromReadme: false });
    const claims = collector
      .list()
      .map((claim) => ({ ...claim, evidence: collector.evidenceOf(claim.claim_id) }));
    const cited = (kind: string): string => {
      const claim = claims.find((item) => item.kind === kind)!;
      const item = claim.evidence[0]!;
      return lines
        .get(item.path)!
        .slice(item.line_start - 1, item.line_end)
        .join('\n');
    };
    return { manifest, claims, cited };
  } finally {
    await source.cleanup();
  }
}

describe('manifests', () => {
  it('pyproject.toml: name, version, license, requires-python, repository URL', async () => {
    const { claims, cited } = await manifestFacts({
      'pyproject.toml': [
        '[build-system]',
        'requires = ["hatchling"]',
        '',
        '[project]',
        'name = "widget-kit"',
        'version = "2.1.0"',
        'description = "Widgets for everyone"',
        'license = { text = "Apache-2.0" }',
        'requires-python = ">=3.10"',
        '',
        '[project.urls]',
        'Repository = "https://github.com/acme/widget-kit"',
        '',
      ].join('\n'),
    });
    expect(cited('version')).toBe('version = "2.1.0"');
    expect(cited('runtime')).toBe('requires-python = ">=3.10"');
    expect(cited('repository')).toContain('Repository');
    expect(claims.find((claim) => claim.kind === 'install')!.text).toBe(
      'Install Widget with `pip install widget-kit`.',
    );
    expect(claims.find((claim) => claim.kind === 'license')!.text).toBe(
      'Widget is released under the Apache-2.0 license.',
    );
    expect(claims.find((claim) => claim.kind === 'description')!.text).toBe('Widgets for everyone.');
  });

  it('Cargo.toml and go.mod', async () => {
    const cargo = await manifestFacts({
      'Cargo.toml':
        '[package]\nname = "widget"\nversion = "0.3.1"\nedition = "2021"\nrust-version = "1.74"\nlicense = "MIT OR Apache-2.0"\nrepository = "https://github.com/acme/widget"\n',
    });
    expect(cargo.cited('version')).toBe('version = "0.3.1"');
    expect(cargo.claims.find((claim) => claim.kind === 'runtime')!.text).toBe('Widget requires Rust `1.74`.');
    expect(cargo.claims.find((claim) => claim.kind === 'install')!.text).toBe(
      'Install Widget with `cargo add widget`.',
    );
    const go = await manifestFacts({
      'go.mod': 'module github.com/acme/widget\n\ngo 1.22\n\nrequire golang.org/x/text v0.14.0\n',
    });
    expect(go.cited('runtime')).toBe('go 1.22');
    expect(go.claims.find((claim) => claim.kind === 'install')!.text).toBe(
      'Install Widget with `go get github.com/acme/widget`.',
    );
    expect(go.claims.find((claim) => claim.kind === 'repository')!.text).toBe(
      'The source code is hosted at <https://github.com/acme/widget>.',
    );
  });

  it('a scoped npm package keeps its scope in the name and install command; private packages get no install claim', async () => {
    const scoped = await manifestFacts({
      'package.json': JSON.stringify(
        { name: '@acme/widget-kit', version: '3.0.0-beta.2', license: 'ISC' },
        null,
        2,
      ),
    });
    expect(scoped.claims.find((claim) => claim.kind === 'package_name')!.text).toBe(
      'The package name is `@acme/widget-kit`.',
    );
    expect(scoped.claims.find((claim) => claim.kind === 'install')!.text).toBe(
      'Install Widget with `npm install @acme/widget-kit`.',
    );
    expect(scoped.cited('version')).toContain('3.0.0-beta.2');
    const unpublished = await manifestFacts({
      'package.json': JSON.stringify({ name: 'internal', version: '1.0.0', private: true }),
    });
    expect(unpublished.claims.some((claim) => claim.kind === 'install')).toBe(false);
  });
});

describe('real-world README shapes', () => {
  const readme = [
    '<div align="center">',
    '  <h1>Widget Kit</h1>',
    '  <img src="media/logo.png" alt="logo">',
    '</div>',
    '',
    '[![CI](https://github.com/acme/widget-kit/actions/workflows/ci.yml/badge.svg)](https://github.com/acme/widget-kit/actions) [![npm](https://img.shields.io/npm/v/@acme/widget-kit)](https://npmjs.com/package/@acme/widget-kit)',
    '',
    '> Widget Kit renders widgets from plain objects. It has no runtime dependencies.',
    '',
    '## Table of contents',
    '',
    '- [Install](#install)',
    '- [API](#api)',
    '',
    '## Install',
    '',
    '```console',
    '$ npm i @acme/widget-kit',
    '```',
    '',
    'See the [guide](./docs/guide.md) and the ![diagram](docs/diagram.png) for the setup.',
    '',
    '## API',
    '',
    ...Array.from({ length: 30 }, (_, index) =>
      [`### widget${index}(options)`, '', `Creates widget number ${index} from \`options\`.`, ''].join('\n'),
    ),
    '## Templates',
    '',
    'Use {{ name }} placeholders in templates.',
    '',
    '| option | default |',
    '| --- | --- |',
    '| size | 3 |',
  ].join('\n');

  it('HTML blocks, badges, images, relative links, TOCs and long API sections give clean claims', async () => {
    const lines = readme.split('\n');
    const collector = new ClaimCollector(() => lines);
    const result = readmeClaims('README.md', readme, 'Widget Kit', '@acme/widget-kit', collector);
    const claims = collector.list();
    expect(result.installCommand).toBe('npm i @acme/widget-kit');
    expect(claims.find((claim) => claim.kind === 'install')!.text).toBe(
      'Install Widget Kit with `npm i @acme/widget-kit`.',
    );
    expect(claims.filter((claim) => claim.kind === 'summary').map((claim) => claim.text)).toEqual([
      'Widget Kit renders widgets from plain objects.',
      'It has no runtime dependencies.',
    ]);
    expect(claims.find((claim) => claim.kind === 'install_note')!.text).toBe(
      'See the guide and the diagram for the setup.',
    );
    const api = claims.filter((claim) => claim.kind === 'api');
    expect(api).toHaveLength(30);
    expect(api[29]!.topics).toEqual(['API', 'widget29(options)']);
    for (const claim of claims) {
      expect(claim.text).not.toMatch(/<|\]\(|badge|\{\{|Table of contents/);
    }
    expect(claims.some((claim) => claim.text.includes('Install') && claim.kind !== 'install')).toBe(false);
  });

  it('W2 on a repository with a scoped package and that README', async () => {
    const scopedFacts = await extractFactsFromFiles('scoped', {
      'package.json': JSON.stringify({ name: '@acme/widget-kit', version: '3.0.0', license: 'MIT' }, null, 2),
      'README.md': readme,
    });
    expect(scopedFacts.product.package_name).toBe('@acme/widget-kit');
    expect(scopedFacts.product.install_command).toBe('npm i @acme/widget-kit');
    expect(scopedFacts.claims.filter((claim) => claim.kind === 'api')).toHaveLength(30);
  });
});
