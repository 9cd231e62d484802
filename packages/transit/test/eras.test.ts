// A representative flow in both protocol eras (2026-07-28 without a handshake, and the 2025 handshake):
// planJourney, get_london_arrivals, get_departures by id and by a saved stop, and the saved-place tools. Which
// tools a server offers follows its configuration: the London tools with TfL, the HSL tools with Digitransit,
// saved places always.
import {
  GetDeparturesOutputSchema,
  GetLondonArrivalsOutputSchema,
  GetUserVariablesOutputSchema,
  PlanJourneyOutputSchema,
  SaveUserVariableOutputSchema,
} from '@switchyard/contracts/transit';
import { errorOf } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { startHarness, useHarness } from './helpers.js';

const SAVED_PLACE_TOOLS = ['delete_user_variable', 'get_user_variables', 'save_user_variable'];
const TFL_TOOLS = ['planJourney', 'get_london_arrivals', 'get_line_status', 'find_london_stops'];
const HSL_TOOLS = ['find_stops', 'get_departures', 'plan_trip'];
const STOP = { type: 'stop', stopId: 'HSL:1040129', name: 'Arkadian puisto' } as const;

describe.each(['modern', 'legacy'] as const)('transit in the %s protocol era', (era) => {
  const h = useHarness({ era });

  it('lists all ten tools when both providers are configured', async () => {
    const { tools } = await h.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [...TFL_TOOLS, ...HSL_TOOLS, ...SAVED_PLACE_TOOLS].sort(),
    );
  });

  it('get_london_arrivals answers its envelope, success and failure', async () => {
    const ok = await h.call('get_london_arrivals', { stop: { type: 'id', value: '940GZZLUOXC' }, limit: 2 });
    expect(ok.isError).toBe(false);
    expect(GetLondonArrivalsOutputSchema.parse(ok.structured)).toMatchObject({ success: true, code: 'OK' });
    const unknown = await h.call('get_london_arrivals', { stop: { type: 'id', value: '940GZZLUNOPE' } });
    expect(unknown.isError).toBe(true);
    expect(unknown.structured).toMatchObject({ success: false, code: 'VALIDATION_ERROR', arrivals: null });
  });

  it('planJourney answers its envelope, success and failure', async () => {
    const ok = await h.call('planJourney', { from: 'Bank', to: 'Mile End' });
    expect(ok.isError).toBe(false);
    expect(PlanJourneyOutputSchema.parse(ok.structured)).toMatchObject({ success: true, code: 'OK' });
    expect(JSON.parse(ok.text)).toEqual(ok.structured);

    const invalid = await h.call('planJourney', { from: '  ', to: 'Mile End' });
    expect(invalid.isError).toBe(true);
    expect(invalid.structured).toMatchObject({ success: false, code: 'VALIDATION_ERROR', topJourneys: null });
  });

  it('get_departures by id and by a saved stop; bad input is validation-error with a hint', async () => {
    const byId = await h.call('get_departures', { stop: { type: 'id', value: 'HSL:1040129' } });
    expect(byId.isError).toBe(false);
    expect(GetDeparturesOutputSchema.parse(byId.structured).departures.length).toBeGreaterThan(0);

    await h.call('save_user_variable', { key: `stop-${era}`, value: STOP });
    const byLabel = await h.call('get_departures', { stop: { type: 'label', value: `stop-${era}` } });
    expect(byLabel.isError, byLabel.text).toBe(false);
    const asked = h.digitransit.requests.map((r) => JSON.parse(r.body).variables.id as string);
    expect(asked).toEqual([STOP.stopId, STOP.stopId]);

    const invalid = await h.call('get_departures', { stop: { type: 'id', value: 'HSL:1040129' }, limit: 0 });
    expect(errorOf(invalid)).toMatchObject({
      code: 'validation-error',
      hint: 'limit is a whole number from 1 to 50 (default 10).',
    });
  });

  it('saves, overwrites, lists and deletes a saved place', async () => {
    const key = `home-${era}`;
    const home = { type: 'location', lat: 60.1699, lon: 24.9384 } as const;
    expect((await h.call('save_user_variable', { key, value: home })).isError).toBe(false);
    const overwritten = SaveUserVariableOutputSchema.parse(
      (await h.call('save_user_variable', { key, value: STOP })).structured,
    );
    expect(overwritten).toMatchObject({ previous: home, warnings: [{ code: 'key-overwritten' }] });
    const listed = GetUserVariablesOutputSchema.parse(
      (await h.call('get_user_variables', { key })).structured,
    );
    expect(listed.variables).toMatchObject([{ key, value: STOP }]);
    expect((await h.call('delete_user_variable', { key })).structured).toMatchObject({ deleted: { key } });
    expect(errorOf(await h.call('delete_user_variable', { key }))).toMatchObject({ code: 'not-found' });
  });
});

describe('tools offered by configuration', () => {
  it.each([
    ['tfl', [...TFL_TOOLS, ...SAVED_PLACE_TOOLS]],
    ['hsl', [...HSL_TOOLS, ...SAVED_PLACE_TOOLS]],
  ])('TRANSIT_PROVIDERS=%s offers %j', async (providers, expected) => {
    const h = await startHarness({ env: { TRANSIT_PROVIDERS: providers } });
    try {
      const { tools } = await h.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...expected].sort());
      // Left out, not unknown: a call says which key to set, and the instructions name the tools left out.
      const [hidden, key] =
        providers === 'tfl'
          ? ['get_departures', 'DIGITRANSIT_SUBSCRIPTION_KEY']
          : ['planJourney', 'TFL_API_KEY'];
      await expect(h.client.callTool({ name: hidden, arguments: {} })).rejects.toThrow(
        new RegExp(`Tool "${hidden}" is off in this server: it needs ${key} \\(a free key from`),
      );
      expect(h.client.getInstructions()).toContain(`${hidden}`);
    } finally {
      await h.close();
    }
  });
});
