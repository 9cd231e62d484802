import type { Section } from '@switchyard/contracts/launch-runs';
import type { Claim, ClaimKind, OutlineItem, ProductFacts, Snippet } from './artifact-schemas.js';
import { compareCodePoints } from '../canonical-json.js';
import { parse as parseYaml } from 'yaml';

/** Deepest heading level a page uses (deeper source headings are flattened onto it). */
const MAX_HEADING_LEVEL = 4;

/** Whether a snippet passes the Snippets gate as it stands (JSON/YAML that parses); others are not planned. */
export function snippetUsable(snippet: Snippet): boolean {
  try {
    if (snippet.language === 'json') JSON.parse(snippet.content);
    else if (snippet.language === 'yaml' || snippet.language === 'yml') parseYaml(snippet.content);
    return true;
  } catch {
    return false;
  }
}

export interface PlanInputs {
  facts: ProductFacts;
  snippets: Snippet[];
  slug: string;
  name: string;
  contentRoot: string;
}

export interface PageDraft {
  page_id: string;
  section: Section;
  template: string;
  title: string;
  description: string;
  weight: number;
  /** Path below `<content_root>/<section>/`. */
  file: string;
  url_path: string;
  outline: OutlineItem[];
  related: string[];
}

export const claimItem = (claim: Claim, style?: 'paragraph' | 'bullet'): OutlineItem => ({
  type: 'claim',
  claim_id: claim.claim_id,
  style: style ?? (claim.style === 'bullet' ? 'bullet' : 'paragraph'),
});
export const heading = (text: string, level = 2): OutlineItem => ({ type: 'heading', level, text });

export class FactIndex {
  constructor(readonly facts: ProductFacts) {}
  all(kind: ClaimKind): Claim[] {
    return this.facts.claims.filter((claim) => claim.kind === kind);
  }
  first(kind: ClaimKind): Claim | undefined {
    return this.facts.claims.find((claim) => claim.kind === kind);
  }
}

/** Source-ordered claims and snippets of README sections, with their headings rebuilt at page levels. */
export function orderedOutline(
  claims: readonly Claim[],
  snippets: readonly Snippet[],
  baseLevel: number,
): OutlineItem[] {
  type Item = { path: string; line: number; order: number; topics: readonly string[]; node: OutlineItem };
  const items: Item[] = [
    ...claims.map((claim, order) => ({
      path: claim.source.path,
      line: claim.source.line,
      order,
      topics: claim.topics,
      node: claimItem(claim),
    })),
    ...snippets.map((snippet, order) => ({
      path: snippet.provenance[0]!.path,
      line: snippet.provenance[0]!.line_start,
      order: claims.length + order,
      topics: snippet.topics,
      node: { type: 'snippet', snippet_id: snippet.snippet_id } as OutlineItem,
    })),
  ];
  items.sort((a, b) => compareCodePoints(a.path, b.path) || a.line - b.line || a.order - b.order);
  const outline: OutlineItem[] = [];
  let current: readonly string[] = [];
  for (const item of items) {
    let common = 0;
    while (common < current.length && common < item.topics.length && current[common] === item.topics[common])
      common += 1;
    for (let index = common; index < item.topics.length; index += 1) {
      outline.push(heading(item.topics[index]!, Math.min(baseLevel + index, MAX_HEADING_LEVEL)));
    }
    current = item.topics;
    outline.push(item.node);
  }
  return outline;
}
