import { parse as parseYaml } from 'yaml';
import { writeJsonArtifact } from './artifact-io.js';
import type { Snippet, SnippetCatalog } from './artifact-schemas.js';
import { compareCodePoints } from '../canonical-json.js';
import { throwIfCancelled } from './errors.js';
import { README_PATTERNS } from './facts/readme.js';
import { walkReadme } from './facts/readme-walk.js';
import { clonedSource, skippedFilesField } from './facts/source-files.js';
import { linesSha256, snippetId } from './hashing.js';
import { parseMarkdown } from './markdown/document.js';
import type { ResolvedPipelineOptions } from './options.js';
import type { WorkerContext } from './types.js';
import { readWorkerArtifact } from './worker-artifacts.js';

const EXAMPLE_FOLDERS = ['example', 'examples', 'docs'];
const CODE_FOLDERS = ['example', 'examples'];
const MAX_FILE_SNIPPET_BYTES = 16 * 1024;
const MAX_FILE_SNIPPET_LINES = 200;
const MAX_FILE_SNIPPETS = 40;

const EXTENSION_LANGUAGES: Record<string, string> = {
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  jsx: 'jsx',
  ts: 'ts',
  mts: 'ts',
  cts: 'ts',
  tsx: 'tsx',
  py: 'python',
  rs: 'rust',
  go: 'go',
  sh: 'sh',
  bash: 'bash',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  rb: 'ruby',
  java: 'java',
  kt: 'kotlin',
  swift: 'swift',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cs: 'csharp',
  php: 'php',
  html: 'html',
  css: 'css',
  sql: 'sql',
  graphql: 'graphql',
};

