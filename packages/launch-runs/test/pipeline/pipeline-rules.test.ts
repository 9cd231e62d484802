/**
 * Rules of the launch pipeline (W2 facts, W3 snippets, W4 plan, W6 link, W8 fix and their helpers) that no
 * other test held: each row fails when the rule it names is broken (found by mutating the code by hand).
 */
import { mkdir, readdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changelogClaims } from '../../src/pipeline/facts/changelog.js';
import { ClaimCollector } from '../../src/pipeline/facts/claim-collector.js';
import { detectLicense } from '../../src/pipeline/facts/license-file.js';
import { manifestClaims, readManifest } from '../../src/pipeline/facts/manifest.js';
import { readmeClaims } from '../../src/pipeline/facts/readme.js';
import { classifyHeading } from '../../src/pipeline/facts/readme-sections.js';
import { normalizeRepositoryUrl } from '../../src/pipeline/facts/repository-url.js';
import { SourceFiles, skippedFilesField } from '../../src/pipeline/facts/source-files.js';
import { sha256Hex } from '../../src/pipeline/hashing.js';
import { parseMarkdown } from '../../src/pipeline/markdown/document.js';
import { parseYamlMapping, splitFrontMatter } from '../../src/pipeline/markdown/front-matter.js';
import {
  codeSpan,
  escapeMarkdownText,
  segmentsToMarkdown,
  type InlineSegment,
} from '../../src/pipeline/markdown/inline.js';
import { splitSentences } from '../../src/pipeline/markdown/sentences.js';
import { uniqueSlugs } from '../../src/pipeline/markdown/slug.js';
import { DEFAULT_MAX_FILE_BYTES } from '../../src/pipeline/options.js';
import {
  allowedPathsMatcher,
  assertAllowed,
  normalizeSitePath,
  readSiteFile,
  resolveInSite,
  UnsafeSitePathError,
  writeSiteFile,
} from '../../src/pipeline/site-files.js';
import { extractFactsFromFiles, tempDir } from './helpers.js';

/** A throwaway source folder with an inventory, read the way W2 reads a clone. */
async function withSource<T>(
  files: Record<string, string>,
  use: (source: SourceFiles) => Promise<T>,
): Promise<T> {
  const dir = await tempDir('rules-source');
  try {
    const inventory = [];
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(dir.path, path)), { recursive: true });
      await writeFile(join(dir.path, path), content);
      inventory.push({ path, size: Buffer.byteLength(content), sha256: sha256Hex(content) });
    }
    return await use(new SourceFiles(dir.path, inventory, DEFAULT_MAX_FILE_BYTES));
  } finally {
    await dir.cleanup();
  }
}

type ClaimWithEvidence = ReturnType<ClaimCollector['list']>[number] & {
  evidence: ReturnType<ClaimCollector['evidenceOf']>;
};

function collectorFor(files: Record<string, string>): {
  collector: ClaimCollector;
  claims: () => ClaimWithEvidence[];
} {
  const collector = new ClaimCollector((path) => files[path]?.split('\n'));
  return {
    collector,
    claims: () =>
      collector.list().map((claim) => ({ ...claim, evidence: collector.evidenceOf(claim.claim_id) })),
  };
}

/** The claims manifestClaims makes from one manifest file (product name "Widget"). */
async function manifestClaimsOf(
  files: Record<string, string>,
  installFromReadme = false,
): Promise<ClaimWithEvidence[]> {
  return withSource(files, async (source) => {
    const manifest = await readManifest(source);
    if (manifest === undefined) return [];
    const { collector, claims } = collectorFor(files);
    manifestClaims(manifest, 'Widget', collector, { installFromReadme });
    return claims();
  });
}

const textsOf = (claims: readonly ClaimWithEvidence[], kind: string): string[] =>
  claims.filter((claim) => claim.kind === kind).map((claim) => claim.text);

