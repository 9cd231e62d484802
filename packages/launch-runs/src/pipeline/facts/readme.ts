import type { MdBlock } from '../markdown/document.js';
import { parseMarkdown } from '../markdown/document.js';
import { splitFrontMatter } from '../markdown/front-matter.js';
import {
  codeSpan,
  escapeMarkdownText,
  segmentsToMarkdown,
  segmentsToPlain,
  type InlineSegment,
} from '../markdown/inline.js';
import { splitSentences } from '../markdown/sentences.js';
import { snippetId } from '../hashing.js';
import type { ClaimCollector } from './claim-collector.js';
import { headingMarkdown, walkReadme, type BlockContext } from './readme-walk.js';

export const README_PATTERNS = [/^readme\.md$/i, /^readme\.markdown$/i, /^readme$/i, /^readme\.txt$/i];

/**
 * Install command lines in shell snippets: the command itself, without a `$ ` prompt or a trailing comment
 * (a word that starts with `#`, as the shell reads it).
 */
const INSTALL_LINE =
  /^\s*(?:\$\s*)?((?:npm (?:install|i|add)|pnpm (?:add|install|i)|yarn add|bun add|deno add|pip3? install|python3? -m pip install|poetry add|uv (?:add|pip install)|cargo (?:add|install)|go (?:get|install))(?:[ \t]+[^\s#]\S*)+)[ \t]*(?:#.*)?$/;

const TEMPLATE_TOKEN = /\{\{|\}\}|\b__[A-Z][A-Z0-9_]*__\b/;

function wordCount(text: string): number {
  return text.split(' ').filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** Whether some inline content is a claim a page can carry: real words, not a link bar, no template tokens. */
export function claimWorthy(segments: readonly InlineSegment[], style: 'sentence' | 'bullet'): boolean {
  const plain = segmentsToPlain(segments);
  if (!/\p{L}/u.test(plain) || plain.length > 400 || TEMPLATE_TOKEN.test(plain)) return false;
  return wordCount(plain) >= (style === 'sentence' ? 3 : 2);
}

/** Words of a paragraph outside links: a badge row or nav bar has (almost) none. */
function wordsOutsideLinks(block: MdBlock): number {
  let depth = 0;
  let text = '';
  for (const child of block.inline?.children ?? []) {
    if (child.type === 'link_open') depth += 1;
    else if (child.type === 'link_close') depth -= 1;
    else if (depth === 0 && (child.type === 'text' || child.type === 'code_inline'))
      text += ` ${child.content}`;
  }
  return wordCount(text.replace(/\s+/g, ' ').trim());
}

export interface ReadmeResult {
  installCommand: string | null;
}

function isPackageInstall(command: string, packageName: string | null): boolean {
  if (packageName === null) return true;
  return command
    .split(/\s+/)
    .slice(1)
    .some((arg) => arg === packageName || arg.startsWith(`${packageName}@`));
}

/**
 * W2 over the README: title, summary (first prose paragraph of the introduction), feature bullets, install
 * command and notes, usage, API and FAQ prose, each sentence or bullet an atomic claim citing its lines.
 * HTML blocks, badge rows, images and link bars yield nothing; links keep their text only.
 */
export function readmeClaims(
  path: string,
  text: string,
  product: string,
  packageName: string | null,
  collector: ClaimCollector,
): ReadmeResult {
  const frontMatter = splitFrontMatter(text);
  const document = parseMarkdown(
    frontMatter.data !== null ? frontMatter.body : text,
    frontMatter.data !== null ? frontMatter.bodyStartLine : 1,
  );
  const walked = walkReadme(document.blocks);
  const name = escapeMarkdownText(product);

  const title = walked.find(({ block }) => block.type === 'heading' && block.level === 1);
  if (title !== undefined && claimWorthy(title.block.segments, 'bullet')) {
    collector.add({
      kind: 'title',
      text: headingMarkdown(title.block.segments),
      path,
      lineStart: title.block.startLine,
      lineEnd: title.block.startLine,
    });
  }

  // The install command: a shell line that installs this package, preferring the install section.
  let installCommand: string | null = null;
  const fences = walked.filter(({ block }) => block.type === 'fence');
  // Without a manifest the package is unknown: only the install section's own command counts.
  const installFences = fences.filter(({ context }) => context.section === 'install');
  for (const { block } of packageName === null ? installFences : [...installFences, ...fences]) {
    const lines = block.content.split('\n');
    const index = lines.findIndex((line) => {
      const match = INSTALL_LINE.exec(line);
      return match !== null && isPackageInstall(match[1]!.trim(), packageName);
    });
    if (index !== -1) {
      installCommand = INSTALL_LINE.exec(lines[index]!)![1]!.trim().replace(/\s+/g, ' ');
      const line = block.contentStart + index;
      collector.add({
        kind: 'install',
        text: `Install ${name} with ${codeSpan(installCommand)}.`,
        path,
        lineStart: line,
        lineEnd: line,
      });
      break;
    }
  }

  let summaryDone = false;
  for (const [position, { block, context }] of walked.entries()) {
    if (block.type !== 'paragraph') continue;
    const inList = block.container === 'list_item';
    const leadsInto = codeBlockAfter(walked[position + 1]?.block);
    if (!summaryDone && context.section === 'intro' && !inList && wordsOutsideLinks(block) >= 3) {
      summaryDone = addSentences('summary', block, context, path, collector, 3, leadsInto);
      continue;
    }
    const kind = (KIND_BY_SECTION as Partial<Record<string, SectionKind>>)[context.section];
    if (kind === undefined || (!inList && wordsOutsideLinks(block) === 0)) continue;
    if (inList) {
      if (claimWorthy(block.segments, 'bullet') && (kind !== 'feature' || block.text.length <= 200)) {
        const text = segmentsToMarkdown(block.segments);
        collector.add({
          kind,
          text,
          path,
          lineStart: block.startLine,
          lineEnd: block.endLine,
          topics: context.topics,
          style: 'bullet',
          ...leadIn(text, leadsInto),
        });
      }
    } else if (kind !== 'feature') {
      addSentences(kind, block, context, path, collector, Number.POSITIVE_INFINITY, leadsInto);
    }
  }
  return { installCommand };
}

const KIND_BY_SECTION = {
  features: 'feature',
  install: 'install_note',
  usage: 'usage',
  api: 'api',
  faq: 'faq',
} as const satisfies Partial<Record<BlockContext['section'], string>>;

type SectionKind = (typeof KIND_BY_SECTION)[keyof typeof KIND_BY_SECTION] | 'summary';

/** The snippet id of a code block (W3 gives the fence the same id), when `block` is one. */
function codeBlockAfter(block: MdBlock | undefined): string | undefined {
  return block?.type === 'fence' && block.content.trim() !== '' ? snippetId(block.content) : undefined;
}

/** A paragraph's last sentence ending with ':' right before a code block is that block's lead-in. */
function leadIn(text: string, leadsInto: string | undefined): { introduces?: string } {
  return leadsInto !== undefined && /:\s*$/.test(text) ? { introduces: leadsInto } : {};
}

function addSentences(
  kind: SectionKind,
  block: MdBlock,
  context: BlockContext,
  path: string,
  collector: ClaimCollector,
  limit: number,
  leadsInto: string | undefined,
): boolean {
  let added = 0;
  const sentences = splitSentences(block.segments);
  for (const [position, sentence] of sentences.entries()) {
    if (added >= limit) break;
    if (!claimWorthy(sentence, 'sentence')) continue;
    const text = segmentsToMarkdown(sentence);
    const last = position === sentences.length - 1;
    const id = collector.add({
      kind,
      text,
      path,
      lineStart: block.startLine,
      lineEnd: block.endLine,
      topics: kind === 'summary' ? [] : context.topics,
      style: 'sentence',
      ...leadIn(text, last ? leadsInto : undefined),
    });
    if (id !== undefined) added += 1;
  }
  return added > 0;
}
