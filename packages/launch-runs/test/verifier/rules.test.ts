import { describe, expect, it } from 'vitest';
import { VERIFIER_RULES } from '../../src/verifier/rules.js';
import type { VerifierBrief } from '../../src/verifier/types.js';
import { verifyPage } from '../../src/verifier/verify.js';

const claim = (n: number): string => `c_${n.toString(16).padStart(12, '0')}`;
const cite = (...ids: number[]): string => ids.map((id) => ` <!-- claim_id: ${claim(id)} -->`).join('');
const item = (n: number, quote: string, topics: string[] = []) => ({
  claim_id: claim(n),
  quote,
  topics,
});

const brief: VerifierBrief = {
  evidence: [
    item(1, 'Retries failed requests up to `2` times with the `retry` option.', ['Options', 'retry']),
    item(2, 'Run `npx tool --watch` to rebuild the site on every change.'),
    item(3, 'Tool 1.2.0 was released on 2024-05-01 by Acme; the guide is at https://example.com/docs.'),
    item(4, 'The option defaults to `10000` milliseconds.', ['Options', 'timeout']),
    item(5, 'Use `createClient()` to make a client; `client.get()` sends a request.'),
  ],
  snippets: [{ snippet_id: 's_000000000001', content: 'npx tool --watch', lead_in_claim_id: claim(2) }],
  links: ['/docs/tool/', '/docs/tool/usage/'],
  facts: {
    name: 'Tool',
    package_name: 'tool',
    version: '1.2.0',
    license: 'MIT',
    install_command: 'npm install tool',
  },
};

const codes = (markdown: string): string[] => verifyPage(markdown, brief).issues.map((issue) => issue.code);

const SNIPPET = '<!-- snippet_id: s_000000000001 -->\n```sh\nnpx tool --watch\n```\n';

/** Each rule: a page it refuses (with that code, on `line`: 1 unless said) and the faithful page it accepts. */
const RULE_CASES: Record<string, { refused: string; accepted: string; line?: number }> = {
  SENTENCE_TOO_LONG: {
    refused: `Tool retries failed requests${' again'.repeat(400)}.${cite(1)}\n`,
    accepted: `Tool retries failed requests.${cite(1)}\n`,
  },
  UNKNOWN_CLAIM: {
    refused: `Tool retries failed requests.${cite(255)}\n`,
    accepted: `Tool retries failed requests.${cite(1)}\n`,
  },
  UNCITED_FACT: {
    refused: 'Tool retries failed requests up to 2 times.\n',
    accepted: 'This page walks through a first project.\n',
  },
  UNSUPPORTED_URL: {
    refused: `The guide for Tool is at https://example.org/docs.${cite(3)}\n`,
    accepted: `The guide for Tool is at https://example.com/docs.${cite(3)}\n`,
  },
  UNSUPPORTED_DATE: {
    refused: `Acme released Tool 1.2.0 on 2024-06-01.${cite(3)}\n`,
    accepted: `Acme released Tool 1.2.0 on 2024-05-01.${cite(3)}\n`,
  },
  UNSUPPORTED_VERSION: {
    refused: `Acme released Tool 1.3.0 on 2024-05-01.${cite(3)}\n`,
    accepted: `Acme released version 1.2.0 on 2024-05-01.${cite(3)}\n`,
  },
  UNSUPPORTED_NUMBER: {
    refused: `Failed requests are retried up to three times with the \`retry\` option.${cite(1)}\n`,
    accepted: `Failed requests are retried up to two times with the \`retry\` option.${cite(1)}\n`,
  },
  UNSUPPORTED_FLAG: {
    refused: `Run the tool with --poll to rebuild the site on every change.${cite(2)}\n`,
    accepted: `Run the tool with --watch to rebuild the site on every change.${cite(2)}\n`,
  },
  UNSUPPORTED_CODE: {
    refused: `The \`timeouts\` option defaults to 10000 milliseconds.${cite(4)}\n`,
    accepted: `The \`timeout\` option defaults to 10000 milliseconds.${cite(4)}\n`,
  },
  UNSUPPORTED_IDENTIFIER: {
    refused: `Make a client with createClient() and send a request with client.post().${cite(5)}\n`,
    accepted: `Make a client with createClient() and send a request with client.get().${cite(5)}\n`,
  },
  UNSUPPORTED_NAME: {
    refused: `Like Axios, Tool retries failed requests up to 2 times.${cite(1)}\n`,
    accepted: `Tool retries failed requests up to 2 times.${cite(1)}\n`,
  },
  UNSUPPORTED_NEGATION: {
    refused: `Tool never retries failed requests.${cite(1)}\n`,
    accepted: `Tool retries failed requests.${cite(1)}\n`,
  },
  UNSHARED_WORDS: {
    refused: `Tool caches every response in memory.${cite(1)}\n`,
    accepted: `Tool retries each failed request.${cite(1)}\n`,
  },
  SNIPPET_NOT_IN_EVIDENCE: {
    refused: '<!-- snippet_id: s_000000000001 -->\n```sh\nnpx tool --watch --poll\n```\n',
    accepted: '<!-- snippet_id: s_000000000001 -->\n```sh\nnpx tool --watch\n```\n',
  },
  REPEATED_SENTENCE: {
    refused: `Tool retries failed requests.${cite(1)}\nTool retries failed requests.${cite(1)}\n`,
    accepted: `Tool retries failed requests.${cite(1)}\nFailed requests are retried up to two times with the \`retry\` option.${cite(1)}\n`,
    line: 2,
  },
  REPEATED_SNIPPET: {
    refused: `${SNIPPET}\n${SNIPPET}`,
    accepted: SNIPPET,
    line: 6,
  },
  LEAD_IN_AWAY_FROM_SNIPPET: {
    refused: `Run \`npx tool --watch\` to rebuild the site on every change:${cite(2)}\nTool retries failed requests.${cite(1)}\n\n${SNIPPET}`,
    accepted: `Tool retries failed requests.${cite(1)}\nRun \`npx tool --watch\` to rebuild the site on every change:${cite(2)}\n\n${SNIPPET}`,
  },
  LINK_OUTSIDE_PLAN: {
    refused: 'Read [the reference](/docs/tool/reference/) next.\n',
    accepted: 'Read [the usage page](/docs/tool/usage/) next.\n',
  },
};

