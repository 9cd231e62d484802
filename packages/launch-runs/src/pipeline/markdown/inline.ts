import type { Token } from 'markdown-it';

/**
 * Inline content reduced to prose and code spans: links keep their text, an image in prose keeps its alt
 * text, an image inside a link (a badge) and inline HTML are dropped.
 */
export type InlineSegment = { kind: 'text'; value: string } | { kind: 'code'; value: string };

export function inlineSegments(children: readonly Token[] | null): InlineSegment[] {
  const segments: InlineSegment[] = [];
  const pushText = (value: string): void => {
    const last = segments.at(-1);
    if (last?.kind === 'text') last.value += value;
    else segments.push({ kind: 'text', value });
  };
  let linkDepth = 0;
  for (const token of children ?? []) {
    switch (token.type) {
      case 'link_open':
        linkDepth += 1;
        break;
      case 'link_close':
        linkDepth -= 1;
        break;
      case 'image':
        if (linkDepth === 0 && token.content.trim() !== '') pushText(token.content);
        break;
      case 'text':
      case 'entity':
        pushText(token.content);
        break;
      case 'code_inline':
        segments.push({ kind: 'code', value: token.content });
        break;
      case 'softbreak':
      case 'hardbreak':
        pushText(' ');
        break;
      default:
        // link/strong/em markers, images and inline HTML carry no prose of their own.
        break;
    }
  }
  return segments;
}

/** Plain text for analysis (code spans as their content). */
export function segmentsToPlain(segments: readonly InlineSegment[]): string {
  return collapse(segments.map((segment) => segment.value).join(''));
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A code span that survives any content: the fence is longer than the longest backtick run inside. */
export function codeSpan(value: string): string {
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}

/** Escapes text so Markdown shows it literally (no emphasis, links, HTML or block syntax). */
export function escapeMarkdownText(text: string): string {
  let out = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    const previous = text[index - 1] ?? ' ';
    const next = text[index + 1] ?? ' ';
    if ('\\`*[]<'.includes(char)) out += `\\${char}`;
    else if (char === '_' && !(/[\p{L}\p{N}]/u.test(previous) && /[\p{L}\p{N}]/u.test(next))) out += '\\_';
    else if (char === '~' && (previous === '~' || next === '~')) out += '\\~';
    else out += char;
  }
  return out;
}

/**
 * Markdown for the segments: escaped prose, code spans rebuilt, whitespace collapsed; block syntax at the
 * start escaped too unless the text goes after a heading marker.
 */
export function segmentsToMarkdown(
  segments: readonly InlineSegment[],
  options: { heading?: boolean } = {},
): string {
  const markdown = segments
    .map((segment) =>
      segment.kind === 'code'
        ? codeSpan(segment.value)
        : escapeMarkdownText(segment.value.replace(/\s+/g, ' ')),
    )
    .join('');
  return options.heading === true ? collapse(markdown) : escapeLineStart(collapse(markdown));
}

/** A line starting with block syntax (`#`, `>`, `-`, `+`, `1.`, `|`, `=`) gets it escaped. */
export function escapeLineStart(line: string): string {
  if (/^(#|>|-|\+|=|\|)/.test(line)) return `\\${line}`;
  const ordered = /^(\d+)([.)])/.exec(line);
  if (ordered !== null) return `${ordered[1]}\\${line.slice(ordered[1]!.length)}`;
  return line;
}