describe('W2 manifest rules', () => {
  const json = (value: unknown) => ({ 'package.json': JSON.stringify(value, null, 2) });
  const rows: [string, Record<string, string>, string, string[]][] = [
    ['a blank name states no package name', json({ name: '  ', version: '1.0.0' }), 'package_name', []],
    [
      'a license object ({ type }) is read',
      json({ name: 'w', license: { type: 'MIT' } }),
      'license',
      ['Widget is released under the MIT license.'],
    ],
    [
      'a parenthesised SPDX expression loses its parentheses',
      json({ name: 'w', license: '(MIT OR Apache-2.0)' }),
      'license',
      ['Widget is released under the MIT OR Apache-2.0 license.'],
    ],
    ['a license with Markdown syntax is not stated', json({ name: 'w', license: '<MIT>' }), 'license', []],
    // npm's values that name no license: none granted, or terms in a file (LICENSE detection may still state one).
    ['UNLICENSED is not stated as a license', json({ name: 'w', license: 'UNLICENSED' }), 'license', []],
    [
      'SEE LICENSE IN <file> is not stated as a license',
      json({ name: 'w', license: 'SEE LICENSE IN LICENSE.md' }),
      'license',
      [],
    ],
    [
      'a version that is not one token is not stated',
      json({ name: 'w', version: '1.0 (beta)' }),
      'version',
      [],
    ],
    [
      '"private": false is still published (install command derived)',
      json({ name: 'w', private: false }),
      'install',
      ['Install Widget with `npm install w`.'],
    ],
    [
      'a string bin of a scoped package is the command without the scope',
      json({ name: '@acme/widget', bin: 'cli.js' }),
      'command',
      ['Widget provides the `widget` command.'],
    ],
    ['a bin name with spaces is no command', json({ name: 'w', bin: { 'my cmd': 'cli.js' } }), 'command', []],
    [
      'well-known engines get their product name',
      json({ name: 'w', engines: { vscode: '^1.80.0' } }),
      'runtime',
      ['Widget requires VS Code `^1.80.0`.'],
    ],
    [
      'a homepage that is not an http URL is not stated',
      json({ name: 'w', homepage: 'acme/widget' }),
      'homepage',
      [],
    ],
    [
      'pyproject: [tool.poetry] is read when there is no [project]',
      { 'pyproject.toml': '[tool.poetry]\nname = "poetic"\nversion = "0.1.0"\n' },
      'package_name',
      ['The package name is `poetic`.'],
    ],
    [
      'pyproject: project.urls prefers Repository over Homepage',
      {
        'pyproject.toml':
          '[project]\nname = "w"\n\n[project.urls]\nHomepage = "https://w.example.com"\nRepository = "https://github.com/acme/w"\n',
      },
      'repository',
      ['The source code is hosted at <https://github.com/acme/w>.'],
    ],
    [
      "pyproject: the table's own repository wins over its urls",
      {
        'pyproject.toml':
          '[tool.poetry]\nname = "w"\nrepository = "https://github.com/acme/w"\n\n[tool.poetry.urls]\nSource = "https://gitlab.com/other/w"\n',
      },
      'repository',
      ['The source code is hosted at <https://github.com/acme/w>.'],
    ],
    [
      'go.mod: a three-part go directive is the runtime',
      { 'go.mod': 'module example.com/w\n\ngo 1.22.1\n' },
      'runtime',
      ['Widget requires Go `>=1.22.1`.'],
    ],
    [
      'go.mod: a gitlab module path names its repository',
      { 'go.mod': 'module gitlab.com/acme/widget\n\ngo 1.22\n' },
      'repository',
      ['The source code is hosted at <https://gitlab.com/acme/widget>.'],
    ],
    [
      'go.mod: a major-version suffix is not part of the repository URL',
      { 'go.mod': 'module github.com/acme/widget/v2\n\ngo 1.22\n' },
      'repository',
      ['The source code is hosted at <https://github.com/acme/widget>.'],
    ],
  ];
  it.each(rows)('%s', async (_rule, files, kind, expected) => {
    expect(textsOf(await manifestClaimsOf(files), kind)).toEqual(expected);
  });

  it('package.json evidence ends on the line of the value (not the next line)', async () => {
    const claims = await manifestClaimsOf(json({ name: 'w' }));
    expect(claims.find((claim) => claim.kind === 'package_name')!.evidence[0]).toMatchObject({
      line_start: 2,
      line_end: 2,
    });
  });

  it('a description ending in a parenthesis gets no extra full stop', async () => {
    const claims = await manifestClaimsOf(json({ name: 'w', description: 'Widgets (for everyone)' }));
    expect(textsOf(claims, 'description')).toEqual(['Widgets (for everyone)']);
  });

  it('the manifest states no install command when the README names one', async () => {
    const claims = await manifestClaimsOf(json({ name: 'w', version: '1.0.0' }), true);
    expect(textsOf(claims, 'install')).toEqual([]);
    expect(textsOf(claims, 'package_name')).toEqual(['The package name is `w`.']);
  });

  it('TOML evidence: the key inside its own table, a multi-line string to its closing quotes', async () => {
    const toml = [
      '[tool.other]',
      'version = "9.9.9"',
      '',
      '[project]',
      'name = "w"',
      'version = "1.2.3"',
      'description = """',
      'Widgets [for] everyone.',
      '"""',
      '',
    ].join('\n');
    const claims = await manifestClaimsOf({ 'pyproject.toml': toml });
    const lines = (kind: string) => {
      const item = claims.find((claim) => claim.kind === kind)!.evidence[0]!;
      return [item.line_start, item.line_end];
    };
    expect(lines('version')).toEqual([6, 6]);
    expect(lines('description')).toEqual([7, 9]);
  });
});

