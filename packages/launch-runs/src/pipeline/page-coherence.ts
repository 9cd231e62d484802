import type { Claim, OutlineItem } from './artifact-schemas.js';
import { claimItem, type PageDraft } from './plan-outline.js';

/** Words that do not tell two sentences apart ("Ky is a tiny client" repeats "Tiny client."). */
const FILLER_WORDS = new Set([
  'a',
  'an',
  'the',
  'is',
  'are',
  'be',
  'it',
  'its',
  'this',
  'that',
  'and',
  'or',
  'of',
  'to',
  'for',
  'in',
  'on',
  'with',
]);

/**
 * What a sentence says, for telling repeats apart: its words without case, punctuation, filler words and
 * the product's name, as a sorted set. The same key is the same sentence on a page.
 */
export function sentenceKey(text: string, productName: string): string {
  const nameWords = new Set(productName.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !FILLER_WORDS.has(word) && !nameWords.has(word));
  return words.length === 0 ? text : [...new Set(words)].sort().join(' ');
}

interface Coherence {
  claims: ReadonlyMap<string, Claim>;
  /** Lead-in claims per snippet id, in source order. */
  leadIns: ReadonlyMap<string, Claim[]>;
  productName: string;
}

/**
 * Every page's outline made to read as written, in plan order: a lead-in sentence stands only directly
 * above its code block (and every planned block gets its lead-in), no sentence or snippet appears twice
 * on a page, a page does not open with a sentence an earlier page opens with, and a heading these rules
 * left without content goes.
 */
export function coherentPages(
  pages: readonly PageDraft[],
  claims: readonly Claim[],
  productName: string,
): PageDraft[] {
  const leadIns = new Map<string, Claim[]>();
  for (const claim of claims)
    for (const snippetId of claim.introduces ?? [])
      leadIns.set(snippetId, [...(leadIns.get(snippetId) ?? []), claim]);
  const context: Coherence = {
    claims: new Map(claims.map((claim) => [claim.claim_id, claim])),
    leadIns,
    productName,
  };
  const openings = new Set<string>();
  return pages.map((page) => {
    const outline = withoutRepeatedOpening(
      withoutRepeats(withLeadIns(page.outline, context), context),
      context,
      openings,
    );
    const emptyAlready = emptyHeadings(page.outline);
    const emptied = emptyHeadings(outline);
    return { ...page, outline: outline.filter((item) => !emptied.has(item) || emptyAlready.has(item)) };
  });
}

function isLeadIn(item: OutlineItem, context: Coherence): boolean {
  return item.type === 'claim' && (context.claims.get(item.claim_id)?.introduces?.length ?? 0) > 0;
}

/** Lead-ins leave the places a template put them and stand directly above each of their blocks instead. */
function withLeadIns(outline: readonly OutlineItem[], context: Coherence): OutlineItem[] {
  return outline.flatMap((item): OutlineItem[] => {
    if (isLeadIn(item, context)) return [];
    if (item.type !== 'snippet') return [item];
    const leadIns = context.leadIns.get(item.snippet_id) ?? [];
    return [...leadIns.map((claim) => claimItem(claim)), item];
  });
}

/**
 * The first occurrence wins. A block and its lead-ins are one unit: a repeated block goes with them; a
 * lead-in stays with its block even when an earlier block had the same one (`For example:`).
 */
function withoutRepeats(outline: readonly OutlineItem[], context: Coherence): OutlineItem[] {
  const seenSentences = new Set<string>();
  const seenSnippets = new Set<string>();
  const out: OutlineItem[] = [];
  let pendingLeadIns: OutlineItem[] = [];
  for (const item of outline) {
    if (isLeadIn(item, context)) {
      pendingLeadIns.push(item);
      continue;
    }
    if (item.type === 'snippet') {
      if (!seenSnippets.has(item.snippet_id)) {
        seenSnippets.add(item.snippet_id);
        for (const leadIn of pendingLeadIns) seenSentences.add(keyOf(leadIn, context));
        out.push(...pendingLeadIns, item);
      }
      pendingLeadIns = [];
      continue;
    }
    if (item.type === 'claim') {
      const key = keyOf(item, context);
      if (seenSentences.has(key)) continue;
      seenSentences.add(key);
    }
    out.push(item);
  }
  return out;
}

function keyOf(item: OutlineItem, context: Coherence): string {
  if (item.type !== 'claim') return '';
  const claim = context.claims.get(item.claim_id);
  return claim === undefined ? item.claim_id : sentenceKey(claim.text, context.productName);
}

/**
 * A page whose first sentence is one an earlier page opens with drops it (while other sentences remain);
 * the sentence it then opens with is taken for the pages after it.
 */
function withoutRepeatedOpening(
  outline: readonly OutlineItem[],
  context: Coherence,
  openings: Set<string>,
): OutlineItem[] {
  const out = [...outline];
  const claimCount = (): number => out.filter((item) => item.type === 'claim').length;
  for (;;) {
    const first = out.findIndex((item) => item.type !== 'heading');
    const opening = out[first];
    if (opening?.type !== 'claim' || isLeadIn(opening, context)) return out;
    const key = keyOf(opening, context);
    if (!openings.has(key) || claimCount() === 1) {
      openings.add(key);
      return out;
    }
    out.splice(first, 1);
  }
}

/**
 * Headings followed by no content before the next heading of their level or above (or the page's end).
 * Deep source headings flattened onto the deepest page level are such headings already; only those the
 * passes above emptied go.
 */
function emptyHeadings(outline: readonly OutlineItem[]): Set<OutlineItem> {
  const empty = new Set<OutlineItem>();
  // Walking back from the end: headings above this level have content below them.
  let coveredAbove = 0;
  for (const item of [...outline].reverse()) {
    if (item.type !== 'heading') coveredAbove = Number.POSITIVE_INFINITY;
    else if (item.level >= coveredAbove) empty.add(item);
    else coveredAbove = item.level;
  }
  return empty;
}
