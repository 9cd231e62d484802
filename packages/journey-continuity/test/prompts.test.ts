// The journey_recap prompt: its arguments are checked the way the tools check theirs, and what it asks the
// model to do names the two calls that find the journey and its recent history.
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

const USER = '123e4567-e89b-42d3-a456-426614174000';
let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe.each(['modern', 'legacy'] as const)('the journey_recap prompt (%s era)', (era) => {
  it('asks for get_or_create_journey, then the history since `days` ago with documents', async () => {
    h = await startHarness({ era });
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['journey_recap']);
    const before = Date.now();
    const got = await h.client.getPrompt({ name: 'journey_recap', arguments: { user_id: USER, days: '7' } });
    const text = got.messages[0]?.content.type === 'text' ? got.messages[0].content.text : '';
    expect(text).toContain(`get_or_create_journey with {"user_id":"${USER}"}`);
    const from = /"from_date":"([^"]+)"/.exec(text)?.[1] ?? '';
    const sevenDays = 7 * 24 * 60 * 60 * 1000;
    expect(Date.parse(from)).toBeGreaterThanOrEqual(before - sevenDays - 1000);
    expect(Date.parse(from)).toBeLessThanOrEqual(Date.now() - sevenDays + 1000);
    expect(text).toContain('"include_documents":true');
  });

  it('refuses a user_id that is not a UUID and days out of range, saying what to send', async () => {
    h = await startHarness({ era });
    await expect(
      h.client.getPrompt({ name: 'journey_recap', arguments: { user_id: 'alice' } }),
    ).rejects.toThrow(/VALIDATION_ERROR: user_id must be a UUID/);
    await expect(
      h.client.getPrompt({ name: 'journey_recap', arguments: { user_id: USER, days: '400' } }),
    ).rejects.toThrow(/days must be a whole number from 1 to 366/);
  });
});
