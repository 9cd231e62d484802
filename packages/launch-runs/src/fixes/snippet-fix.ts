import { citedSnippet } from '../gates/snippets-gate.js';
import { fenceLanguage, inferLanguage } from '../pipeline/snippets.js';
import { snippetMarker } from '../pipeline/markers.js';
import { deleteLines, insertLines, replaceLine, splitLines } from './lines.js';
import type { FixInput, FixOutcome } from './types.js';

/**
 * Snippets fixes: a block without language gets its catalog snippet's (or an inferred) language; an
 * uncited or unknown block is cited when its code is a catalog snippet, else removed; a block that differs
 * from (or no longer parses unlike) its catalog snippet gets the catalog content back, else is removed.
 */
export function fixSnippet(input: FixInput): FixOutcome {
  const { issue, page, catalog } = input;
  const text = page.text;
  const block = page.doc.blocks.find(
    (candidate) => candidate.type === 'fence' && candidate.startLine === issue.location.line,
  );
  if (block === undefined) return { kind: 'none', text, description: 'The code block is gone' };
  const cited = citedSnippet(page, block.startLine);
  const catalogued =
    cited === undefined ? undefined : catalog.snippets.find((snippet) => snippet.snippet_id === cited.id);
  const sameCode = catalog.snippets.find((snippet) => snippet.content === block.content);
  const fenceLine = page.lines[block.startLine - 1] ?? '';
  const removeBlock = (): FixOutcome => {
    const from = cited === undefined ? block.startLine : cited.line;
    return {
      kind: 'remove_code_block',
      text: deleteLines(text, from, block.endLine),
      description: 'Removed the code block',
    };
  };
  const replaceContent = (content: string, id: string): FixOutcome => {
    const lines = splitLines(text);
    lines.splice(block.contentStart - 1, block.contentEnd - block.contentStart + 1, ...content.split('\n'));
    return { kind: 'restore_snippet', text: lines.join('\n'), description: `Restored catalog snippet ${id}` };
  };
  switch (issue.error_code) {
    case 'MISSING_CODE_LANGUAGE': {
      const language = (catalogued ?? sameCode)?.language ?? inferLanguage(block.content).language;
      const fence = /^(\s*)(`{3,}|~{3,})/.exec(fenceLine);
      if (fence === null || fenceLanguage(block.info) !== '') break;
      return {
        kind: 'add_code_language',
        text: replaceLine(
          text,
          block.startLine,
          `${fence[1]}${fence[2]}${language}${fenceLine.slice(fence[0].length).trimStart() === '' ? '' : ` ${fenceLine.slice(fence[0].length).trim()}`}`,
        ),
        description: `Marked the code block as ${language}`,
      };
    }
    case 'UNCITED_SNIPPET':
      if (sameCode !== undefined) {
        return {
          kind: 'cite_snippet',
          text: insertLines(text, block.startLine, [snippetMarker(sameCode.snippet_id), '']),
          description: `Cited catalog snippet ${sameCode.snippet_id}`,
        };
      }
      return removeBlock();
    case 'UNKNOWN_SNIPPET':
      if (sameCode !== undefined && cited !== undefined) {
        return {
          kind: 'cite_snippet',
          text: replaceLine(text, cited.line, snippetMarker(sameCode.snippet_id)),
          description: `Re-pointed the marker to ${sameCode.snippet_id}`,
        };
      }
      return removeBlock();
    case 'SNIPPET_MISMATCH':
    case 'INVALID_JSON_SNIPPET':
    case 'INVALID_YAML_SNIPPET':
      if (catalogued !== undefined && catalogued.content !== block.content)
        return replaceContent(catalogued.content, catalogued.snippet_id);
      return removeBlock();
    default:
      break;
  }
  return { kind: 'none', text, description: 'No fix for this snippet issue' };
}
