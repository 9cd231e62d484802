// The claim verifier's part of the benchmark (issue #37): its figures on the labelled corpus, and the time it
// takes to verify a 2,000-word page against its brief, floored by parsing that page alone.
import { parsePage } from '../src/gates/page-doc.js';
import { EvidenceIndex } from '../src/verifier/evidence-index.js';
import { verifyPage } from '../src/verifier/verify.js';
import { corpusBrief, corpusSentences, CORPUS_PRODUCTS } from '../test/verifier/corpus.js';
import { confusionTable, corpusPage, verifyCorpus } from '../test/verifier/corpus-scores.js';

export const VERIFIER_PAGE_WORDS = 2000;

/** The corpus lines the report reads: a summary, then one line per label or fault kind. */
export function verifierCorpusLines(): string[] {
  const outcomes = verifyCorpus();
  const perProduct = Object.keys(CORPUS_PRODUCTS)
    .map((product) => `${product} ${outcomes.filter(({ sentence }) => sentence.product === product).length}`)
    .join(', ');
  return [
    `verifier corpus: ${outcomes.length} sentences (${perProduct})`,
    ...confusionTable(outcomes).map(
      (row) =>
        `verifier corpus ${row.kind.padEnd(12)} n=${String(row.sentences).padStart(4)}  accepted ${String(row.accepted).padStart(3)}  refused ${String(row.refused).padStart(3)}`,
    ),
  ];
}

/** A page of at least 2,000 words: ky's corpus sentences with their markers, four to a paragraph, and a snippet. */
export function verifierBenchPage(): string {
  const brief = corpusBrief('ky');
  const sentences = corpusSentences().filter((sentence) => sentence.product === 'ky');
  const snippet = brief.snippets[0]!;
  const paragraphs: string[] = ['# Ky', ''];
  let words = 0;
  for (let index = 0; words < VERIFIER_PAGE_WORDS; index += 1) {
    const sentence = sentences[index % sentences.length]!;
    words += sentence.text.split(/\s+/).length;
    paragraphs.push(corpusPage(sentence).trimEnd());
    if (index % 4 === 3) paragraphs.push('');
    if (index % 20 === 19)
      paragraphs.push(`<!-- snippet_id: ${snippet.snippet_id} -->`, '```js', snippet.content, '```', '');
  }
  return `${paragraphs.join('\n')}\n`;
}

/** Times of verifying the bench page (the brief indexed once, as a run does) and of parsing it alone. */
export function timeVerifier(pages: number): { verify: number[]; parse: number[] } {
  const index = new EvidenceIndex(corpusBrief('ky'));
  const page = verifierBenchPage();
  const verify: number[] = [];
  const parse: number[] = [];
  for (let i = 0; i < pages; i += 1) {
    let start = performance.now();
    parsePage('page.md', page);
    parse.push(performance.now() - start);
    start = performance.now();
    verifyPage(page, index);
    verify.push(performance.now() - start);
  }
  return { verify, parse };
}