/** readmeClaims over one README (product "Widget Kit", package `widget` unless told). */
function readmeOf(
  text: string,
  packageName: string | null = 'widget',
): { installCommand: string | null; claims: ClaimWithEvidence[] } {
  const { collector, claims } = collectorFor({ 'README.md': text });
  const result = readmeClaims('README.md', text, 'Widget Kit', packageName, collector);
  return { installCommand: result.installCommand, claims: claims() };
}

describe('W2 README rules', () => {
  const claimRows: [string, string, string, string[]][] = [
    ['a two-word H1 is the title', '# Widget Kit\n\nWidget Kit renders widgets.\n', 'title', ['Widget Kit']],
    [
      'a paragraph with under three words outside links is not the summary',
      '# Widget Kit\n\n[Docs](d) · [API](a) · [Chat](c) links\n\nWidget Kit renders widgets.\n',
      'summary',
      ['Widget Kit renders widgets.'],
    ],
    [
      'code spans count as words of the summary paragraph',
      '# Widget Kit\n\nWraps `fetch` `retry`.\n',
      'summary',
      ['Wraps `fetch` `retry`.'],
    ],
    [
      'a list item is never the summary',
      '# Widget Kit\n\n- Alpha beta gamma.\n\nWidget Kit renders widgets.\n',
      'summary',
      ['Widget Kit renders widgets.'],
    ],
    [
      'the summary is the first such paragraph, at most three sentences',
      '# Widget Kit\n\nOne two three. Four five six. Seven eight nine. Ten eleven twelve.\n\nAnother intro paragraph here.\n',
      'summary',
      ['One two three.', 'Four five six.', 'Seven eight nine.'],
    ],
    [
      'summary claims have no topics even under an Overview heading',
      '# Widget Kit\n\n## Overview\n\nWidget Kit renders widgets.\n',
      'summary',
      ['Widget Kit renders widgets.'],
    ],
    [
      'a two-word feature bullet is a claim',
      '# W\n\n## Features\n\n- Fast startup\n',
      'feature',
      ['Fast startup'],
    ],
    [
      'a feature bullet that is a whole link keeps its text',
      '# W\n\n## Features\n\n- [Plugin support](./docs/plugins.md)\n',
      'feature',
      ['Plugin support'],
    ],
    [
      'prose paragraphs of the features section are not feature claims',
      '# W\n\n## Features\n\nIt has many useful features indeed.\n\n- Fast startup\n',
      'feature',
      ['Fast startup'],
    ],
    [
      'a sentence needs three words',
      '# W\n\n## Usage\n\nRuns fast. Call it from any script.\n',
      'usage',
      ['Call it from any script.'],
    ],
    [
      'a bullet without letters is no claim',
      '# W\n\n## Usage\n\n- 123 456\n- Call it twice\n',
      'usage',
      ['Call it twice'],
    ],
    [
      'template tokens make no claim',
      '# W\n\n## Usage\n\nSet `__PRODUCT_NAME__` in the config.\n\nSet the name in the config.\n',
      'usage',
      ['Set the name in the config.'],
    ],
    [
      'a bullet over 400 characters is no claim',
      `# W\n\n## Usage\n\n- ${'word '.repeat(90)}end\n- Call it twice\n`,
      'usage',
      ['Call it twice'],
    ],
    [
      'prose under an unclassified H2 is no summary',
      '# Widget Kit\n\n## Random notes\n\nSome text stands here.\n',
      'summary',
      [],
    ],
  ];
  it.each(claimRows)('%s', (_rule, text, kind, expected) => {
    expect(textsOf(readmeOf(text).claims, kind)).toEqual(expected);
  });

  it('evidence lines count the front matter of the README', () => {
    const { claims } = readmeOf('---\ntitle: W\n---\n# Widget Kit\n\nWidget Kit renders widgets.\n');
    expect(claims.find((claim) => claim.kind === 'summary')!.evidence[0]).toMatchObject({
      line_start: 6,
      line_end: 6,
    });
  });

  const headingRows: [string, string | undefined][] = [
    ['Table of contents', 'skip'],
    ['🚀 Features', 'features'],
    ['Quick start', 'usage'],
    ['Quickstart', 'usage'],
    ['Licence', 'skip'],
    ['FAQ', 'faq'],
  ];
  it.each(headingRows)('the heading %s starts the section %s', (text, section) => {
    expect(classifyHeading(text)).toBe(section);
  });

  it('topics: the outermost classified heading names the section; trailing punctuation is dropped', () => {
    const { claims } = readmeOf('# W\n\n## Usage:\n\n### Options\n\nSets the size of widgets.\n');
    const claim = claims.find((item) => item.text === 'Sets the size of widgets.')!;
    expect(claim.kind).toBe('usage');
    expect(claim.topics).toEqual(['Usage', 'Options']);
  });

  it('summary topics are empty', () => {
    const { claims } = readmeOf('# Widget Kit\n\n## Overview\n\nWidget Kit renders widgets.\n');
    expect(claims.find((claim) => claim.kind === 'summary')!.topics).toEqual([]);
  });

  const installRows: [string, string, string | null, string | null][] = [
    [
      'a versioned package spec is this package',
      '# W\n\n## Install\n\n```sh\nnpm install widget@2\n```\n',
      'widget',
      'npm install widget@2',
    ],
    [
      "the install section's command wins over an earlier one elsewhere",
      '# W\n\n## Usage\n\n```sh\nnpm install widget --save-dev\n```\n\n## Install\n\n```sh\nnpm i widget\n```\n',
      'widget',
      'npm i widget',
    ],
    [
      "without a manifest the install section's command counts",
      '# W\n\n## Install\n\n```sh\nnpm install widget\n```\n',
      null,
      'npm install widget',
    ],
    [
      'a trailing shell comment is not part of the command',
      '# W\n\n## Install\n\n```sh\nnpm install widget   # latest release\n```\n',
      'widget',
      'npm install widget',
    ],
    [
      'CRLF line ends change nothing',
      '# W\r\n\r\n## Install\r\n\r\n```sh\r\nnpm install widget # latest\r\n```\r\n',
      'widget',
      'npm install widget',
    ],
    [
      'a # inside a word is no comment: the spec names another package',
      '# W\n\n## Install\n\n```sh\nnpm install widget#main\n```\n',
      'widget',
      null,
    ],
    [
      'a line that is only a comment after the manager names no package',
      '# W\n\n## Install\n\n```sh\nnpm install # widget\n```\n',
      null,
      null,
    ],
    [
      'without a manifest a command outside the install section does not count',
      '# W\n\n## Usage\n\n```sh\nnpm install other-thing\n```\n',
      null,
      null,
    ],
  ];
  it.each(installRows)('%s', (_rule, text, packageName, expected) => {
    expect(readmeOf(text, packageName).installCommand).toBe(expected);
  });

  it('a shell comment never becomes part of the install command', () => {
    const { installCommand, claims } = readmeOf(
      '# W\n\n## Install\n\n```sh\nnpm install widget # latest\n```\n',
    );
    expect(installCommand ?? '').not.toContain('#');
    expect(claims.some((claim) => claim.text.includes('latest'))).toBe(false);
  });
});

