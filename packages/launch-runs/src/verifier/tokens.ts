import type { InlineSegment } from '../pipeline/markdown/inline.js';
import { occursIn, type Support } from './evidence-index.js';
import { isOrdinaryWord, NUMBER_WORDS } from './words.js';

/** A sentence as the token rules read it. */
export interface SentenceParts {
  segments: readonly InlineSegment[];
  /** Prose and code spans' content. */
  plain: string;
  /** Prose only, code spans blanked. */
  prose: string;
  codeSpans: string[];
  /** Numeric tokens (number words as digits: `three` -> 3), and whether each is a version. */
  numbers: { token: string; version: boolean }[];
}

export function sentenceParts(segments: readonly InlineSegment[]): SentenceParts {
  const join = (code: (value: string) => string): string =>
    segments
      .map((segment) => (segment.kind === 'code' ? code(segment.value) : segment.value))
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
  const plain = join((value) => value);
  return {
    segments,
    plain,
    prose: join(() => ' \u2026 '),
    codeSpans: segments.flatMap((segment) => (segment.kind === 'code' ? [segment.value.trim()] : [])),
    numbers: numbersIn(plain),
  };
}

/** Greedy with no backtracking into the run (linear on any input); a sentence's closing punctuation is cut after. */
const URL = /https?:\/\/[^\s<>()[\]`"']+/g;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
const NUMBER = /\d+(?:\.\d+)*/g;
const FLAG = /(?<![\w-])--?[A-Za-z][\w-]*/g;
/** camelCase, dotted (`node.js`, `ky.extend`) and called (`parse()`) words in prose. */
const IDENTIFIER =
  /(?<![\w$.])(?:[a-z]+[A-Z][\w$]*|[A-Za-z_$][\w$]+(?:\.[A-Za-z_$][\w$]+)+|[A-Za-z_$][\w$]*\(\))/g;
const WORD = /(?<![\w$.-])[\p{L}][\p{L}\p{N}]*/gu;
const NUMBER_WORD = /\p{L}+/gu;

const unique = (values: Iterable<string>): string[] => [...new Set(values)];
const matches = (text: string, pattern: RegExp): string[] => unique(text.match(pattern) ?? []);

/**
 * Capitalised words of the prose: names. The sentence's first word counts only when it is not an ordinary
 * word (a stop word, or one the evidence writes in lower case).
 */
function capitalisedNames(parts: SentenceParts, vocabulary: ReadonlySet<string>): string[] {
  const names: string[] = [];
  let first = true;
  for (const match of parts.prose.matchAll(WORD)) {
    const word = match[0];
    const initial = first;
    first = false;
    if (!/^\p{Lu}/u.test(word)) continue;
    if (initial && isOrdinaryWord(word, vocabulary)) continue;
    names.push(word);
  }
  return unique(names);
}

function numbersIn(plain: string): { token: string; version: boolean }[] {
  const text = plain.replace(DATE, ' ').replace(URL, ' ');
  const digits = [...text.matchAll(NUMBER)].map((match) => {
    const before = text[match.index - 1] ?? '';
    return { token: match[0], version: match[0].includes('.') || before === '@' || /v/i.test(before) };
  });
  const words = (text.toLowerCase().match(NUMBER_WORD) ?? []).flatMap((word) => NUMBER_WORDS[word] ?? []);
  return [...digits, ...words.map((token) => ({ token, version: false }))];
}

/** The checkable tokens of a sentence by kind, and whether a support holds each. */
export const TOKEN_FINDERS = {
  url: (parts: SentenceParts) =>
    unique(matches(parts.plain, URL).map((url) => url.replace(/[.,;:!?]+$/, ''))),
  date: (parts: SentenceParts) => matches(parts.plain, DATE),
  version: (parts: SentenceParts) => unique(parts.numbers.flatMap((n) => (n.version ? [n.token] : []))),
  number: (parts: SentenceParts) => unique(parts.numbers.flatMap((n) => (n.version ? [] : [n.token]))),
  flag: (parts: SentenceParts) => matches(parts.plain.replace(URL, ' '), FLAG),
  code: (parts: SentenceParts) =>
    unique(
      parts.codeSpans.filter((span) => span !== '' && !WHOLE_FLAG.test(span) && !WHOLE_NUMBER.test(span)),
    ),
  identifier: (parts: SentenceParts) => matches(parts.prose.replace(URL, ' '), IDENTIFIER),
  name: (parts: SentenceParts, vocabulary: ReadonlySet<string>) =>
    capitalisedNames({ ...parts, prose: parts.prose.replace(URL, ' ').replace(IDENTIFIER, ' ') }, vocabulary),
} as const;

export type TokenKind = keyof typeof TOKEN_FINDERS;

const WHOLE_FLAG = new RegExp(`^(?:${FLAG.source})$`);
const WHOLE_NUMBER = new RegExp(`^(?:${NUMBER.source})$`);

/** Whether the support holds a token of a kind: numbers by value, the rest as they are written. */
export function supported(kind: TokenKind, token: string, support: Support): boolean {
  if (kind === 'number' || kind === 'version') return support.numbers.has(token);
  if (kind === 'code')
    return occursIn(token, support.text) || occursIn(token.replace(/\s+/g, ' '), support.text);
  return occursIn(token, support.text, { plural: kind === 'name' });
}
