import { factualReason, statementOf } from '../gates/factual.js';
import { parsePage, type PageDoc } from '../gates/page-doc.js';
import { citedSnippet } from '../gates/snippets-gate.js';
import { EvidenceIndex, normalizeSitePath, occursIn, type Support } from './evidence-index.js';
import { leadInIssues, repetitionIssues, shownSnippets } from './page-rules.js';
import { pageSentences, type PageSentence } from './page-sentences.js';
import {
  DEFAULT_THRESHOLDS,
  ruleMessage,
  TOKEN_RULES,
  type VerifierCode,
  type VerifierThresholds,
} from './rules.js';
import { sentenceParts, supported, TOKEN_FINDERS } from './tokens.js';
import type { SentenceVerdict, VerifierBrief, VerifierIssue, VerifierResult } from './types.js';
import { contentLemmas, negates } from './words.js';

/**
 * Verifies a drafted page against its brief: every factual sentence cites evidence, and what it says
 * (numbers, versions, dates, URLs, flags, code, identifiers, names and its content words) is in what it
 * cites; code blocks are the brief's snippets byte for byte; internal links stay within the plan.
 * Deterministic and linear in the page's length; build the index once per brief for many pages.
 */
export function verifyPage(
  markdown: string,
  brief: VerifierBrief | EvidenceIndex,
  thresholds: Partial<VerifierThresholds> = {},
): VerifierResult {
  const index = brief instanceof EvidenceIndex ? brief : new EvidenceIndex(brief);
  const limits = { ...DEFAULT_THRESHOLDS, ...thresholds };
  const page = parsePage('page.md', markdown);
  const issues: VerifierIssue[] = [];
  // A page cites the same items again and again: each set of claim ids is looked up once per page.
  const supports = new Map<string, Support>();
  const supportOf = (ids: readonly string[]): Support => {
    const key = ids.join(' ');
    let support = supports.get(key);
    if (support === undefined) supports.set(key, (support = index.support(ids)));
    return support;
  };
  const prose = pageSentences(page);
  const sentences: SentenceVerdict[] = prose.map((sentence) => {
    const found = sentenceIssues(sentence, index, supportOf, limits);
    issues.push(...found);
    return {
      line: sentence.line,
      sentence: sentence.text,
      claim_ids: sentence.claimIds,
      accepted: found.length === 0,
      codes: [...new Set(found.map((issue) => issue.code))],
    };
  });
  const { shown, issues: repeatedSnippets } = shownSnippets(page);
  issues.push(
    ...repetitionIssues(prose),
    ...repeatedSnippets,
    ...leadInIssues(page, prose, index.brief, shown),
    ...snippetIssues(page, index),
    ...linkIssues(page, index),
  );
  issues.sort((a, b) => a.line - b.line);
  return { accepted: issues.length === 0, issues, sentences };
}

