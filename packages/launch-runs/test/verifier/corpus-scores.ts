import { EvidenceIndex } from '../../src/verifier/evidence-index.js';
import { verifyPage } from '../../src/verifier/verify.js';
import type { VerifierResult } from '../../src/verifier/types.js';
import {
  corpusBrief,
  corpusSentences,
  CORPUS_PRODUCTS,
  FAULT_KINDS,
  type CorpusProduct,
  type CorpusSentence,
} from './corpus.js';

/** A corpus sentence as a one-line page: the sentence, then its markers as the drafter writes them. */
export function corpusPage(sentence: CorpusSentence): string {
  const markers = sentence.claim_ids.map((id) => ` <!-- claim_id: ${id} -->`).join('');
  return `${sentence.text}${markers}\n`;
}

export interface CorpusOutcome {
  sentence: CorpusSentence;
  result: VerifierResult;
}

/** Every corpus sentence verified against its product's brief. */
export function verifyCorpus(): CorpusOutcome[] {
  const indexes = new Map(
    (Object.keys(CORPUS_PRODUCTS) as CorpusProduct[]).map((product) => [
      product,
      new EvidenceIndex(corpusBrief(product)),
    ]),
  );
  return corpusSentences().map((sentence) => ({
    sentence,
    result: verifyPage(corpusPage(sentence), indexes.get(sentence.product)!),
  }));
}

export interface ConfusionRow {
  kind: string;
  sentences: number;
  accepted: number;
  refused: number;
}

/** Accepted and refused per label (faithful) and per planted fault kind. */
export function confusionTable(outcomes: readonly CorpusOutcome[]): ConfusionRow[] {
  const kinds = ['faithful', ...FAULT_KINDS];
  return kinds.map((kind) => {
    const rows = outcomes.filter(({ sentence }) => (sentence.fault ?? sentence.label) === kind);
    const accepted = rows.filter(({ result }) => result.accepted).length;
    return { kind, sentences: rows.length, accepted, refused: rows.length - accepted };
  });
}