describe('W2 CHANGELOG rules', () => {
  const changes = (text: string) => {
    const { collector, claims } = collectorFor({ 'CHANGELOG.md': text });
    changelogClaims('CHANGELOG.md', text, collector);
    return claims().map((claim) => [claim.kind, claim.text]);
  };
  const rows: [string, string, string[][]][] = [
    [
      'a level-3 heading is a release',
      '# Changelog\n\n### 2.0.0\n\n- Adds the thing\n',
      [
        ['release', 'The latest changelog entry is version 2.0.0.'],
        ['change', 'Adds the thing'],
      ],
    ],
    [
      'an unreleased heading is skipped even with a version',
      '# Changelog\n\n## 2.1.0 (unreleased)\n\n- Not yet out\n\n## 2.0.0\n\n- Adds the thing\n',
      [
        ['release', 'The latest changelog entry is version 2.0.0.'],
        ['change', 'Adds the thing'],
      ],
    ],
    [
      'a two-part version is a version',
      '# Changelog\n\n## v2.1 - 2025-01-01\n\n- Adds the thing\n',
      [
        ['release', 'The latest changelog entry is version 2.1.'],
        ['change', 'Adds the thing'],
      ],
    ],
    [
      'only list items are changes, not prose under the release',
      '# Changelog\n\n## 2.0.0\n\nThis release is a big one.\n\n- Adds the thing\n',
      [
        ['release', 'The latest changelog entry is version 2.0.0.'],
        ['change', 'Adds the thing'],
      ],
    ],
  ];
  it.each(rows)('%s', (_rule, text, expected) => {
    expect(changes(text)).toEqual(expected);
  });
});