function sentenceIssues(
  sentence: PageSentence,
  index: EvidenceIndex,
  supportOf: (ids: readonly string[]) => Support,
  limits: VerifierThresholds,
): VerifierIssue[] {
  const issue = (code: VerifierCode, detail: string): VerifierIssue => ({
    line: sentence.line,
    sentence: sentence.text,
    code,
    message: ruleMessage(code, detail),
  });
  if (sentence.text.length > limits.maxSentenceChars)
    return [issue('SENTENCE_TOO_LONG', String(limits.maxSentenceChars))];
  const parts = sentenceParts(sentence.segments);
  const lemmas = contentLemmas(parts.plain).filter((word) => !index.productLemmas.has(word));
  if (sentence.claimIds.length === 0) {
    // "See [Usage](/docs/x/usage/) for details." refers to a page; only what is said besides it can be a fact.
    const said = sentence.pageLinkTexts.reduce(
      (text, linkText) => text.split(linkText).join(' '),
      parts.plain,
    );
    const saidLemmas = contentLemmas(said).filter((word) => !index.productLemmas.has(word));
    return isFactual(said, saidLemmas, index, limits) ? [issue('UNCITED_FACT', '')] : [];
  }
  const unknown = sentence.claimIds.filter((id) => !index.has(id));
  const issues = unknown.map((id) => issue('UNKNOWN_CLAIM', id));
  if (unknown.length === sentence.claimIds.length) return issues;
  const support = supportOf(sentence.claimIds);
  for (const { code, kind } of TOKEN_RULES) {
    for (const token of TOKEN_FINDERS[kind](parts, index.vocabulary)) {
      if (!supported(kind, token, support)) issues.push(issue(code, token));
    }
  }
  if (negates(parts.prose) && !support.negates) issues.push(issue('UNSUPPORTED_NEGATION', ''));
  if (lemmas.length > 0) {
    const unshared = [...new Set(lemmas.filter((word) => !support.lemmas.has(word)))];
    const share = 1 - lemmas.filter((word) => !support.lemmas.has(word)).length / lemmas.length;
    if (share < limits.minSharedWords) {
      const percent = (value: number): string => `${Math.round(value * 100)}%`;
      issues.push(
        issue(
          'UNSHARED_WORDS',
          `${percent(share)} of its content words are in the cited items, ${percent(limits.minSharedWords)} needed; not there: ${unshared.join(', ')}`,
        ),
      );
    }
  }
  return issues;
}

/** TruthLock's factual line, or a sentence that mostly restates the brief's evidence in its words. */
function isFactual(
  plain: string,
  lemmas: string[],
  index: EvidenceIndex,
  limits: VerifierThresholds,
): boolean {
  if (factualReason(statementOf(plain, index.productNames)) !== undefined) return true;
  if (lemmas.length < 2) return false;
  const known = lemmas.filter((word) => index.vocabulary.has(word)).length;
  return known / lemmas.length >= limits.uncitedVocabularyShare;
}

function snippetIssues(page: PageDoc, index: EvidenceIndex): VerifierIssue[] {
  return page.doc.blocks.flatMap((block) => {
    if (block.type !== 'fence' && block.type !== 'code') return [];
    const cited = citedSnippet(page, block.startLine);
    const snippet = cited === undefined ? undefined : index.snippets.get(cited.id);
    const detail =
      cited === undefined
        ? 'The code block has no snippet marker'
        : snippet === undefined
          ? `The snippet marker "${cited.id}" names no snippet of the brief`
          : snippet !== block.content
            ? `The code block differs from snippet ${cited.id}`
            : undefined;
    if (detail === undefined) return [];
    const sentence = page.lines[block.startLine - 1] ?? '';
    return [
      {
        line: block.startLine,
        sentence,
        code: 'SNIPPET_NOT_IN_EVIDENCE',
        message: ruleMessage('SNIPPET_NOT_IN_EVIDENCE', detail),
      },
    ];
  });
}

/** Internal links lead to the plan's pages; external ones must be URLs the brief's evidence or facts give. */
function linkIssues(page: PageDoc, index: EvidenceIndex): VerifierIssue[] {
  const sources = [
    ...index.brief.evidence.map((item) => item.quote),
    index.brief.facts.repository_url ?? '',
  ].join('\n');
  return page.doc.links.flatMap((link) => {
    const sentence = page.lines[link.line - 1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(link.href)) {
      if (!/^https?:/i.test(link.href) || occursIn(link.href, sources)) return [];
      return [
        {
          line: link.line,
          sentence,
          code: 'UNSUPPORTED_URL',
          message: ruleMessage('UNSUPPORTED_URL', link.href),
        },
      ];
    }
    if (link.href.startsWith('#') || index.links.has(normalizeSitePath(link.href))) return [];
    return [
      {
        line: link.line,
        sentence,
        code: 'LINK_OUTSIDE_PLAN',
        message: ruleMessage('LINK_OUTSIDE_PLAN', link.href),
      },
    ];
  });
}
