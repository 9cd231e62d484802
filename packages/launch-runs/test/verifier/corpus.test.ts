import { describe, expect, it } from 'vitest';
import { CORPUS_PRODUCTS, FAULT_KINDS } from './corpus.js';
import { confusionTable, verifyCorpus } from './corpus-scores.js';

/** Planted faults of these kinds are never accepted (issue #37's hard target). */
const NEVER_ACCEPTED = ['number', 'version', 'flag', 'identifier', 'name'] as const;

describe('verifier corpus (issue #37: measured, not assumed)', () => {
  const outcomes = verifyCorpus();
  const table = confusionTable(outcomes);
  const faithful = table.find((row) => row.kind === 'faithful')!;
  const planted = table.filter((row) => row.kind !== 'faithful');
  const plantedTotal = planted.reduce((sum, row) => sum + row.sentences, 0);
  const falseAccepts = planted.reduce((sum, row) => sum + row.accepted, 0);
  console.log(
    [
      '| sentences | count | accepted | refused |',
      '| --- | ---: | ---: | ---: |',
      ...table.map((row) => `| ${row.kind} | ${row.sentences} | ${row.accepted} | ${row.refused} |`),
    ].join('\n'),
  );

  it('has at least 200 sentences over three packages, about half faithful, every fault kind planted', () => {
    expect(outcomes.length).toBeGreaterThanOrEqual(200);
    for (const product of Object.keys(CORPUS_PRODUCTS)) {
      const labels = new Set(
        outcomes.filter(({ sentence }) => sentence.product === product).map((o) => o.sentence.label),
      );
      expect([...labels].sort(), product).toEqual(['faithful', 'planted']);
    }
    expect(faithful.sentences / outcomes.length).toBeGreaterThanOrEqual(0.45);
    expect(faithful.sentences / outcomes.length).toBeLessThanOrEqual(0.55);
    for (const kind of FAULT_KINDS)
      expect(table.find((row) => row.kind === kind)!.sentences).toBeGreaterThanOrEqual(10);
  });

  it('never accepts a planted wrong number, version, flag, identifier or name', () => {
    for (const kind of NEVER_ACCEPTED) {
      const accepted = outcomes.filter(({ sentence, result }) => sentence.fault === kind && result.accepted);
      expect(
        accepted.map(({ sentence }) => sentence.text),
        kind,
      ).toEqual([]);
    }
  });

  it('accepts at most 2% of planted sentences overall', () => {
    expect(falseAccepts / plantedTotal).toBeLessThanOrEqual(0.02);
  });

  it('refuses at most 10% of faithful paraphrases', () => {
    expect(faithful.refused / faithful.sentences).toBeLessThanOrEqual(0.1);
  });

  it('refuses every planted sentence with a message naming what would satisfy the rule', () => {
    for (const { sentence, result } of outcomes) {
      if (sentence.label !== 'planted' || result.accepted) continue;
      expect(result.issues.length).toBeGreaterThan(0);
      for (const issue of result.issues) expect(issue.message).toMatch(/:/);
    }
  });
});
