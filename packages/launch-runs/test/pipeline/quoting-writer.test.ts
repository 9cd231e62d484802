import { describe, expect, it } from 'vitest';
import { quotingDraft } from '../../src/pipeline/quoting-writer.js';
import { verifyPage } from '../../src/verifier/verify.js';

const claim = (n: number): string => `c_${n.toString(16).padStart(12, '0')}`;
const snippetId = (n: number): string => `s_${n.toString(16).padStart(12, '0')}`;
const evidence = (n: number, quote: string) => ({
  claim_id: claim(n),
  kind: 'usage' as const,
  quote,
  topics: [],
  sources: [],
});
const snippet = (n: number, content: string, leadIn: number | null) => ({
  snippet_id: snippetId(n),
  language: 'js',
  content,
  topics: [],
  sources: [],
  lead_in_claim_id: leadIn === null ? null : claim(leadIn),
});

// A usage section as ky's README gives it: three examples, each with the sentence that introduces it, and the
// package's one-line description said twice (as tagline and as sentence).
const page = {
  sections: [
    {
      heading: 'Usage',
      claim_ids: [claim(1), claim(2), claim(3), claim(4), claim(5)],
      snippet_ids: [snippetId(1), snippetId(2), snippetId(3)],
    },
  ],
  evidence: [
    evidence(1, 'Tiny and elegant HTTP client based on the Fetch API.'),
    evidence(2, 'Tiny and elegant HTTP client based on the Fetch API.'),
    evidence(3, 'With ky, a JSON request is one line:'),
    evidence(4, 'With plain fetch, it would be:'),
    evidence(5, 'Hooks change a request before it is sent:'),
  ],
  snippets: [
    snippet(1, "const json = await ky.post('https://example.com', {json: {foo: true}}).json();", 3),
    snippet(2, "const response = await fetch('https://example.com', {method: 'POST'});", 4),
    snippet(3, 'const api = ky.extend({hooks: {beforeRequest: []}});', 5),
  ],
};
const brief = {
  evidence: page.evidence,
  snippets: page.snippets,
  links: [],
  facts: { name: 'ky' },
};

describe('the scripted writer (quotingDraft)', () => {
  it('keeps each lead-in directly above its snippet and says each quote once, as the verifier holds it to', () => {
    const markdown = quotingDraft(page);
    const lines = markdown.split('\n');
    for (const [leadIn, shown] of [
      [3, 1],
      [4, 2],
      [5, 3],
    ] as const) {
      const sentence = lines.findIndex((line) => line.includes(claim(leadIn)));
      expect(lines.slice(sentence + 1, sentence + 3)).toEqual([
        '',
        `<!-- snippet_id: ${snippetId(shown)} -->`,
      ]);
    }
    expect(markdown.split('Tiny and elegant HTTP client').length - 1).toBe(1);
    expect(verifyPage(markdown, brief).issues).toEqual([]);
  });

  it('is refused when it stacks the lead-ins above the snippets, as the extractive drafter once did', () => {
    const stacked = [
      '## Usage',
      '',
      `With ky, a JSON request is one line: <!-- claim_id: ${claim(3)} -->`,
      `With plain fetch, it would be: <!-- claim_id: ${claim(4)} -->`,
      '',
      ...page.snippets.flatMap(({ snippet_id, content }) => [
        `<!-- snippet_id: ${snippet_id} -->`,
        '',
        '````js',
        content,
        '````',
        '',
      ]),
    ].join('\n');
    const refused = verifyPage(stacked, brief).issues;
    expect(refused.map((issue) => [issue.code, issue.sentence])).toEqual([
      ['LEAD_IN_AWAY_FROM_SNIPPET', 'With ky, a JSON request is one line:'],
      // Directly above the ky example, which it does not introduce: issue #37's first defect.
      ['LEAD_IN_AWAY_FROM_SNIPPET', 'With plain fetch, it would be:'],
    ]);
  });
});