describe('W2 claim collector', () => {
  const lines = ['one', 'two', 'three'];
  const make = () => new ClaimCollector((path) => (path === 'missing' ? undefined : lines));

  it('evidence beyond the end of the file is clamped to its last line; line 0 is refused', () => {
    const collector = make();
    const id = collector.add({ kind: 'usage', text: 'A b c.', path: 'a', lineStart: 2, lineEnd: 9 })!;
    expect(collector.evidenceOf(id)[0]).toMatchObject({ line_start: 2, line_end: 3 });
    expect(collector.evidenceOf(id)[0]!.sha256).toBe(sha256Hex('two\nthree'));
    expect(
      collector.add({ kind: 'usage', text: 'D e f.', path: 'a', lineStart: 0, lineEnd: 1 }),
    ).toBeUndefined();
    expect(
      collector.add({ kind: 'usage', text: 'D e f.', path: 'missing', lineStart: 1, lineEnd: 1 }),
    ).toBeUndefined();
  });

  it('the same place twice is one evidence entry; entries sort by path then line; style defaults to sentence', () => {
    const collector = make();
    const add = (path: string, line: number) =>
      collector.add({ kind: 'usage', text: 'A b c.', path, lineStart: line, lineEnd: line })!;
    const id = add('b', 3);
    add('b', 1);
    add('a', 2);
    add('b', 1);
    expect(collector.evidenceOf(id).map((item) => [item.path, item.line_start])).toEqual([
      ['a', 2],
      ['b', 1],
      ['b', 3],
    ]);
    expect(collector.list()[0]!.style).toBe('sentence');
  });
});

describe('W2 on a whole repository', () => {
  it("the manifest's license wins over LICENSE.txt (both cited); the README's install command replaces the manifest's", async () => {
    const facts = await extractFactsFromFiles('rules-w2', {
      'package.json': JSON.stringify({ name: 'widget', version: '1.0.0', license: 'Apache-2.0' }, null, 2),
      'LICENSE.txt': 'MIT License\n\nPermission is hereby granted, free of charge, to any person\n',
      'README.md': '# Widget Kit\n\nWidget Kit renders widgets.\n\n## Install\n\n```sh\nnpm i widget\n```\n',
    });
    expect(facts.product.license).toBe('Apache-2.0');
    expect(
      facts.claims
        .filter((claim) => claim.kind === 'license')
        .map((claim) => [claim.text, claim.source.path]),
    ).toEqual([
      ['Widget Kit is released under the Apache-2.0 license.', 'package.json'],
      ['Widget Kit is released under the MIT license.', 'LICENSE.txt'],
    ]);
    expect(facts.product.install_command).toBe('npm i widget');
    expect(facts.claims.filter((claim) => claim.kind === 'install').map((claim) => claim.text)).toEqual([
      'Install Widget Kit with `npm i widget`.',
    ]);
  });
});

