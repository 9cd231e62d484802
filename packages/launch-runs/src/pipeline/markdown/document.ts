import MarkdownIt, { type Token } from 'markdown-it';
import { inlineSegments, segmentsToPlain, type InlineSegment } from './inline.js';

// Parsed, never rendered: HTML is recognised only so HTML blocks are told apart from prose; no linkify.
const markdown = new MarkdownIt('commonmark', { html: true }).enable(['table', 'strikethrough']);

/** The markdown-it tokens read as blocks (the rest, such as rules and list markers, carry no block). */
const BLOCK_TYPES: Partial<Record<string, MdBlock['type']>> = {
  heading_open: 'heading',
  paragraph_open: 'paragraph',
  fence: 'fence',
  code_block: 'code',
  html_block: 'html',
  table_open: 'table',
};
const CONTAINERS: Partial<Record<string, MdBlock['container']>> = {
  list_item_open: 'list_item',
  blockquote_open: 'blockquote',
};

/** One block of a Markdown document; lines are 1-based and absolute in the file. */
export interface MdBlock {
  type: 'heading' | 'paragraph' | 'fence' | 'code' | 'html' | 'table';
  startLine: number;
  endLine: number;
  /** The innermost list item or blockquote around the block. */
  container: 'root' | 'list_item' | 'blockquote';
  /** Headings: 1 to 6. */
  level: number;
  /** Headings and paragraphs: the inline token, its prose and code spans, and their plain text. */
  inline: Token | null;
  segments: InlineSegment[];
  text: string;
  /** Fences: the info string (language first), the content without its last newline and its lines. */
  info: string;
  content: string;
  contentStart: number;
  contentEnd: number;
}

export type MdLink = { href: string; line: number; image: boolean };
export type MdDocument = { blocks: MdBlock[]; links: MdLink[] };
type Place = Pick<MdBlock, 'startLine' | 'endLine' | 'container'>;

/** Parses `body` (which starts at file line `firstLine`) into blocks and links with absolute line numbers. */
export function parseMarkdown(body: string, firstLine = 1): MdDocument {
  const tokens = markdown.parse(body, {});
  const blocks: MdBlock[] = [];
  const links: MdLink[] = [];
  // The container of each open token, innermost last (markdown-it's open and close tokens are balanced).
  const containers: MdBlock['container'][] = ['root'];
  for (const [index, token] of tokens.entries()) {
    if (token.nesting === -1) containers.pop();
    const [begin, end] = token.map ?? [0, 0];
    const container = containers.at(-1)!;
    const place = { startLine: begin + firstLine, endLine: end + firstLine - 1, container };
    if (token.type === 'inline') collectLinks(token, place.startLine, links);
    const type = BLOCK_TYPES[token.type];
    if (type !== undefined) blocks.push(readBlock(type, token, tokens[index + 1], place));
    if (token.nesting === 1) containers.push(CONTAINERS[token.type] ?? container);
  }
  return { blocks, links };
}

function readBlock(type: MdBlock['type'], token: Token, next: Token | undefined, place: Place): MdBlock {
  const inline = (type === 'heading' || type === 'paragraph') && next?.type === 'inline' ? next : null;
  const segments = inlineSegments(inline?.children ?? null);
  const content = type === 'fence' ? token.content : '';
  // An empty fence has no content lines: contentEnd < contentStart.
  const contentLines = content === '' ? 0 : content.replace(/\n$/, '').split('\n').length;
  return {
    type,
    ...place,
    level: type === 'heading' ? Number(token.tag.slice(1)) : 0,
    inline,
    segments,
    text: segmentsToPlain(segments),
    info: token.info.trim(),
    content: content.replace(/\n$/, ''),
    contentStart: place.startLine + 1,
    contentEnd: place.startLine + contentLines,
  };
}

function collectLinks(inline: Token, line: number, links: MdLink[]): void {
  for (const child of inline.children ?? []) {
    if (child.type === 'softbreak' || child.type === 'hardbreak') line += 1;
    const image = child.type === 'image';
    const href = image ? child.attrGet('src') : child.type === 'link_open' ? child.attrGet('href') : null;
    if (href !== null) links.push({ href: String(href), line, image });
  }
}
