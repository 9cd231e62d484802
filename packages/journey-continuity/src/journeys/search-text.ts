// The text PostgreSQL indexes and searches, prepared as FTS5's `unicode61 remove_diacritics 2` tokenizer
// sees it: accents removed, split into words at every character that is not a letter, digit or private-use
// character. PostgreSQL's parser then only ever sees plain words separated by spaces (no e-mail addresses,
// URLs or hyphenated words of its own), and stems each with the journey text search configuration.

const MARKS = /\p{M}/gu;
const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

/** The words of `text` without their accents (`Café au lait` -> Cafe, au, lait). */
export function searchWords(text: string): string[] {
  return text.normalize('NFD').replace(MARKS, '').match(WORD) ?? [];
}

/** What goes into to_tsvector for `text`, and its length as bm25 counts it (its words, plus the journey key). */
export function searchText(text: string): { text: string; tokens: number } {
  const words = searchWords(text);
  return { text: words.join(' '), tokens: words.length + 1 };
}
