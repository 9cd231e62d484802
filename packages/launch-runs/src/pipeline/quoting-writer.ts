import type { WritingBriefPage } from './artifact-schemas.js';
import { claimMarker, snippetMarker } from './markers.js';

/**
 * The scripted writer of the examples and tests (no model): a page body from the page's writing brief entry
 * alone, as the house rules ask: each section's evidence quoted with its claim marker, each quote once, and
 * each snippet copied below its marker, directly under the quote that introduces it when one does. The
 * verifier accepts it; a demo or a test adds the sentence it wants refused.
 */
export function quotingDraft(page: Pick<WritingBriefPage, 'sections' | 'evidence' | 'snippets'>): string {
  const blocks: string[] = [];
  const quoted = new Set<string>();
  const shown = new Set<string>();
  const snippetBlock = (id: string): string => {
    const snippet = page.snippets.find((entry) => entry.snippet_id === id)!;
    shown.add(id);
    return `${snippetMarker(id)}\n\n\`\`\`\`${snippet.language}\n${snippet.content}\n\`\`\`\``;
  };
  for (const section of page.sections) {
    if (section.heading !== null) blocks.push(`## ${section.heading}`);
    let sentences: string[] = [];
    const flush = (): void => {
      if (sentences.length > 0) blocks.push(sentences.join('\n'));
      sentences = [];
    };
    for (const id of section.claim_ids) {
      const item = page.evidence.find((entry) => entry.claim_id === id)!;
      const said = item.quote.toLowerCase().replace(/\s+/g, ' ').trim();
      if (quoted.has(said)) continue;
      quoted.add(said);
      sentences.push(`${item.quote} ${claimMarker(id)}`);
      const introduced = section.snippet_ids.filter(
        (snippetId) =>
          !shown.has(snippetId) &&
          page.snippets.some((entry) => entry.snippet_id === snippetId && entry.lead_in_claim_id === id),
      );
      if (introduced.length === 0) continue;
      flush();
      blocks.push(...introduced.map(snippetBlock));
    }
    flush();
    blocks.push(...section.snippet_ids.filter((id) => !shown.has(id)).map(snippetBlock));
  }
  return `${blocks.join('\n\n')}\n`;
}
