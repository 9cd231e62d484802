// The commute prompt: offered with the HSL provider, its arguments complete from the caller's saved
// locations, and what it asks the model to do names plan_trip with those labels.
import { describe, expect, it } from 'vitest';
import { startHarness, useHarness } from './helpers.js';

describe.each(['modern', 'legacy'] as const)('the commute prompt (%s era)', (era) => {
  const h = useHarness({ era });

  it('is listed, with its arguments, and no tool repeats the icon', async () => {
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['commute']);
    expect(prompts[0]?.arguments?.map((a) => [a.name, a.required])).toEqual([
      ['from', true],
      ['to', true],
      ['leave_at', false],
    ]);
    const { tools } = await h.client.listTools();
    for (const tool of tools) expect(tool.icons, tool.name).toBeUndefined();
  });

  it("completes from the caller's saved locations only, by prefix", async () => {
    await h.call('save_user_variable', {
      key: `home-${era}`,
      value: { type: 'location', lat: 60.17, lon: 24.94 },
    });
    await h.call('save_user_variable', {
      key: `harbour-${era}`,
      value: { type: 'location', lat: 60.16, lon: 24.95 },
    });
    await h.call('save_user_variable', {
      key: `hstop-${era}`,
      value: { type: 'stop', stopId: 'HSL:1040129' },
    });
    const { completion } = await h.client.complete({
      ref: { type: 'ref/prompt', name: 'commute' },
      argument: { name: 'from', value: 'H' },
    });
    expect(completion.values.sort()).toEqual([`harbour-${era}`, `home-${era}`]);
  });

  it('asks for plan_trip between the two labels, leaving now unless a time is given', async () => {
    const now = await h.client.getPrompt({ name: 'commute', arguments: { from: 'home', to: 'work' } });
    const text = now.messages[0]?.content.type === 'text' ? now.messages[0].content.text : '';
    expect(text).toContain('Call plan_trip with');
    expect(text).toContain(
      '{"origin":{"type":"label","value":"home"},"destination":{"type":"label","value":"work"},"when":{"type":"depart","time":"now"}}',
    );
    const later = await h.client.getPrompt({
      name: 'commute',
      arguments: { from: 'home', to: 'work', leave_at: '2026-11-24T08:15:00+02:00' },
    });
    expect(JSON.stringify(later.messages)).toContain('2026-11-24T08:15:00+02:00');
    await expect(h.client.getPrompt({ name: 'commute', arguments: { from: 'home' } })).rejects.toThrow(
      /"to"/,
    );
  });
});

describe('without the HSL provider', () => {
  it('offers no commute prompt (plan_trip is not there to answer it)', async () => {
    const h = await startHarness({ env: { TRANSIT_PROVIDERS: 'tfl' } });
    try {
      expect(h.client.getServerCapabilities()?.prompts).toBeUndefined();
    } finally {
      await h.close();
    }
  });
});
