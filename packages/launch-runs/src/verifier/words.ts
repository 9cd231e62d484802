/**
 * Words as the verifier compares them: lower case, lightly lemmatised (one suffix off, a final `e` off),
 * stop words and documentation verbs left out. Tables, not branches, so a reader can see what counts.
 */

/** Function words and the verbs and adverbs any documentation sentence uses: they carry no claim. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also although always am an and another any are as at be because ' +
    'been before being below between both but by call can could did do does doing done each either else ' +
    'even ever every for from further get gets had has have having here how however if in instead into is ' +
    'it its itself just least let lets like make makes may might more most much must need needs no nor not ' +
    'now of off often on once one only or other others otherwise our out over own per rather same see ' +
    'should since so some such than that the their them then there these they this those though through ' +
    'thus to together too under unless until up upon use used uses using very via was way we well were ' +
    'what whatever when whenever where whereas whether which while who whom whose why will with within ' +
    'without would yet you your yours'
  ).split(' '),
);

/** Number words a sentence may state instead of digits ("one" is left out: it is mostly a pronoun). */
export const NUMBER_WORDS: Readonly<Record<string, string>> = {
  two: '2',
  twice: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  dozen: '12',
  thirteen: '13',
  fourteen: '14',
  fifteen: '15',
  sixteen: '16',
  seventeen: '17',
  eighteen: '18',
  nineteen: '19',
  twenty: '20',
  thirty: '30',
  forty: '40',
  fifty: '50',
  sixty: '60',
  seventy: '70',
  eighty: '80',
  ninety: '90',
  hundred: '100',
  thousand: '1000',
  million: '1000000',
};

/** Words that negate what a sentence says (and the `n't` of `don't`, `isn't`, ...). */
const NEGATION = /\b(?:not|no|never|cannot|none|nothing|neither|nor|without)\b|n't\b/i;

export function negates(text: string): boolean {
  return NEGATION.test(text.replace(/\u2019/g, "'"));
}

/** Suffixes taken off (the first that fits, leaving at least three letters), with their replacement. */
const SUFFIXES: readonly (readonly [string, string])[] = [
  ['ations', ''],
  ['ation', ''],
  ['ies', 'y'],
  ['ied', 'y'],
  ['ing', ''],
  ['ed', ''],
  ['es', ''],
  ['ly', ''],
  ['s', ''],
];

/** The light lemma of a lower-case word: `retries`, `retried`, `retrying` and `retry` are one. */
export function lemma(word: string): string {
  let stem = word;
  for (const [suffix, replacement] of SUFFIXES) {
    if (stem.endsWith(suffix) && stem.length - suffix.length >= 3) {
      stem = stem.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  return stem.length > 3 && stem.endsWith('e') ? stem.slice(0, -1) : stem;
}

/** The lemmas of a text's content words (identifiers split into their words: `statusCodes`, `status_codes`). */
export function contentLemmas(text: string): string[] {
  const words =
    text
      .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [];
  return words.filter((word) => word.length > 1 && !STOP_WORDS.has(word)).map(lemma);
}

/** Whether a word is an ordinary one (a stop word, or a word the evidence uses in lower case). */
export function isOrdinaryWord(word: string, vocabulary: ReadonlySet<string>): boolean {
  const lower = word.toLowerCase();
  return STOP_WORDS.has(lower) || vocabulary.has(lemma(lower));
}