describe('verifier rules (issue #37)', () => {
  it('has a case for every rule of the table, and no case without a rule', () => {
    expect(Object.keys(RULE_CASES).sort()).toEqual(VERIFIER_RULES.map((rule) => rule.code).sort());
  });

  for (const [code, { refused, accepted, line }] of Object.entries(RULE_CASES)) {
    it(`${code}: refuses the fault with a message that says how to revise, accepts the faithful line`, () => {
      const result = verifyPage(refused, brief);
      expect(result.accepted).toBe(false);
      const issue = result.issues.find((found) => found.code === code);
      expect(issue, JSON.stringify(result.issues)).toBeDefined();
      expect(issue!.line).toBe(line ?? (refused.startsWith('<!--') ? 2 : 1));
      expect(issue!.message.length).toBeGreaterThan(40);
      expect(codes(accepted)).toEqual([]);
    });
  }

  it('reads a whole page: markers cite the sentence before them, verdicts per sentence with their lines', () => {
    const page = [
      '---',
      'title: Tool',
      '---',
      '# Getting started',
      '',
      `Tool retries failed requests up to 2 times.${cite(1)} The option defaults to 10000`,
      `milliseconds.${cite(4)} Tool retries failed requests quickly.`,
      '',
      `- Run \`npx tool --watch\` to rebuild the site.${cite(2)}`,
      '',
      '<!-- snippet_id: s_000000000001 -->',
      '```sh',
      'npx tool --watch',
      '```',
      '',
      'See [usage](/docs/tool/usage/#options).',
    ].join('\n');
    const result = verifyPage(page, brief);
    expect(result.sentences.map(({ line, accepted, claim_ids }) => ({ line, accepted, claim_ids }))).toEqual([
      { line: 6, accepted: true, claim_ids: [claim(1)] },
      { line: 6, accepted: true, claim_ids: [claim(4)] },
      { line: 7, accepted: false, claim_ids: [] },
      { line: 9, accepted: true, claim_ids: [claim(2)] },
      { line: 16, accepted: true, claim_ids: [] },
    ]);
    expect(result.issues).toEqual([
      expect.objectContaining({
        line: 7,
        code: 'UNCITED_FACT',
        sentence: 'Tool retries failed requests quickly.',
      }),
    ]);
  });

  it('lets the product facts support a cited sentence (name, version, install command)', () => {
    expect(
      codes(`Install Tool 1.2.0 with \`npm install tool\` and run \`npx tool --watch\`.${cite(2)}\n`),
    ).toEqual([]);
  });

  it('answers for any page: a token far longer than any pattern refuses, it does not throw', () => {
    const huge = 'a.'.repeat(150_000);
    for (const marker of [cite(1), '']) {
      const result = verifyPage(`Tool retries \`${huge}\` requests.${marker}\n`, brief);
      expect(result.issues.map((issue) => issue.code)).toEqual(['SENTENCE_TOO_LONG']);
    }
    const long = verifyPage(`Tool retries \`${huge}\` requests.${cite(1)}\n`, brief, {
      maxSentenceChars: 1_000_000,
    });
    expect(long.issues.map((issue) => issue.code)).toContain('UNSUPPORTED_CODE');
  });

  it('reads numbers written as words, up to a million', () => {
    expect(codes(`Failed requests are retried twenty times.${cite(1)}\n`)).toEqual(['UNSUPPORTED_NUMBER']);
    expect(codes(`Failed requests are retried up to twice.${cite(1)}\n`)).toEqual([]);
  });

  it('holds every sentence of a run ended by markers to what they cite, as TruthLock reads a line', () => {
    const run = (first: string): ReturnType<typeof verifyPage> =>
      verifyPage(`${first} The \`retry\` option sets how often.${cite(1)}\n`, brief);
    const faithful = run('Failed requests are retried up to 2 times.');
    expect(faithful.issues).toEqual([]);
    expect(faithful.sentences.map((sentence) => sentence.claim_ids)).toEqual([[claim(1)], [claim(1)]]);
    expect(run('Failed requests are retried up to 7 times.').issues.map((issue) => issue.code)).toEqual([
      'UNSUPPORTED_NUMBER',
    ]);
  });

  it('reads an uncited link to a page of the site as navigation, its text no claim; what the sentence adds still counts', () => {
    expect(codes('See [Install Tool](/docs/tool/usage/) for details.\n')).toEqual([]);
    expect(codes('See [Install Tool](/docs/tool/usage/): it retries failed requests twice.\n')).toEqual([
      'UNCITED_FACT',
    ]);
    expect(codes('See [Install Tool](https://example.com/install) for details.\n')).toContain('UNCITED_FACT');
  });

  it('is deterministic: the same page and brief give the same answer', () => {
    const page = Object.values(RULE_CASES)
      .map((entry) => entry.refused)
      .join('\n');
    expect(verifyPage(page, brief)).toEqual(verifyPage(page, brief));
  });
});
