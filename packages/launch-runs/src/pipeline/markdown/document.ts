import MarkdownIt, { type Token } from 'markdown-it';
import { inlineSegments, segmentsToPlain, type InlineSegment } from './inline.js';

const markdown = new MarkdownIt('commonmark', { html: true }).enable(['table', 'strikethrough']);

export type BlockType = 'heading' | 'paragraph' | 'fence' | 'code' | 'html' | 'table' | 'hr';
export type Container = 'root' | 'list_item' | 'blockquote';

/** One block of a Markdown document; lines are 1-based and absolute in the file. */
export interface MdBlock {
  type: BlockType;
  startLine: number;
  endLine: number;
  container: Container;
  /** Depth of list nesting (0 outside lists). */
  listDepth: number;
  /** Heading level (headings only). */
  level: number;
  /** Inline content (headings and paragraphs). */
  segments: InlineSegment[];
  /** Plain text of the inline content. */
  text: string;
  /** Fences: info string, first word (language) and content (without the trailing newline). */
  info: string;
  content: string;
  /** Fences: first and last content line (empty fences: endLine < startLine). */
  contentStart: number;
  contentEnd: number;
  inline: Token | null;
}

export interface MdLink {
  href: string;
  line: number;
  image: boolean;
}

export interface MdDocument {
  blocks: MdBlock[];
  links: MdLink[];
}

/** Parses `body` (which starts at file line `firstLine`) into blocks and links with absolute line numbers. */
export function parseMarkdown(body: string, firstLine = 1): MdDocument {
  const tokens = markdown.parse(body, {});
  const offset = firstLine - 1;
  const lines = body.split('\n');
  const blocks: MdBlock[] = [];
  const links: MdLink[] = [];
  const containers: Container[] = [];
  let listDepth = 0;

  const base = (type: BlockType, token: Token): MdBlock => {
    const [begin, end] = token.map ?? [0, 0];
    return {
      type,
      startLine: begin + 1 + offset,
      endLine: end + offset,
      container: containers.at(-1) ?? 'root',
      listDepth,
      level: 0,
      segments: [],
      text: '',
      info: '',
      content: '',
      contentStart: 0,
      contentEnd: -1,
      inline: null,
    };
  };

  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    switch (token.type) {
      case 'bullet_list_open':
      case 'ordered_list_open':
        listDepth += 1;
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        listDepth -= 1;
        break;
      case 'list_item_open':
        containers.push('list_item');
        break;
      case 'blockquote_open':
        containers.push('blockquote');
        break;
      case 'list_item_close':
      case 'blockquote_close':
        containers.pop();
        break;
      case 'heading_open':
      case 'paragraph_open': {
        const inline = tokens[index + 1];
        const block = base(token.type === 'heading_open' ? 'heading' : 'paragraph', token);
        if (token.type === 'heading_open') block.level = Number(token.tag.slice(1));
        if (inline?.type === 'inline') {
          block.inline = inline;
          block.segments = inlineSegments(inline.children);
          block.text = segmentsToPlain(block.segments);
          collectLinks(inline, block.startLine, links);
        }
        blocks.push(block);
        break;
      }
      case 'fence': {
        const block = base('fence', token);
        block.info = token.info.trim();
        block.content = token.content.replace(/\n$/, '');
        block.contentStart = block.startLine + 1;
        const lastLine = (lines[block.endLine - 1 - offset] ?? '').trim();
        const closed = block.endLine > block.startLine && /^(`{3,}|~{3,})$/.test(lastLine);
        block.contentEnd = closed ? block.endLine - 1 : block.endLine;
        blocks.push(block);
        break;
      }
      case 'code_block': {
        const block = base('code', token);
        block.content = token.content.replace(/\n$/, '');
        block.contentStart = block.startLine;
        block.contentEnd = block.endLine;
        blocks.push(block);
        break;
      }
      case 'html_block':
        blocks.push(base('html', token));
        break;
      case 'table_open': {
        const block = base('table', token);
        blocks.push(block);
        while (index < tokens.length && tokens[index]!.type !== 'table_close') {
          const inner = tokens[index]!;
          if (inner.type === 'inline') collectLinks(inner, (inner.map?.[0] ?? 0) + 1 + offset, links);
          index += 1;
        }
        break;
      }
      case 'hr':
        blocks.push(base('hr', token));
        break;
      default:
        break;
    }
  }
  return { blocks, links };
}

function collectLinks(inline: Token, startLine: number, links: MdLink[]): void {
  let line = startLine;
  for (const child of inline.children ?? []) {
    if (child.type === 'softbreak' || child.type === 'hardbreak') line += 1;
    else if (child.type === 'link_open') {
      const href = child.attrGet('href');
      if (href !== null) links.push({ href: String(href), line, image: false });
    } else if (child.type === 'image') {
      const src = child.attrGet('src');
      if (src !== null) links.push({ href: String(src), line, image: true });
    }
  }
}