describe('W2 source file reads', () => {
  const files = {
    'exact.md': '0123456789',
    'over.md': '0123456789A',
    'binary.md': 'a\0b',
    'Examples/run.js': 'run()',
  };
  async function withSmallSource<T>(use: (source: SourceFiles) => Promise<T>): Promise<T> {
    return withSource(files, (source) => use(new SourceFiles(source.root, source.files, 10)));
  }

  it('a file of exactly the byte limit is read; a bigger one is skipped and listed', async () => {
    await withSmallSource(async (source) => {
      expect(await source.read('exact.md')).toBe('0123456789');
      expect(await source.read('over.md')).toBeUndefined();
      expect(source.skipped().map((file) => file.path)).toEqual(['over.md']);
    });
  });

  it('a file with a NUL byte reads as absent and is not listed as skipped', async () => {
    await withSmallSource(async (source) => {
      expect(await source.read('binary.md')).toBeUndefined();
      expect(source.skipped()).toEqual([]);
      expect(skippedFilesField(source)).toEqual({});
    });
  });

  it('folders match case-insensitively', async () => {
    await withSmallSource(async (source) => {
      expect(source.under(['examples'])).toEqual(['Examples/run.js']);
    });
  });

  it('a tracked symlink is never followed', async () => {
    const dir = await tempDir('rules-symlink');
    try {
      await writeFile(join(dir.path, 'outside.md'), 'secret words here');
      await mkdir(join(dir.path, 'clone'));
      await symlink(join(dir.path, 'outside.md'), join(dir.path, 'clone', 'README.md'));
      const source = new SourceFiles(
        join(dir.path, 'clone'),
        [{ path: 'README.md', size: 10, sha256: sha256Hex('x') }],
        DEFAULT_MAX_FILE_BYTES,
      );
      expect(await source.read('README.md')).toBeUndefined();
    } finally {
      await dir.cleanup();
    }
  });
});

describe('W2 LICENSE and repository URL rules', () => {
  const licenseRows: [string, string, string, number][] = [
    [
      'MIT cites its title line',
      'MIT License\n\nCopyright (c) 2025 A\n\nPermission is hereby granted, free of charge, to any person',
      'MIT',
      1,
    ],
    [
      'BSD with the "Neither the name" clause is BSD-3-Clause',
      'Copyright (c) 2025 A\n\nRedistribution and use in source and binary forms, with or without\n3. Neither the name of the copyright holder',
      'BSD-3-Clause',
      3,
    ],
    [
      'Apache 2.0',
      '\n                                 Apache License\n                           Version 2.0, January 2004',
      'Apache-2.0',
      2,
    ],
    [
      'LGPL 3 is not GPL 3',
      'GNU LESSER GENERAL PUBLIC LICENSE\nVersion 3, 29 June 2007\n\nincorporates the terms of version 3 of the GNU General Public License',
      'LGPL-3.0',
      1,
    ],
    ['AGPL', 'GNU AFFERO GENERAL PUBLIC LICENSE\nVersion 3, 19 November 2007', 'AGPL-3.0', 1],
    [
      'ISC wording',
      'Copyright 2025 A\n\nPermission to use, copy, modify, and/or distribute this software for any',
      'ISC',
      3,
    ],
    [
      'the Unlicense',
      'This is free and unencumbered software released into the public domain.',
      'Unlicense',
      1,
    ],
  ];
  it.each(licenseRows)('%s', (_rule, text, spdx, line) => {
    expect(detectLicense(text.split('\n'))).toEqual({ spdx, line });
  });

  const urlRows: [string, string | null][] = [
    ['gitlab:acme/w', 'https://gitlab.com/acme/w'],
    ['acme/w', 'https://github.com/acme/w'],
    ['git@github.com:acme/w.git', 'https://github.com/acme/w'],
    ['git+https://github.com/acme/w.git', 'https://github.com/acme/w'],
    ['git://github.com/acme/w.git', 'https://github.com/acme/w'],
    ['ssh://git@github.com/acme/w', 'https://github.com/acme/w'],
    ['http://github.com/acme/w/', 'https://github.com/acme/w'],
    ['https://user:secret@github.com/acme/w', null],
  ];
  it.each(urlRows)('repository %s -> %s', (value, expected) => {
    expect(normalizeRepositoryUrl(value)).toBe(expected);
  });
});

