import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { escapeRegExp } from '../../escape-regexp.js';
import { codeSpan, escapeMarkdownText } from '../markdown/inline.js';
import type { ClaimCollector } from './claim-collector.js';
import { normalizeRepositoryUrl } from './repository-url.js';
import type { SourceFiles } from './source-files.js';
import { asSentence, lineOfOffset } from './text-lines.js';

type Ecosystem = 'npm' | 'pypi' | 'cargo' | 'go';

interface Located<T> {
  value: T;
  lines: [number, number];
}

/** What a manifest says about the product, each value with the lines it stands on. */
export interface ManifestFacts {
  path: string;
  ecosystem: Ecosystem;
  name: Located<string> | null;
  version: Located<string> | null;
  license: Located<string> | null;
  description: Located<string> | null;
  repository: Located<string> | null;
  homepage: Located<string> | null;
  runtimes: Located<{ runtime: string; range: string }>[];
  commands: Located<string>[];
  /** package.json `private: true`: not published, so no registry install command is derived. */
  unpublished: boolean;
}

const RUNTIME_NAMES: Record<string, string> = {
  node: 'Node.js',
  npm: 'npm',
  pnpm: 'pnpm',
  yarn: 'Yarn',
  bun: 'Bun',
  deno: 'Deno',
  vscode: 'VS Code',
};

export const MANIFEST_FILES = ['package.json', 'pyproject.toml', 'Cargo.toml', 'go.mod'] as const;

export async function readManifest(files: SourceFiles): Promise<ManifestFacts | undefined> {
  for (const name of MANIFEST_FILES) {
    const text = await files.read(name);
    if (text === undefined) continue;
    const facts =
      name === 'package.json'
        ? packageJson(text)
        : name === 'go.mod'
          ? goMod(text)
          : tomlManifest(text, name === 'Cargo.toml' ? 'cargo' : 'pypi');
    if (facts !== undefined) return facts;
  }
  return undefined;
}

function empty(path: string, ecosystem: Ecosystem): ManifestFacts {
  return {
    path,
    ecosystem,
    name: null,
    version: null,
    license: null,
    description: null,
    repository: null,
    homepage: null,
    runtimes: [],
    commands: [],
    unpublished: false,
  };
}

