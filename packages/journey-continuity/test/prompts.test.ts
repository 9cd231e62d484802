// The journey_recap prompt: its arguments are checked the way the tools check theirs, and what it asks the
// model to do names the two calls that find the journey and its recent history.
import { randomUUID } from 'node:crypto';
import { oauthPrincipal } from '@switchyard/server-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, startHarness, storageFor, type Harness } from './helpers.js';

const USER = '123e4567-e89b-42d3-a456-426614174000';

/** What the HTTP layer's OAuth check says about a caller with a token for `subject`. */
function oauthCaller(subject: string, scopes: string[]) {
  return {
    token: `oauth-fingerprint-${subject}`,
    clientId: subject,
    scopes,
    extra: { principal: oauthPrincipal(subject, undefined), oauth: { subject } },
  };
}
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

describe.each(DIALECTS)('journey_recap completions (%s)', (dialect) => {
  it.each(['modern', 'legacy'] as const)(
    "offers the users of the caller's own journeys and the usual days (%s era)",
    async (era) => {
      const storage = await storageFor(dialect);
      const users = [
        '5a8d0000-0000-4000-8000-000000000001',
        '5a8d0000-0000-4000-8000-000000000002',
        '7c000000-0000-4000-8000-000000000003',
      ];
      h = await startHarness({ era, storage });
      for (const user_id of users) await h.ok('get_or_create_journey', { user_id });
      await h.ok('get_or_create_journey', {}); // anonymous: no user to offer
      const complete = async (name: string, value: string) =>
        (
          await h!.client.complete({
            ref: { type: 'ref/prompt', name: 'journey_recap' },
            argument: { name, value },
          })
        ).completion.values;
      // (Most recently updated first; these three were made within moments of each other.)
      expect((await complete('user_id', '5A8D')).sort()).toEqual([users[0], users[1]]);
      expect((await complete('user_id', '')).sort()).toEqual(users);
      expect(await complete('user_id', 'ffff')).toEqual([]);
      expect(await complete('days', '1')).toEqual(['14', '180']);
      expect(await complete('days', '')).toEqual(['7', '14', '30', '90', '180', '365']);

      // Under OAuth, the caller's own journeys are its subject's, whatever case its token spells it in;
      // another principal's are not its to offer.
      const subject = randomUUID().toUpperCase();
      const asUser = (token: string) =>
        startHarness({
          storage,
          dataDir: h!.dataDir,
          authInfo: oauthCaller(token, ['journey:read', 'journey:write']),
        });
      const user = await asUser(subject);
      const other = await asUser('someone-else');
      try {
        await user.ok('get_or_create_journey', { user_id: subject });
        const recap = { type: 'ref/prompt', name: 'journey_recap' } as const;
        const own = await user.client.complete({ ref: recap, argument: { name: 'user_id', value: '' } });
        expect(own.completion.values).toEqual([subject.toLowerCase()]);
        const theirs = await other.client.complete({ ref: recap, argument: { name: 'user_id', value: '' } });
        expect(theirs.completion.values).toEqual([]);
      } finally {
        await user.stop();
        await other.stop();
      }
    },
  );
});
