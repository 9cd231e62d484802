import { parse as parseYaml } from 'yaml';
import { fenceLanguage } from '../pipeline/snippets.js';
import { SNIPPET_MARKER } from './factual.js';
import type { PageDoc } from './page-doc.js';
import type { Gate, IssueDraft } from './types.js';

/** The snippet id cited on the last non-blank line above a fence (undefined when there is none). */
export function citedSnippet(page: PageDoc, fenceLine: number): { id: string; line: number } | undefined {
  for (let line = fenceLine - 1; line >= 1; line -= 1) {
    const text = page.lines[line - 1] ?? '';
    if (text.trim() === '') continue;
    const match = SNIPPET_MARKER.exec(text);
    return match === null ? undefined : { id: match[1] ?? '', line };
  }
  return undefined;
}

/** Snippets: every fenced block has a language, JSON/YAML blocks parse, each cites its catalog snippet. */
export const snippetsGate: Gate = {
  name: 'Snippets',
  run({ pages, catalog }) {
    const issues: IssueDraft[] = [];
    const byId = new Map(catalog.snippets.map((snippet) => [snippet.snippet_id, snippet]));
    for (const page of pages) {
      for (const block of page.doc.blocks) {
        if (block.type !== 'fence') continue;
        const issue = (error_code: string, message: string, suggested_fix: string): void => {
          issues.push({
            severity: 'error',
            error_code,
            message,
            path: page.path,
            line: block.startLine,
            suggested_fix,
          });
        };
        const language = fenceLanguage(block.info);
        if (language === '')
          issue(
            'MISSING_CODE_LANGUAGE',
            'Code block has no language',
            'Add the language after the opening fence',
          );
        try {
          if (language === 'json') JSON.parse(block.content);
          if (language === 'yaml' || language === 'yml') parseYaml(block.content);
        } catch (error) {
          const detail = error instanceof Error ? error.message.split('\n')[0] : 'unparseable';
          issue(
            language === 'json' ? 'INVALID_JSON_SNIPPET' : 'INVALID_YAML_SNIPPET',
            `The ${language.toUpperCase()} block does not parse: ${detail}`,
            'Restore the catalog snippet or remove the block',
          );
        }
        const cited = citedSnippet(page, block.startLine);
        if (cited === undefined) {
          issue(
            'UNCITED_SNIPPET',
            'Code block does not cite a catalog snippet',
            'Add a snippet_id marker above the block, or remove it',
          );
          continue;
        }
        const snippet = byId.get(cited.id);
        if (snippet === undefined) {
          issue(
            'UNKNOWN_SNIPPET',
            `Snippet marker "${cited.id}" is not in the snippet catalog`,
            'Cite a catalog snippet or remove the block',
          );
        } else if (snippet.content !== block.content) {
          issue(
            'SNIPPET_MISMATCH',
            `Code block differs from catalog snippet ${cited.id}`,
            'Restore the catalog content',
          );
        }
      }
    }
    return issues;
  },
};