function packageJson(text: string): ManifestFacts | undefined {
  const root = parseTree(text);
  if (root === undefined || root.type !== 'object') return undefined;
  const facts = empty('package.json', 'npm');
  const span = (node: JsonNode): [number, number] => [
    lineOfOffset(text, node.parent?.type === 'property' ? node.parent.offset : node.offset),
    lineOfOffset(text, node.offset + node.length),
  ];
  const stringAt = (path: (string | number)[]): Located<string> | null => {
    const node = findNodeAtLocation(root, path);
    return node?.type === 'string' && typeof node.value === 'string' && node.value.trim() !== ''
      ? { value: node.value.trim(), lines: span(node) }
      : null;
  };
  facts.name = stringAt(['name']);
  facts.version = stringAt(['version']);
  facts.license = stringAt(['license']) ?? stringAt(['license', 'type']);
  facts.description = stringAt(['description']);
  facts.homepage = stringAt(['homepage']);
  const repository = stringAt(['repository']) ?? stringAt(['repository', 'url']);
  if (repository !== null) facts.repository = repository;
  facts.unpublished = findNodeAtLocation(root, ['private'])?.value === true;

  const engines = findNodeAtLocation(root, ['engines']);
  for (const property of engines?.type === 'object' ? (engines.children ?? []) : []) {
    const [key, value] = property.children ?? [];
    if (typeof key?.value === 'string' && value?.type === 'string' && typeof value.value === 'string') {
      facts.runtimes.push({
        value: { runtime: RUNTIME_NAMES[key.value] ?? key.value, range: value.value },
        lines: span(value),
      });
    }
  }
  const bin = findNodeAtLocation(root, ['bin']);
  if (bin?.type === 'string' && facts.name !== null) {
    facts.commands.push({ value: facts.name.value.replace(/^@[^/]+\//, ''), lines: span(bin) });
  } else if (bin?.type === 'object') {
    for (const property of bin.children ?? []) {
      const key = property.children?.[0];
      if (typeof key?.value === 'string') facts.commands.push({ value: key.value, lines: span(key) });
    }
  }
  return facts;
}

/** Lines of `key` inside `[table]` of a TOML file (multi-line arrays and inline tables included). */
function tomlKeyLines(lines: readonly string[], table: string, key: string): [number, number] | null {
  let current = '';
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const header = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(line);
    if (header !== null) {
      current = header[1]!.trim();
      continue;
    }
    const assignment = new RegExp(`^\\s*"?${escapeRegExp(key)}"?\\s*=`).exec(line);
    if (current === table && assignment !== null) {
      let end = index;
      let depth = 0;
      let triple = false;
      for (let probe = index; probe < lines.length; probe += 1) {
        const text = probe === index ? line.slice(assignment[0].length) : lines[probe]!;
        for (const match of text.matchAll(/"""|'''|[[{]|[\]}]/g)) {
          if (match[0] === '"""' || match[0] === "'''") triple = !triple;
          else if (!triple) depth += match[0] === '[' || match[0] === '{' ? 1 : -1;
        }
        end = probe;
        if (depth <= 0 && !triple) break;
      }
      return [index + 1, end + 1];
    }
  }
  return null;
}

function tomlManifest(text: string, ecosystem: 'cargo' | 'pypi'): ManifestFacts | undefined {
  let data: Record<string, unknown>;
  try {
    data = parseToml(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const path = ecosystem === 'cargo' ? 'Cargo.toml' : 'pyproject.toml';
  const tables =
    ecosystem === 'cargo'
      ? [['package', data.package]]
      : [
          ['project', data.project],
          ['tool.poetry', (data.tool as Record<string, unknown> | undefined)?.poetry],
        ];
  const found = tables.find(([, value]) => value !== null && typeof value === 'object');
  if (found === undefined) return undefined;
  const [tableName, table] = found as [string, Record<string, unknown>];
  const facts = empty(path, ecosystem);
  const located = (key: string, value: unknown, inTable = tableName): Located<string> | null => {
    if (typeof value !== 'string' || value.trim() === '') return null;
    const at = tomlKeyLines(lines, inTable, key);
    return at === null ? null : { value: value.trim(), lines: at };
  };
  facts.name = located('name', table.name);
  facts.version = located('version', table.version);
  facts.description = located('description', table.description);
  const license = table.license;
  facts.license =
    typeof license === 'string'
      ? located('license', license)
      : license !== null &&
          typeof license === 'object' &&
          typeof (license as { text?: unknown }).text === 'string'
        ? located('license', (license as { text: string }).text)
        : null;
  facts.repository = located('repository', table.repository);
  facts.homepage = located('homepage', table.homepage);
  const urls = table.urls as Record<string, unknown> | undefined;
  if (facts.repository === null && urls !== undefined) {
    for (const key of ['Repository', 'repository', 'Source', 'source', 'Homepage', 'homepage']) {
      const value = located(key, urls[key], `${tableName}.urls`);
      if (value !== null) {
        facts.repository = value;
        break;
      }
    }
  }
  const runtime =
    ecosystem === 'cargo'
      ? located('rust-version', table['rust-version'])
      : located('requires-python', table['requires-python']);
  if (runtime !== null) {
    facts.runtimes.push({
      value: { runtime: ecosystem === 'cargo' ? 'Rust' : 'Python', range: runtime.value },
      lines: runtime.lines,
    });
  }
  return facts;
}

function goMod(text: string): ManifestFacts | undefined {
  const lines = text.split('\n');
  const facts = empty('go.mod', 'go');
  lines.forEach((line, index) => {
    const module = /^\s*module\s+(\S+)/.exec(line);
    if (module !== null && facts.name === null)
      facts.name = { value: module[1]!, lines: [index + 1, index + 1] };
    const go = /^\s*go\s+(\d+\.\d+(?:\.\d+)?)\s*$/.exec(line);
    if (go !== null && facts.runtimes.length === 0) {
      facts.runtimes.push({ value: { runtime: 'Go', range: `>=${go[1]!}` }, lines: [index + 1, index + 1] });
    }
  });
  if (facts.name === null) return undefined;
  if (/^(github\.com|gitlab\.com|bitbucket\.org)\/[\w.-]+\/[\w.-]+/.test(facts.name.value)) {
    facts.repository = {
      value: `https://${facts.name.value.split('/').slice(0, 3).join('/')}`,
      lines: facts.name.lines,
    };
  }
  return facts;
}

export function installCommandFor(manifest: ManifestFacts): string | null {
  if (manifest.name === null || manifest.unpublished) return null;
  const name = manifest.name.value;
  switch (manifest.ecosystem) {
    case 'npm':
      return `npm install ${name}`;
    case 'pypi':
      return `pip install ${name}`;
    case 'cargo':
      return `cargo add ${name}`;
    case 'go':
      return `go get ${name}`;
  }
}

/** npm's license values that name no license: `UNLICENSED` (none granted), `SEE LICENSE IN <file>`. */
const NOT_A_LICENSE = /^\s*(?:UNLICENSED|SEE LICENSE IN\b.*)$/i;

/** A value to state as the license: plain text (no Markdown syntax) that names one. */
function isLicenseName(value: string): boolean {
  return /^[\w.+\-() ]+$/.test(value) && !NOT_A_LICENSE.test(value);
}

/** Normalised license text for a claim: an SPDX expression without wrapping parentheses. */
function licenseName(value: string): string {
  return value.replace(/^\((.*)\)$/, '$1').trim();
}

export interface ManifestClaimIds {
  repositoryUrl: string | null;
  license: string | null;
}

/** The manifest's claims, worded as sentences about the product (product name from the run_config). */
export function manifestClaims(
  manifest: ManifestFacts,
  product: string,
  collector: ClaimCollector,
  options: { installFromReadme: boolean },
): ManifestClaimIds {
  const add = (
    kind: Parameters<ClaimCollector['add']>[0]['kind'],
    text: string,
    lines: [number, number],
  ): void => {
    collector.add({ kind, text, path: manifest.path, lineStart: lines[0], lineEnd: lines[1] });
  };
  const name = escapeMarkdownText(product);
  if (manifest.name !== null)
    add('package_name', `The package name is ${codeSpan(manifest.name.value)}.`, manifest.name.lines);
  if (manifest.version !== null && /^[\w.+-]+$/.test(manifest.version.value)) {
    add('version', `The current version is ${manifest.version.value}.`, manifest.version.lines);
  }
  let license: string | null = null;
  const stated = manifest.license;
  if (stated !== null && isLicenseName(stated.value)) {
    license = licenseName(stated.value);
    add('license', `${name} is released under the ${license} license.`, stated.lines);
  }
  if (manifest.description !== null) {
    add(
      'description',
      asSentence(escapeMarkdownText(manifest.description.value.replace(/\s+/g, ' '))),
      manifest.description.lines,
    );
  }
  const install = installCommandFor(manifest);
  if (install !== null && !options.installFromReadme && manifest.name !== null) {
    add('install', `Install ${name} with ${codeSpan(install)}.`, manifest.name.lines);
  }
  for (const runtime of manifest.runtimes) {
    add(
      'runtime',
      `${name} requires ${runtime.value.runtime} ${codeSpan(runtime.value.range)}.`,
      runtime.lines,
    );
  }
  let repositoryUrl: string | null = null;
  if (manifest.repository !== null) {
    repositoryUrl = normalizeRepositoryUrl(manifest.repository.value);
    if (repositoryUrl !== null)
      add('repository', `The source code is hosted at <${repositoryUrl}>.`, manifest.repository.lines);
  }
  if (manifest.homepage !== null) {
    const homepage = normalizeRepositoryUrl(
      manifest.homepage.value.startsWith('http') ? manifest.homepage.value : '',
    );
    if (homepage !== null) add('homepage', `The project website is <${homepage}>.`, manifest.homepage.lines);
  }
  for (const command of manifest.commands) {
    if (/^[\w.@/-]+$/.test(command.value))
      add('command', `${name} provides the ${codeSpan(command.value)} command.`, command.lines);
  }
  return { repositoryUrl, license };
}
