import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ClaimCollector } from '../../src/pipeline/facts/claim-collector.js';
import { readmeClaims } from '../../src/pipeline/facts/readme.js';
import { snippetId } from '../../src/pipeline/hashing.js';
import { parseMarkdown } from '../../src/pipeline/markdown/document.js';
import type { VerifierBrief } from '../../src/verifier/types.js';

export const CORPUS_DIR = join(import.meta.dirname, '../fixtures/verifier-corpus');

/** The corpus' products: the README copied from the installed package and the facts a run would publish. */
export const CORPUS_PRODUCTS = {
  ky: { readme: 'ky-README.md', name: 'Ky', package_name: 'ky', version: '2.1.0', license: 'MIT' },
  commander: {
    readme: 'commander-README.md',
    name: 'Commander.js',
    package_name: 'commander',
    version: '15.1.0',
    license: 'MIT',
  },
  yaml: { readme: 'yaml-README.md', name: 'YAML', package_name: 'yaml', version: '2.9.1', license: 'ISC' },
} as const;

export type CorpusProduct = keyof typeof CORPUS_PRODUCTS;

export const FAULT_KINDS = [
  'number',
  'version',
  'flag',
  'identifier',
  'name',
  'wrong_claim',
  'uncited',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface CorpusSentence {
  product: CorpusProduct;
  text: string;
  claim_ids: string[];
  label: 'faithful' | 'planted';
  fault?: FaultKind;
}

/**
 * The evidence a writing brief would hold for a product: W2's README claims (the project's own extraction,
 * so claim ids and quotes are the ones a run publishes) and the README's code blocks as snippets.
 */
export function corpusBrief(product: CorpusProduct): VerifierBrief {
  const spec = CORPUS_PRODUCTS[product];
  const path = spec.readme;
  const text = readFileSync(join(CORPUS_DIR, path), 'utf8');
  const lines = text.split('\n');
  const collector = new ClaimCollector((p) => (p === path ? lines : undefined));
  const { installCommand } = readmeClaims(path, text, spec.name, spec.package_name, collector);
  const evidence = collector.list().map((claim) => {
    return { claim_id: claim.claim_id, quote: claim.text, topics: claim.topics };
  });
  const snippets = parseMarkdown(text)
    .blocks.filter((block) => block.type === 'fence' && block.content.trim() !== '')
    .map((block) => ({ snippet_id: snippetId(block.content), content: block.content }));
  return {
    evidence,
    snippets,
    links: [`/docs/${product}/`, `/docs/${product}/getting-started/`, `/docs/${product}/usage/`],
    facts: {
      name: spec.name,
      package_name: spec.package_name,
      version: spec.version,
      license: spec.license,
      install_command: installCommand,
    },
  };
}

export function corpusSentences(): CorpusSentence[] {
  return parseYaml(readFileSync(join(CORPUS_DIR, 'sentences.yaml'), 'utf8')) as CorpusSentence[];
}
