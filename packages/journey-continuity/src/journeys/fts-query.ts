/** At most this many distinct words or word groups of a query are searched (FTS5 bounds expression depth). */
export const MAX_QUERY_PHRASES = 32;

// What the unicode61 tokenizer treats as word characters (letters, digits, private use), plus combining
// marks so that a decomposed accent stays inside its word.
const WORD_CHARACTER = /^[\p{L}\p{N}\p{M}\p{Co}]$/u;
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** Whether `character` (one code point) belongs to a word, as the full-text tokenizer splits text. */
export function isWordCharacter(character: string): boolean {
  return WORD_CHARACTER.test(character);
}

/**
 * The words of a query, grouped as it groups them: each whitespace-separated chunk is one phrase of its
 * words (`knee-injury` -> knee, injury), a repeated chunk once, at most MAX_QUERY_PHRASES phrases. Empty when
 * the text has no words at all. Operators, quotes and SQL are words or separators here, never syntax.
 */
export function queryPhrases(text: string): string[][] {
  const phrases: string[][] = [];
  const seen = new Set<string>();
  for (const chunk of text.normalize('NFC').split(/\s+/u)) {
    const words = chunk.match(WORD);
    if (words === null) continue;
    const key = words.join(' ').toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    phrases.push(words);
    if (phrases.length === MAX_QUERY_PHRASES) break;
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
