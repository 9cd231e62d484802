import type { Token } from 'markdown-it';

/**
 * Inline content reduced to prose and code spans: links keep their text, an image in prose keeps its alt
 * text, an image inside a link (a badge) and inline HTML are dropped.
 */
export type InlineSegment = { kind: 'text'; value: string } | { kind: 'code'; value: string };

/** The prose an inline token adds (none for emphasis and link markers or inline HTML). */
const PROSE: Partial<Record<string, (token: Token, inLink: boolean) => string | undefined>> = {
  text: (token) => token.content,
  softbreak: () => ' ',
  hardbreak: () => ' ',
  image: (token, inLink) => (inLink || token.content.trim() === '' ? undefined : token.content),
};

export function inlineSegments(children: readonly Token[] | null): InlineSegment[] {
  const segments: InlineSegment[] = [];
  let linkDepth = 0;
  for (const token of children ?? []) {
    if (token.type === 'link_open' || token.type === 'link_close') linkDepth += token.nesting;
    if (token.type === 'code_inline') segments.push({ kind: 'code', value: token.content });
    const value = PROSE[token.type]?.(token, linkDepth > 0);
    if (value === undefined) continue;
    const last = segments.at(-1);
    if (last?.kind === 'text') last.value += value;
    else segments.push({ kind: 'text', value });
  }
  return segments;
}

/** Plain text for analysis (code spans as their content). */
export function segmentsToPlain(segments: readonly InlineSegment[]): string {
  return collapse(segments.map((segment) => segment.value).join(''));
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** A code span that survives any content: the fence is longer than the longest backtick run inside. */
export function codeSpan(value: string): string {
  const longest = [...value.matchAll(/`+/g)].reduce((max, match) => Math.max(max, match[0].length), 0);
  const fence = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}

/** Backslash, backtick, `*`, brackets, `<`, `_` outside a word, `~~`: one character each (linear matching). */
const MARKDOWN_SYNTAX = /[\\`*[\]<]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|(?<=~)~|~(?=~)/gu;

/** Escapes text so Markdown shows it literally (no emphasis, links, HTML or block syntax). */
export function escapeMarkdownText(text: string): string {
  return text.replace(MARKDOWN_SYNTAX, '\\$&');
}

/**
 * Markdown for the segments: escaped prose, code spans rebuilt, whitespace collapsed; block syntax at the
 * start escaped too unless the text goes after a heading marker.
 */
export function segmentsToMarkdown(segments: readonly InlineSegment[], { heading = false } = {}): string {
  const toMarkdown = (segment: InlineSegment): string =>
    segment.kind === 'code' ? codeSpan(segment.value) : escapeMarkdownText(segment.value);
  const markdown = collapse(segments.map(toMarkdown).join(''));
  if (heading) return markdown;
  // `#`, `>`, `-`, `+`, `=`, `|`, `1.` and `1)` would start a block.
  return markdown.replace(/^[#>+=|-]/, '\\$&').replace(/^\d+(?=[.)])/, '$&\\');
}
