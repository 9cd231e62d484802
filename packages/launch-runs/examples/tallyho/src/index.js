/**
 * Counts words, lines and characters of a text.
 * @param {string} text
 * @param {{ prose?: boolean }} [options]
 */
export function tally(text, options = {}) {
  const source = options.prose === true ? text.replace(/^```[\s\S]*?^```$/gm, '') : text;
  const normalized = source.replace(/\r\n/g, '\n');
  const words = normalized.split(/\s+/).filter((word) => word !== '').length;
  const lines = normalized === '' ? 0 : normalized.split('\n').length;
  return { words, lines, characters: normalized.length };
}

/**
 * Formats counts as plain text or JSON.
 * @param {{ words: number, lines: number, characters: number }} counts
 * @param {'text' | 'json'} format
 */
export function formatTally(counts, format) {
  if (format === 'json') return JSON.stringify(counts);
  return `${counts.lines} lines, ${counts.words} words, ${counts.characters} characters`;
}
