import type { TokenKind } from './tokens.js';

/**
 * The verifier's rules, one row each: its code, what it refuses, and the message that says what would
 * satisfy it (a model revises from the message alone). Token rules name the token kind they check.
 */
export interface VerifierRule {
  code: string;
  refuses: string;
  message: (detail: string) => string;
  tokens?: TokenKind;
}

const cite = 'cite the evidence item that states it, or leave it out';

export const VERIFIER_RULES = [
  {
    code: 'SENTENCE_TOO_LONG',
    refuses: 'a sentence longer than the longest the verifier reads (maxSentenceChars), unread',
    message: (limit) =>
      `The sentence is longer than ${limit} characters: split it into sentences that each state one thing.`,
  },
  {
    code: 'UNKNOWN_CLAIM',
    refuses: 'a claim marker whose claim_id is not an evidence item of the brief',
    message: (id) =>
      `Claim marker "${id}" names no evidence item of this page's brief: cite one of its claim_ids.`,
  },
  {
    code: 'UNCITED_FACT',
    refuses: 'a factual sentence without a claim marker',
    message: () =>
      'The sentence states a fact but cites nothing: end it with <!-- claim_id: ... --> naming the evidence item it restates, or drop it.',
  },
  {
    code: 'UNSUPPORTED_URL',
    tokens: 'url',
    refuses: 'a URL that is not in the cited evidence or the product facts',
    message: (url) =>
      `The URL ${url} is not in the cited evidence: use a URL the evidence gives, or ${cite}.`,
  },
  {
    code: 'UNSUPPORTED_DATE',
    tokens: 'date',
    refuses: 'a date that is not in the cited evidence',
    message: (date) => `The date ${date} is not in the cited evidence: ${cite}.`,
  },
  {
    code: 'UNSUPPORTED_VERSION',
    tokens: 'version',
    refuses: 'a version that is not in the cited evidence or the product facts',
    message: (version) =>
      `The version ${version} is not in the cited evidence or the product's facts: state the version they give, or ${cite}.`,
  },
  {
    code: 'UNSUPPORTED_NUMBER',
    tokens: 'number',
    refuses: 'a number (digits or a number word) that is not in the cited evidence or the product facts',
    message: (number) =>
      `The number ${number} is not in the cited evidence: state the evidence's figure, or ${cite}.`,
  },
  {
    code: 'UNSUPPORTED_FLAG',
    tokens: 'flag',
    refuses: 'a command-line flag that is not in the cited evidence or the product facts',
    message: (flag) =>
      `The flag ${flag} is not in the cited evidence: name only flags it names, exactly as written.`,
  },
  {
    code: 'UNSUPPORTED_CODE',
    tokens: 'code',
    refuses:
      'a code span (an option, a call, a value) that is not in the cited evidence or the product facts',
    message: (code) =>
      `The code \`${code}\` is not in the cited evidence: quote code exactly as the evidence writes it, or ${cite}.`,
  },
  {
    code: 'UNSUPPORTED_IDENTIFIER',
    tokens: 'identifier',
    refuses: 'an identifier in prose (camelCase, dotted or called) that is not in the cited evidence',
    message: (identifier) =>
      `The identifier ${identifier} is not in the cited evidence: spell identifiers as the evidence does, or ${cite}.`,
  },
  {
    code: 'UNSUPPORTED_NAME',
    tokens: 'name',
    refuses: 'a capitalised name that is not in the cited evidence or the product facts',
    message: (name) =>
      `The name "${name}" is not in the cited evidence: use only the names it uses, or ${cite}.`,
  },
  {
    code: 'UNSUPPORTED_NEGATION',
    refuses: 'a sentence that negates (not, no, never, ...) where its cited evidence negates nothing',
    message: () =>
      'The sentence negates something its cited evidence does not: state what the evidence states, or cite the item that says what is not so.',
  },
  {
    code: 'UNSHARED_WORDS',
    refuses: 'a cited sentence whose content words its cited evidence does not share (below a threshold)',
    message: (detail) =>
      `The cited evidence does not say this (${detail}): restate what the cited items say, or cite the items that say it.`,
  },
  {
    code: 'SNIPPET_NOT_IN_EVIDENCE',
    refuses: 'a code block that is not byte-equal to the brief snippet its marker names',
    message: (detail) =>
      `${detail}: put <!-- snippet_id: ... --> above an unchanged copy of one of the brief's snippets, or remove the block.`,
  },
  {
    code: 'REPEATED_SENTENCE',
    refuses:
      'a sentence of four words or more that the page already says (case and spacing aside; a lead-in ending with a colon may recur)',
    message: (firstLine) =>
      `The page already says this on line ${firstLine}: say it once, and drop or rewrite this repetition.`,
  },
  {
    code: 'REPEATED_SNIPPET',
    refuses: 'a snippet the page already shows',
    message: (detail) =>
      `${detail}: show each snippet once, and refer to it in words where it is needed again.`,
  },
  {
    code: 'LEAD_IN_AWAY_FROM_SNIPPET',
    refuses:
      "a sentence citing a snippet's lead-in that is not the last sentence above that snippet, or whose snippet the page does not show",
    message: (detail) =>
      `${detail}: a lead-in stays directly above its snippet; put it on the line above the snippet's marker, show the snippet below it, or leave the sentence out.`,
  },
  {
    code: 'LINK_OUTSIDE_PLAN',
    refuses: 'an internal link to a page that is not in the plan',
    message: (href) => `The link ${href} leads to no page of the plan: link one of the plan's pages instead.`,
  },
] as const satisfies readonly VerifierRule[];

export type VerifierCode = (typeof VERIFIER_RULES)[number]['code'];

const BY_CODE = new Map<string, VerifierRule>(VERIFIER_RULES.map((rule) => [rule.code, rule]));

export function ruleMessage(code: VerifierCode, detail: string): string {
  return BY_CODE.get(code)!.message(detail);
}

/** The token rules, in table order. */
export const TOKEN_RULES = VERIFIER_RULES.flatMap((rule: VerifierRule) =>
  rule.tokens === undefined ? [] : [{ code: rule.code as VerifierCode, kind: rule.tokens }],
);

/** Thresholds of the word rules (options of verifyPage; defaults measured on the labelled corpus). */
export interface VerifierThresholds {
  /** Least share of a cited sentence's content words its cited evidence must share. */
  minSharedWords: number;
  /** An uncited sentence whose content words the brief's evidence uses at least this much restates it. */
  uncitedVocabularyShare: number;
  /**
   * The longest sentence read, in characters: a longer one is refused unread, which bounds the time one
   * sentence can take (some word rules are not linear in a sentence's length).
   */
  maxSentenceChars: number;
}

export const DEFAULT_THRESHOLDS: VerifierThresholds = {
  minSharedWords: 0.5,
  uncitedVocabularyShare: 0.5,
  maxSentenceChars: 2000,
};
