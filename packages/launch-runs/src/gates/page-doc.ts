import { parseMarkdown, type MdDocument } from '../pipeline/markdown/document.js';
import { splitFrontMatter, type FrontMatter } from '../pipeline/markdown/front-matter.js';

export type LineKind = 'front' | 'code' | 'html' | 'heading' | 'prose' | 'table' | 'other';

/** A page of the site parsed once for every gate: front matter, blocks, links and a kind per line. */
export interface PageDoc {
  /** Site-relative path. */
  path: string;
  text: string;
  /** Lines without their "\n" (index 0 = line 1). */
  lines: string[];
  frontMatter: FrontMatter;
  doc: MdDocument;
  /** Kind of each line (index 0 = line 1). */
  kinds: LineKind[];
}

export function parsePage(path: string, text: string): PageDoc {
  const frontMatter = splitFrontMatter(text);
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const hasFrontMatter = frontMatter.present && frontMatter.endLine > 0;
  const doc = parseMarkdown(
    hasFrontMatter ? frontMatter.body : text,
    hasFrontMatter ? frontMatter.bodyStartLine : 1,
  );
  const kinds: LineKind[] = lines.map(() => 'other');
  const mark = (from: number, to: number, kind: LineKind): void => {
    for (let line = from; line <= to && line <= lines.length; line += 1) kinds[line - 1] = kind;
  };
  if (hasFrontMatter) mark(1, frontMatter.endLine, 'front');
  for (const block of doc.blocks) {
    const kind: LineKind =
      block.type === 'fence' || block.type === 'code'
        ? 'code'
        : block.type === 'html'
          ? 'html'
          : block.type === 'heading'
            ? 'heading'
            : block.type === 'paragraph'
              ? 'prose'
              : block.type === 'table'
                ? 'table'
                : 'other';
    mark(block.startLine, block.endLine, kind);
  }
  return { path, text, lines, frontMatter, doc, kinds };
}

/** A link reference definition, `[label]: url`, in its parts. */
export interface LinkDefinition {
  /** The line from its start to the URL's end. */
  source: string;
  /** Up to the URL: indent, `[label]:` and the spaces after it. */
  lead: string;
  label: string;
  url: string;
}

/** The link reference definition a line holds (markdown-it keeps these out of every block: kind `other`). */
export function linkDefinition(line: string): LinkDefinition | undefined {
  const match = /^( {0,3}\[([^\]]+)\]:\s*)<?([^\s>]+)>?(?=\s|$)/.exec(line);
  return match === null ? undefined : { source: match[0], lead: match[1]!, label: match[2]!, url: match[3]! };
}

/** The prose of a line with inline code spans blanked out (for scanners that must skip code). */
export function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)([\s\S]*?)\1/g, (match) => ' '.repeat(match.length));
}
