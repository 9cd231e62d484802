import type { MdBlock } from '../markdown/document.js';
import { segmentsToMarkdown, type InlineSegment } from '../markdown/inline.js';
import { classifyHeading, type ReadmeSection } from './readme-sections.js';

/** Where a block of a README sits: its section (from the nearest classified heading) and topic heading. */
export interface BlockContext {
  section: ReadmeSection | 'other';
  /** Headings above the block from its section heading down ([] outside classified sections). */
  topics: string[];
}

interface OpenHeading {
  level: number;
  text: string;
  section: ReadmeSection | undefined;
}

/** Heading text as Markdown, without trailing punctuation (which Markdown linters flag in headings). */
export function headingMarkdown(segments: readonly InlineSegment[]): string {
  return segmentsToMarkdown(segments, { heading: true }).replace(/[\s.,;:!]+$/u, '');
}

/** Annotates each block with its README context, in document order. */
export function walkReadme(blocks: readonly MdBlock[]): { block: MdBlock; context: BlockContext }[] {
  const stack: OpenHeading[] = [];
  const out: { block: MdBlock; context: BlockContext }[] = [];
  for (const block of blocks) {
    if (block.type === 'heading') {
      while (stack.length > 0 && stack.at(-1)!.level >= block.level) stack.pop();
      stack.push({
        level: block.level,
        text: headingMarkdown(block.segments),
        section: classifyHeading(block.text),
      });
    }
    out.push({ block, context: contextOf(stack) });
  }
  return out;
}

/** A heading's own context names itself as the topic (it is the topic of what follows it). */
function contextOf(stack: readonly OpenHeading[]): BlockContext {
  const sectionIndex = stack.findIndex((heading) => heading.section !== undefined);
  if (sectionIndex === -1) {
    const onlyTitle = stack.every((heading) => heading.level === 1);
    return { section: onlyTitle ? 'intro' : 'other', topics: [] };
  }
  const section = stack[sectionIndex]!.section!;
  return { section, topics: stack.slice(sectionIndex).map((heading) => heading.text) };
}
