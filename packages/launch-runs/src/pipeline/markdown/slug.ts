/**
 * Heading anchors as Hugo's default (`autoHeadingIDType = "github"`) and GitHub make them: lower case,
 * punctuation removed (except `-` and `_`), spaces to `-`; duplicates get `-1`, `-2`, ...
 */
export function uniqueSlugs(texts: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return texts.map((text) => {
    const words = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '');
    const base = words.replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  });
}
