// The citation markers a page's lines carry; no dependency, so the package index can load what uses them.

/** `<!-- claim_id: c_... -->`: the marker every factual line ends with (TruthLock resolves it). */
export function claimMarker(claimId: string): string {
  return `<!-- claim_id: ${claimId} -->`;
}

/** `<!-- snippet_id: s_... -->`: the citation line above a code block (the Snippets gate checks it). */
export function snippetMarker(snippetId: string): string {
  return `<!-- snippet_id: ${snippetId} -->`;
}
