/** 1-based line of a character offset. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index += 1)
    if (text.charCodeAt(index) === 10) line += 1;
  return line;
}

/** Terminal punctuation added to a fact that lacks it, so each claim reads as a sentence. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