/** A fence's language: the first word of its info string, without attributes such as `{1,3}`. */
export function fenceLanguage(info: string): string {
  return (info.split(/\s|\{/)[0] ?? '').toLowerCase().replace(/[^a-z0-9#+._-]/g, '');
}

const SHELL_START =
  /^\s*(\$ |npm |npx |pnpm |yarn |bun |git |cd |curl |wget |pip3? |cargo |go |brew |docker |make |node |python3? |deno )/;

/** Guesses a language for a fence without one; `text` (unknown) when nothing fits. */
export function inferLanguage(content: string): { language: string; source: 'inferred' | 'unknown' } {
  const trimmed = content.trim();
  const lines = trimmed.split('\n').filter((line) => line.trim() !== '');
  if (lines.length > 0 && lines.every((line) => SHELL_START.test(line) || line.trim().startsWith('#'))) {
    return { language: 'sh', source: 'inferred' };
  }
  if (/^[[{]/.test(trimmed)) {
    try {
      JSON.parse(trimmed);
      return { language: 'json', source: 'inferred' };
    } catch {
      // not JSON
    }
  }
  if (lines.length > 0 && lines.every((line) => /^\s*(- |[\w"'.-]+:(\s|$)|#)/.test(line))) {
    try {
      const value: unknown = parseYaml(trimmed);
      if (value !== null && typeof value === 'object') return { language: 'yaml', source: 'inferred' };
    } catch {
      // not YAML
    }
  }
  // Lines only Python, Rust or Go can hold come before JS's keywords, which those languages share
  // (`import`, `class`, `let`, `var`, Rust's match arms `=>`).
  if (/^\s*(def |from [\w.]+ import |import [\w.]+\s*$)/m.test(trimmed))
    return { language: 'python', source: 'inferred' };
  if (/^\s*(fn |use [\w:]+;|let mut )/m.test(trimmed)) return { language: 'rust', source: 'inferred' };
  if (/^\s*(package \w+|func )/m.test(trimmed)) return { language: 'go', source: 'inferred' };
  if (
    /^\s*(import|export|const|let|var|function|class|async|await)\b/m.test(trimmed) ||
    trimmed.includes('=>')
  ) {
    return { language: 'js', source: 'inferred' };
  }
  if (/^\s*</.test(trimmed)) return { language: 'html', source: 'inferred' };
  return { language: 'text', source: 'unknown' };
}

class SnippetCollector {
  private readonly byId = new Map<string, Snippet>();

  add(
    input: Omit<Snippet, 'snippet_id' | 'provenance'> & {
      path: string;
      lines: readonly string[];
      start: number;
      end: number;
    },
  ): void {
    if (input.content.trim() === '' || input.end < input.start) return;
    const id = snippetId(input.content);
    const provenance = {
      path: input.path,
      line_start: input.start,
      line_end: input.end,
      sha256: linesSha256(input.lines, input.start, input.end),
    };
    const existing = this.byId.get(id);
    if (existing !== undefined) {
      existing.provenance.push(provenance);
      return;
    }
    this.byId.set(id, {
      snippet_id: id,
      language: input.language,
      language_source: input.language_source,
      content: input.content,
      topics: [...input.topics],
      section: input.section,
      provenance: [provenance],
    });
  }

  list(): Snippet[] {
    const byPosition = (snippet: Snippet): [string, number] => [
      snippet.provenance[0]!.path,
      snippet.provenance[0]!.line_start,
    ];
    return [...this.byId.values()].sort((a, b) => {
      const [pathA, lineA] = byPosition(a);
      const [pathB, lineB] = byPosition(b);
      return compareCodePoints(pathA, pathB) || lineA - lineB;
    });
  }
}

function markdownFences(path: string, text: string, collector: SnippetCollector, readme: boolean): void {
  const lines = text.split('\n');
  const walked = walkReadme(parseMarkdown(text).blocks);
  for (const { block, context } of walked) {
    if (block.type !== 'fence' || (readme && context.section === 'skip')) continue;
    const declared = fenceLanguage(block.info);
    const language =
      declared !== '' ? { language: declared, source: 'fence' as const } : inferLanguage(block.content);
    collector.add({
      language: language.language,
      language_source: language.source,
      content: block.content,
      topics: context.topics,
      section: readme ? context.section : path.split('/')[0]!.toLowerCase(),
      path,
      lines,
      start: block.contentStart,
      end: block.contentEnd,
    });
  }
}

/**
 * W3: code snippets from the README and from example/examples/docs (fences in Markdown files, whole small
 * code files under example(s)/), each with its language (declared, inferred or marked unknown) and
 * provenance (path, lines, sha256). Snippet id = content hash. Writes snippet_catalog.json (with the files
 * left out for their size).
 */
export async function catalogSnippets(ctx: WorkerContext, options: ResolvedPipelineOptions): Promise<void> {
  const inventory = await readWorkerArtifact(ctx.artifacts, 'repo_inventory.json');
  const files = clonedSource(ctx.runDir, inventory, options.maxFileBytes);
  const collector = new SnippetCollector();

  const readmePath = files.findRootFile(README_PATTERNS);
  if (readmePath !== undefined) {
    const text = await files.read(readmePath);
    if (text !== undefined) markdownFences(readmePath, text, collector, true);
  }
  let codeFiles = 0;
  for (const path of files.under(EXAMPLE_FOLDERS)) {
    throwIfCancelled(ctx.signal);
    const extension = path.includes('.') ? path.slice(path.lastIndexOf('.') + 1).toLowerCase() : '';
    if (extension === 'md' || extension === 'markdown') {
      const text = await files.read(path);
      if (text !== undefined) markdownFences(path, text, collector, false);
      continue;
    }
    const language = EXTENSION_LANGUAGES[extension];
    if (language === undefined || codeFiles >= MAX_FILE_SNIPPETS) continue;
    if (!CODE_FOLDERS.includes(path.split('/')[0]!.toLowerCase())) continue;
    const size = files.size(path);
    if (size === undefined || size > MAX_FILE_SNIPPET_BYTES) continue;
    const text = await files.read(path);
    if (text === undefined) continue;
    const lines = text.split('\n');
    const content = text.replace(/\n+$/, '');
    const lineCount = content.split('\n').length;
    if (lineCount > MAX_FILE_SNIPPET_LINES) continue;
    codeFiles += 1;
    collector.add({
      language,
      language_source: 'extension',
      content,
      topics: [path],
      section: 'examples',
      path,
      lines,
      start: 1,
      end: lineCount,
    });
  }
  const catalog: SnippetCatalog = {
    schema_version: '1.0',
    snippets: collector.list(),
    ...skippedFilesField(files),
  };
  throwIfCancelled(ctx.signal);
  await writeJsonArtifact(ctx.artifacts, 'snippet_catalog.json', catalog);
  ctx.logger.info('W3 catalogued snippets', { snippets: catalog.snippets.length });
}
