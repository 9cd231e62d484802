/**
 * At most this many distinct words of a query are searched: FTS5 bounds expression depth, and each word of
 * a phrase is one more pass over the positions of the journey's matches.
 */
export const MAX_QUERY_WORDS = 32;
/** Phrases are made of those words, so there are at most as many. */
export const MAX_QUERY_PHRASES = MAX_QUERY_WORDS;

// What the unicode61 tokenizer treats as word characters (letters, digits, private use), plus combining
// marks so that a decomposed accent stays inside its word.
const WORD_CHARACTER = /^[\p{L}\p{N}\p{M}\p{Co}]$/u;
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** Whether `character` (one code point) belongs to a word, as the full-text tokenizer splits text. */
export function isWordCharacter(character: string): boolean {
  return WORD_CHARACTER.test(character);
}

/** A word as the tokenizer folds it (case and accents), to tell repeated words apart. */
const folded = (word: string) => word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The words of a query, grouped as it groups them: each whitespace-separated chunk is one phrase of its
 * words (`knee-injury` -> knee, injury), each word once (a later repeat is left out, also inside a chunk:
 * a phrase of one word repeated would have every position of that word read once per repeat), at most
 * MAX_QUERY_WORDS words. Empty when the text has no words at all. Operators, quotes and SQL are words or
 * separators here, never syntax.
 */
export function queryPhrases(text: string): string[][] {
  const phrases: string[][] = [];
  const seen = new Set<string>();
  for (const chunk of text.normalize('NFC').split(/\s+/u)) {
    const words: string[] = [];
    for (const word of chunk.match(WORD) ?? []) {
      if (seen.size === MAX_QUERY_WORDS || seen.has(folded(word))) continue;
      seen.add(folded(word));
      words.push(word);
    }
    if (words.length > 0) phrases.push(words);
    if (seen.size === MAX_QUERY_WORDS) break;
  }
  return phrases;
}

/**
 * Turns any text into an FTS5 expression that can only mean "these words": each of its phrases
 * (`queryPhrases`) quoted (`knee-injury` -> "knee injury"), so operators (AND, OR, NOT, NEAR), quotes, `*`,
 * `^`, `-`, `:`, parentheses and SQL are searched as plain words or ignored, never parsed. Returns the
 * phrases, which FTS5 ANDs when joined by spaces; empty when the text has no words at all.
 */
export function toFtsPhrases(text: string): string[] {
  // WORD never matches a double quote, so the phrase needs no escaping.
  return queryPhrases(text).map((words) => `"${words.join(' ')}"`);
}

/** The MATCH expression for some columns of one journey's rows: `jkey : "<key>" AND {cols} : (<phrases>)`. */
export function journeyMatch(
  journeyKey: string,
  columns: readonly string[],
  phrases: readonly string[],
): string {
  const target = columns.length === 1 ? columns[0] : `{${columns.join(' ')}}`;
  return `jkey : "${journeyKey}" AND ${target} : (${phrases.join(' ')})`;
}

/** A MATCH expression for text containing any of the phrases (a snippet window holds only some of them). */
export function anyPhrase(phrases: readonly string[]): string {
  return phrases.join(' OR ');
}