describe('Markdown helpers', () => {
  it('block lines: a paragraph ends on its own last line; a fence spans only its content lines', () => {
    const { blocks } = parseMarkdown('# T\n\nOne\ntwo\n\n```sh\nrun\n```\n', 3);
    expect(blocks.map((block) => [block.type, block.startLine, block.endLine])).toEqual([
      ['heading', 3, 3],
      ['paragraph', 5, 6],
      ['fence', 8, 10],
    ]);
    expect([blocks[2]!.contentStart, blocks[2]!.contentEnd]).toEqual([9, 9]);
  });

  it('tables, HTML blocks and blockquotes are told apart from prose and lists', () => {
    const { blocks } = parseMarkdown(
      '| a | b |\n| --- | --- |\n| 1 | 2 |\n\n<div>x</div>\n\n> Quoted words here.\n',
    );
    expect(blocks.map((block) => [block.type, block.container])).toEqual([
      ['table', 'root'],
      ['html', 'root'],
      ['paragraph', 'blockquote'],
    ]);
  });

  it('link lines count soft breaks', () => {
    expect(parseMarkdown('Intro text\nsee [a](https://a.example)\n').links).toEqual([
      { href: 'https://a.example', line: 2, image: false },
    ]);
  });

  it('inline content: a badge (image in a link) is dropped, an image in prose keeps its alt text, a hard break is a space', () => {
    const plain = (text: string) => parseMarkdown(text).blocks[0]!.text;
    expect(plain('Build [![CI status](b.svg)](ci) passes')).toBe('Build passes');
    expect(plain('See the ![flow diagram](d.png) here')).toBe('See the flow diagram here');
    expect(plain('See the ![ ](d.png) here')).toBe('See the here');
    expect(parseMarkdown('One\\\ntwo').blocks[0]!.segments).toEqual([{ kind: 'text', value: 'One two' }]);
  });

  const markdownRows: [string, string, string][] = [
    ['a code span starting with a backtick is padded', codeSpan('`x'), '`` `x ``'],
    ['< is escaped', escapeMarkdownText('a <b> c'), 'a \\<b> c'],
    [
      '_ inside a word is kept, at a word edge escaped',
      escapeMarkdownText('snake_case _x_'),
      'snake_case \\_x\\_',
    ],
    ['~~ is escaped, a single ~ kept', escapeMarkdownText('~1 ~~no~~'), '~1 \\~\\~no\\~\\~'],
    [
      'a leading - is escaped',
      segmentsToMarkdown([{ kind: 'text', value: '- not a list' }]),
      '\\- not a list',
    ],
    [
      'a leading number with . is escaped',
      segmentsToMarkdown([{ kind: 'text', value: '1. not a list' }]),
      '1\\. not a list',
    ],
    [
      'a heading keeps its leading #',
      segmentsToMarkdown([{ kind: 'text', value: '#1 pick' }], { heading: true }),
      '#1 pick',
    ],
  ];
  it.each(markdownRows)('%s', (_rule, actual, expected) => {
    expect(actual).toBe(expected);
  });

  const sentences = (segments: InlineSegment[]) =>
    splitSentences(segments).map((parts) => parts.map((part) => `${part.kind}:${part.value}`).join('|'));
  it('sentences: abbreviations and long tails, whitespace collapsed, no empty segments', () => {
    expect(sentences([{ kind: 'text', value: 'It costs approx. Ten dollars. Then stops.' }])).toEqual([
      'text:It costs approx. Ten dollars.',
      'text:Then stops.',
    ]);
    expect(sentences([{ kind: 'text', value: 'Ask Dr. Who for help. Then stop.' }])).toEqual([
      'text:Ask Dr. Who for help.',
      'text:Then stop.',
    ]);
    expect(
      sentences([
        { kind: 'code', value: 'a' },
        { kind: 'text', value: ' runs\n\n   fast.' },
      ]),
    ).toEqual(['code:a|text: runs fast.']);
    expect(splitSentences([{ kind: 'text', value: '   ' }])).toEqual([]);
  });

  it('heading slugs: duplicates get -1, -2; underscores and hyphens stay; each space is a hyphen', () => {
    expect(uniqueSlugs(['Usage', 'Usage', 'Usage', 'snake_case', 'a-b', 'A  B'])).toEqual([
      'usage',
      'usage-1',
      'usage-2',
      'snake_case',
      'a-b',
      'a--b',
    ]);
  });

  const frontMatterRows: [string, string, Partial<ReturnType<typeof splitFrontMatter>>][] = [
    ['... closes YAML front matter', '---\ntitle: A\n...\nBody', { data: { title: 'A' }, bodyStartLine: 4 }],
    [
      'fences may carry trailing spaces',
      '---  \ntitle: A\n---  \nBody',
      { data: { title: 'A' }, body: 'Body' },
    ],
    ['empty front matter is an empty mapping', '---\n---\nBody', { present: true, data: {}, error: null }],
    ['a list is not a mapping', '---\n- a\n---\n', { data: null, error: 'front matter must be a mapping' }],
    [
      'TOML front matter is refused',
      '+++\ntitle = "A"\n+++\n',
      { data: null, error: 'front matter must be YAML (--- fenced)' },
    ],
  ];
  it.each(frontMatterRows)('%s', (_rule, text, expected) => {
    expect(splitFrontMatter(text)).toMatchObject(expected);
  });

  it('duplicate front matter keys are an error', () => {
    expect(parseYamlMapping('title: A\ntitle: B').data).toBeNull();
  });
});

