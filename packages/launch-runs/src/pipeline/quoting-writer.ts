import type { WritingBriefPage } from './artifact-schemas.js';
import { claimMarker, snippetMarker } from './markers.js';

/**
 * The scripted writer of the examples and tests (no model): a page body from the page's writing brief entry
 * alone, each section's evidence quoted with its claim marker and its snippets copied below their markers, as
 * the house rules ask. The verifier accepts it; a demo or a test adds the sentence it wants refused.
 */
export function quotingDraft(page: Pick<WritingBriefPage, 'sections' | 'evidence' | 'snippets'>): string {
  const blocks: string[] = [];
  for (const section of page.sections) {
    if (section.heading !== null) blocks.push(`## ${section.heading}`);
    const sentences = section.claim_ids.map((id) => {
      const item = page.evidence.find((entry) => entry.claim_id === id)!;
      return `${item.quote} ${claimMarker(id)}`;
    });
    if (sentences.length > 0) blocks.push(sentences.join('\n'));
    for (const id of section.snippet_ids) {
      const snippet = page.snippets.find((entry) => entry.snippet_id === id)!;
      blocks.push(`${snippetMarker(id)}\n\n\`\`\`\`${snippet.language}\n${snippet.content}\n\`\`\`\``);
    }
  }
  return `${blocks.join('\n\n')}\n`;
}
