import type { EvidenceItem, VerifierBrief } from './types.js';
import { contentLemmas, lemma, negates, NUMBER_WORDS } from './words.js';

/** What a set of cited evidence items (and the product's facts) lets a sentence say. */
export interface Support {
  /** The items' quotes and topics and the product's facts, as plain text (code spans keep their content). */
  text: string;
  numbers: ReadonlySet<string>;
  lemmas: ReadonlySet<string>;
  /** Whether a cited item negates something (a sentence may only negate what its evidence negates). */
  negates: boolean;
  /** Answers of `occursIn` against `text`, kept while the support is (the same tokens recur on a page). */
  occurrences: Map<string, boolean>;
}

interface IndexedItem {
  text: string;
  negates: boolean;
  numbers: string[];
  lemmas: string[];
}

/** Markdown backslash escapes undone: quotes are Markdown, sentences are compared as plain text. */
const unescapeMarkdown = (text: string): string => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** Numbers a text states: digit runs (a version's dots kept) and number words as digits. */
export function numbersOf(text: string): string[] {
  const digits = [...text.matchAll(/\d+(?:\.\d+)*/g)].map((match) => match[0]);
  const words = (text.toLowerCase().match(/\p{L}+/gu) ?? []).flatMap((word) => NUMBER_WORDS[word] ?? []);
  return [...digits, ...words];
}

const WORD_CHAR = /[\w$]/;

/**
 * Whether `token` occurs in `text` as a whole token: not glued to a letter, digit, `_` or `$` on a side
 * where it starts or ends with one. `plural` also accepts the token with or without a trailing `s`.
 * Plain string search (a page's tokens are untrusted: no regular expression is built from them).
 */
export function occursIn(token: string, text: string, { plural = false } = {}): boolean {
  const variants = plural ? [token, `${token}s`, token.replace(/s$/, '')] : [token];
  return variants.some((variant) => variant !== '' && occursWhole(variant, text));
}

function occursWhole(token: string, text: string): boolean {
  const startsWord = WORD_CHAR.test(token[0]!);
  const endsWord = WORD_CHAR.test(token.at(-1)!);
  for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + 1)) {
    if (startsWord && WORD_CHAR.test(text[at - 1] ?? '')) continue;
    if (endsWord && WORD_CHAR.test(text[at + token.length] ?? '')) continue;
    return true;
  }
  return false;
}

/** The page's brief indexed once: evidence by claim id, snippets, plan links, facts and vocabulary. */
export class EvidenceIndex {
  private readonly items = new Map<string, IndexedItem>();
  private readonly factsText: string;
  private readonly factsNumbers: readonly string[];
  readonly snippets: ReadonlyMap<string, string>;
  readonly links: ReadonlySet<string>;
  /** Lemmas of the words the evidence writes in lower case (what an ordinary word looks like here). */
  readonly vocabulary: ReadonlySet<string>;
  /** Lemmas of the product's names, which never count as content words. */
  readonly productLemmas: ReadonlySet<string>;
  readonly productNames: readonly string[];

  constructor(readonly brief: VerifierBrief) {
    const vocabulary = new Set<string>();
    for (const item of brief.evidence) {
      const text = itemText(item);
      this.items.set(item.claim_id, {
        text,
        negates: negates(text),
        numbers: numbersOf(text),
        lemmas: contentLemmas(text),
      });
      for (const word of text.match(/(?<![\p{L}])\p{Ll}\p{L}*/gu) ?? []) vocabulary.add(lemma(word));
    }
    const { facts } = brief;
    this.factsText = [facts.name, facts.package_name, facts.version, facts.license, facts.install_command]
      .concat(facts.repository_url)
      .filter((value): value is string => typeof value === 'string' && value !== '')
      .join('\n');
    this.factsNumbers = numbersOf(this.factsText);
    for (const word of this.factsText.match(/(?<![\p{L}])\p{Ll}\p{L}*/gu) ?? []) vocabulary.add(lemma(word));
    this.productNames = [facts.name, facts.package_name].filter(
      (name): name is string => typeof name === 'string' && name.trim() !== '',
    );
    this.productLemmas = new Set(this.productNames.flatMap(contentLemmas));
    this.vocabulary = vocabulary;
    this.snippets = new Map(brief.snippets.map((snippet) => [snippet.snippet_id, snippet.content]));
    this.links = new Set(brief.links.map(normalizeSitePath));
  }

  has(claimId: string): boolean {
    return this.items.has(claimId);
  }

  /** What the cited items (known ids only) and the product's facts support together. */
  support(claimIds: readonly string[]): Support {
    const cited = claimIds.flatMap((id) => this.items.get(id) ?? []);
    return {
      text: [...cited.map((item) => item.text), this.factsText].join('\n'),
      numbers: new Set([...cited.flatMap((item) => item.numbers), ...this.factsNumbers]),
      lemmas: new Set(cited.flatMap((item) => item.lemmas)),
      negates: cited.some((item) => item.negates),
      occurrences: new Map(),
    };
  }
}

/** An item's quote and its own topic (the nearest heading above it: an option's or method's name). */
function itemText(item: EvidenceItem): string {
  const topic = item.topics?.at(-1);
  return unescapeMarkdown(topic === undefined ? item.quote : `${item.quote}\n${topic}`);
}

/** A site path as the plan names it: no query or fragment, one trailing slash. */
export function normalizeSitePath(href: string): string {
  const path = href.replace(/[?#].*$/, '');
  return path.endsWith('/') ? path : `${path}/`;
}
