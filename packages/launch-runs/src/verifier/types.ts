/**
 * What the verifier reads (the part of a writing brief for one page) and what it answers. A page written
 * by a model uses the extractive drafter's marker syntax: `<!-- claim_id: c_... -->` after a sentence and
 * `<!-- snippet_id: s_... -->` on the line above a code block.
 */

/** An evidence item a page may cite: the claim's exact quote (a writing brief's evidence item has this shape). */
export interface EvidenceItem {
  claim_id: string;
  quote: string;
  /** Headings above the quote in its source, from its section heading down (an option's name, say). */
  topics?: readonly string[];
}

/** A code block a page may show, byte for byte. */
export interface EvidenceSnippet {
  snippet_id: string;
  content: string;
  /** The evidence item that introduces it in its source ("With plain `fetch`, it would be:"), if one does. */
  lead_in_claim_id?: string | null;
}

/** The product's facts (pipeline/facts' product_facts.json): a sentence may state these without citing. */
export interface ProductFactsForVerifier {
  name: string;
  package_name?: string | null;
  version?: string | null;
  license?: string | null;
  install_command?: string | null;
  repository_url?: string | null;
}

export interface VerifierBrief {
  evidence: readonly EvidenceItem[];
  snippets: readonly EvidenceSnippet[];
  /** Site paths of the plan's pages (`/docs/ky/usage/`): the only internal links a page may make. */
  links: readonly string[];
  facts: ProductFactsForVerifier;
}

export interface VerifierIssue {
  line: number;
  sentence: string;
  code: string;
  /** What would satisfy the rule, phrased so a model can revise. */
  message: string;
}

export interface SentenceVerdict {
  line: number;
  sentence: string;
  claim_ids: string[];
  accepted: boolean;
  codes: string[];
}

export interface VerifierResult {
  accepted: boolean;
  issues: VerifierIssue[];
  sentences: SentenceVerdict[];
}
