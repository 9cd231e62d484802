// The journey_recap prompt's rules no other test held (found by mutation testing): the range and default of
// `days`, every problem reported at once, and the exact calls the recap asks for.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

const USER = '123e4567-e89b-42d3-a456-426614174000';
const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());
afterEach(() => vi.useRealTimers());

async function recap(args: Record<string, string>): Promise<string> {
  const got = await h.client.getPrompt({ name: 'journey_recap', arguments: args });
  return got.messages[0]?.content.type === 'text' ? got.messages[0].content.text : '';
}

describe('the journey_recap prompt', () => {
  it('needs user_id; days is optional', async () => {
    const { prompts } = await h.client.listPrompts();
    expect(prompts[0]?.arguments?.map((a) => [a.name, a.required])).toEqual([
      ['user_id', true],
      ['days', false],
    ]);
    await expect(recap({ days: '7' })).rejects.toThrow('needs "user_id"');
  });

  it.each([
    ['absent', 30, undefined],
    ['empty', 30, ''],
    ['blank', 30, '   '],
    ['1, the least', 1, '1'],
    ['366, the most', 366, '366'],
    ['padded', 7, ' 7 '],
  ])(
    'days %s looks back %i days from now, with documents, 100 sessions at most',
    async (_what, expected, days) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(NOW);
      const text = await recap(days === undefined ? { user_id: USER } : { user_id: USER, days });
      const from = new Date(NOW - expected * DAY_MS).toISOString();
      expect(text).toContain(`Summarise my journey over the last ${expected} days.`);
      expect(text).toContain(
        `query_journey_history with its journey_id, {"from_date":"${from}","include_documents":true,"limit":100}`,
      );
      expect(text).toContain('do not invent anything the history does not say');
    },
  );

  it.each([['0'], ['367'], ['1.5'], ['-3'], ['a week'], ['0x1e'], ['1e2'], ['+5']])(
    'days %s is refused, saying the range',
    async (days) => {
      await expect(recap({ user_id: USER, days })).rejects.toThrow(
        /VALIDATION_ERROR: days must be a whole number from 1 to 366/,
      );
    },
  );

  it('reports every problem at once', async () => {
    await expect(recap({ user_id: 'alice', days: '0' })).rejects.toThrow(
      /user_id must be a UUID, e\.g\. [0-9a-f-]+; days must be a whole number from 1 to 366/,
    );
  });
});
