import type { WritingBrief } from '../pipeline/artifact-schemas.js';
import type { VerifierBrief } from './types.js';

/**
 * What the verifier holds one page of a writing brief to: the evidence, snippets and links the brief gives that
 * page, and the product's facts. Undefined for a page the brief does not plan.
 */
export function verifierBriefFor(brief: WritingBrief, pageId: string): VerifierBrief | undefined {
  const page = brief.pages.find((entry) => entry.page_id === pageId);
  if (page === undefined) return undefined;
  return {
    evidence: page.evidence,
    snippets: page.snippets,
    links: page.links.map((link) => link.url_path),
    facts: brief.product,
  };
}