describe('site paths', () => {
  const unsafe = [
    ...['a\\b.md', 'C:/x.md', 'content/../x.md', 'content/.git/config', '.', 'content/..'],
    ...['./', 'content/', 'content/./docs/'],
  ];
  it.each(unsafe)('%s is unsafe', (path) => {
    expect(() => normalizeSitePath(path)).toThrow(UnsafeSitePathError);
  });

  it('allowed_paths globs do not match dot files; an unsafe path is refused, not skipped', () => {
    const allowed = allowedPathsMatcher(['content/**']);
    expect(allowed('content/a.md')).toBe(true);
    expect(allowed('content/.hidden.md')).toBe(false);
    expect(() => assertAllowed(['content/a.md'], ['content/**'])).not.toThrow();
    expect(() => assertAllowed(['content/../x.md'], ['**'])).toThrow(/allowed/i);
    expect(() => assertAllowed(['static/x.md'], ['content/**'])).toThrow(/allowed/i);
  });

  it('a symlinked file or a parent symlink leaving the site is unsafe', async () => {
    const dir = await tempDir('rules-site');
    try {
      const site = join(dir.path, 'site');
      await mkdir(join(site, 'content'), { recursive: true });
      await writeFile(join(dir.path, 'outside.md'), 'x');
      await symlink(join(dir.path, 'outside.md'), join(site, 'content', 'link.md'));
      await symlink(dir.path, join(site, 'escape'));
      await expect(resolveInSite(site, 'content/link.md')).rejects.toThrow(UnsafeSitePathError);
      await expect(resolveInSite(site, 'escape/new.md')).rejects.toThrow(UnsafeSitePathError);
      await expect(resolveInSite(site, 'content/new/page.md')).resolves.toBe(
        join(await realpath(site), 'content', 'new', 'page.md'),
      );
    } finally {
      await dir.cleanup();
    }
  });

  it("a parent symlink into the site's own .git is unsafe: nothing is read or written there", async () => {
    const dir = await tempDir('rules-site-git');
    try {
      const site = join(dir.path, 'site');
      await mkdir(join(site, '.git', 'hooks'), { recursive: true });
      await writeFile(join(site, '.git', 'config'), '[core]\n');
      await mkdir(join(site, 'content'), { recursive: true });
      await symlink('../.git', join(site, 'content', 'docs'));
      await symlink('../.git/hooks', join(site, 'content', 'hooks'));
      await symlink('../.git/not-there', join(site, 'content', 'nowhere'));
      await expect(readSiteFile(site, 'content/docs/config')).rejects.toThrow(/into the site's \.git/);
      await expect(writeSiteFile(site, 'content/hooks/page.md', 'x')).rejects.toThrow(UnsafeSitePathError);
      await expect(writeSiteFile(site, 'content/docs/new/page.md', 'x')).rejects.toThrow(UnsafeSitePathError);
      await expect(writeSiteFile(site, 'content/nowhere/page.md', 'x')).rejects.toThrow(/to nothing/);
      expect(await readdir(join(site, '.git', 'hooks'))).toEqual([]);
      expect((await readdir(join(site, '.git'))).sort()).toEqual(['config', 'hooks']);
    } finally {
      await dir.cleanup();
    }
  });
});
