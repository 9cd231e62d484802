/** Line-level edits on a file's text (1-based line numbers). */

export function splitLines(text: string): string[] {
  return text.split('\n');
}

/** Replaces line `line` (or deletes it when `replacement` is null, without leaving a double blank line). */
export function replaceLine(text: string, line: number, replacement: string | null): string {
  const lines = splitLines(text);
  if (line < 1 || line > lines.length) return text;
  if (replacement !== null) {
    lines[line - 1] = replacement;
    return lines.join('\n');
  }
  lines.splice(line - 1, 1);
  const at = line - 1;
  const blank = (index: number): boolean =>
    index >= 0 && index < lines.length && (lines[index] ?? '').trim() === '';
  if (blank(at - 1) && blank(at)) lines.splice(at, 1);
  return lines.join('\n');
}

/** Deletes lines `from..to` (inclusive) and one blank line after them when they stood between blank lines. */
export function deleteLines(text: string, from: number, to: number): string {
  const lines = splitLines(text);
  lines.splice(from - 1, to - from + 1);
  const at = from - 1;
  const blank = (index: number): boolean =>
    index >= 0 && index < lines.length && (lines[index] ?? '').trim() === '';
  if (blank(at - 1) && blank(at)) lines.splice(at, 1);
  return lines.join('\n');
}

export function insertLines(text: string, before: number, inserted: readonly string[]): string {
  const lines = splitLines(text);
  lines.splice(before - 1, 0, ...inserted);
  return lines.join('\n');
}

/** A line's block prefix (list marker, blockquote marker, indentation) and the rest. */
export function linePrefix(line: string): { prefix: string; rest: string } {
  const match = /^(\s*(?:>\s?)*\s*(?:[-*+]\s+|\d+[.)]\s+)?)/.exec(line);
  const prefix = match?.[1] ?? '';
  return { prefix, rest: line.slice(prefix.length) };
}

/** Applies `edit` to the parts of a line outside inline code spans. */
export function editOutsideCode(line: string, edit: (prose: string) => string): string {
  const parts = line.split(/(`+[\s\S]*?`+)/);
  return parts.map((part, index) => (index % 2 === 1 ? part : edit(part))).join('');
}

/** Word tokens (lower case, 2+ characters) for similarity. */
export function wordTokens(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length >= 2),
  );
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / (a.size + b.size - shared);
}
