import { parseMarkdown } from '../markdown/document.js';
import { segmentsToMarkdown } from '../markdown/inline.js';
import type { ClaimCollector } from './claim-collector.js';
import { claimWorthy } from './readme.js';
import { headingMarkdown } from './readme-walk.js';

export const CHANGELOG_PATTERNS = [/^changelog\.md$/i, /^changes\.md$/i, /^history\.md$/i, /^changelog$/i];

const VERSION = /\bv?(\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?)\b/;

/** W2 over the CHANGELOG: the latest released version and the changes listed under it. */
export function changelogClaims(path: string, text: string, collector: ClaimCollector): void {
  const { blocks } = parseMarkdown(text);
  const releaseIndex = blocks.findIndex(
    (block) =>
      block.type === 'heading' &&
      block.level <= 3 &&
      !/unreleased/i.test(block.text) &&
      VERSION.test(block.text),
  );
  if (releaseIndex === -1) return;
  const release = blocks[releaseIndex]!;
  const version = VERSION.exec(release.text)![1]!;
  collector.add({
    kind: 'release',
    text: `The latest changelog entry is version ${version}.`,
    path,
    lineStart: release.startLine,
    lineEnd: release.startLine,
  });
  const releaseHeading = headingMarkdown(release.segments);
  let topics = [releaseHeading];
  for (const block of blocks.slice(releaseIndex + 1)) {
    if (block.type === 'heading') {
      if (block.level <= release.level) break;
      topics = [releaseHeading, headingMarkdown(block.segments)];
      continue;
    }
    if (
      block.type === 'paragraph' &&
      block.container === 'list_item' &&
      claimWorthy(block.segments, 'bullet')
    ) {
      collector.add({
        kind: 'change',
        text: segmentsToMarkdown(block.segments),
        path,
        lineStart: block.startLine,
        lineEnd: block.endLine,
        topics,
        style: 'bullet',
      });
    }
  }
}
