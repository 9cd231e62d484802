import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildCatalog,
  defineDomain,
  specsFor,
  type CatalogOptions,
  type Domain,
  type DomainLifecycle,
  type Mount,
  type UnmountedDomain,
} from '../src/index.js';
import { connectInMemory } from '../src/testing.js';

interface CityConfig {
  /** Whether the city's key is set. */
  keyed: boolean;
}

const { tool } = specsFor<DomainLifecycle, CityConfig>();

const NEEDS = 'CITY_API_KEY, a free key from the city portal';

/** A domain with one tool that needs a key (`arrivals`), one without a stated need, and one always offered. */
const cityDomain: Domain<CityConfig> = defineDomain({
  name: 'city',
  version: '0.0.0',
  title: 'City',
  instructions: 'A city.',
  toolPrefix: 'city',
  config: () => ({ keyed: false }),
  open: () => ({ async close() {} }),
  tools: [
    ...(['arrivals', 'secret_tool', 'places'] as const).map((name) =>
      tool({
        name,
        title: name,
        description: name,
        input: z.strictObject({}),
        output: z.strictObject({ ok: z.boolean().describe('Always true.') }),
        annotations: { readOnlyHint: name !== 'places', openWorldHint: false },
        errorPayload: (error) => ({ error: { code: error.kind, message: error.message } }),
        when: name === 'places' ? undefined : (config) => config.keyed,
        needs: name === 'arrivals' ? NEEDS : undefined,
        handler: () => ({ ok: true }),
      }),
    ),
  ],
});

const mountOf = (config: CityConfig) => ({ domain: cityDomain, config }) as Mount<unknown, DomainLifecycle>;

/** The city domain as a server that did not mount it knows it, counting its loads. */
function unmountedCity(loads: string[]): UnmountedDomain {
  return {
    name: 'city',
    reason: 'CITY_API_KEY is not set; set it to add the city tools',
    load: () => {
      loads.push('city');
      return Promise.resolve(cityDomain);
    },
  };
}

/** What a real client gets for calling `name`: the answer, or the JSON-RPC error's message. */
async function callOutcome(
  mounts: Mount<unknown, DomainLifecycle>[],
  options: CatalogOptions & { era: 'modern' | 'legacy' },
  name: string,
) {
  const connection = await connectInMemory(mounts, options);
  try {
    const listed = (await connection.client.listTools()).tools.map((t) => t.name);
    const instructions = connection.client.getInstructions();
    const answer = await connection.client.callTool({ name, arguments: {} }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    return { listed, instructions, answer };
  } finally {
    await connection.close();
  }
}

describe.each(['modern', 'legacy'] as const)('tools the configuration leaves out (%s era)', (era) => {
  it('answers a call to a tool its configuration leaves out with what it needs, and keeps it out of the listing', async () => {
    const outcome = await callOutcome([mountOf({ keyed: false })], { era }, 'arrivals');
    expect(outcome.listed).toEqual(['places']);
    expect(outcome.answer).toContain(`Tool "arrivals" is off in this server: it needs ${NEEDS}.`);
    expect(outcome.answer).toContain('"env" of its entry');
    expect(outcome.answer).not.toMatch(/Unknown tool/);
    expect(outcome.instructions).toContain(`- city's arrivals: off, it needs ${NEEDS}.`);
    expect(outcome.instructions).toContain("- city's secret_tool: not offered by its configuration.");

    const silent = await callOutcome([mountOf({ keyed: false })], { era }, 'secret_tool');
    expect(silent.answer).toContain(
      'Tool "secret_tool" is off in this server: the configuration of city does not offer it.',
    );
  });

  it('answers a call to a tool of a domain it did not mount with the reason, loading the domain only then', async () => {
    const loads: string[] = [];
    const connection = await connectInMemory([], { era, unmounted: [unmountedCity(loads)] });
    try {
      expect(connection.client.getInstructions()).toContain(
        '- city is not mounted: CITY_API_KEY is not set; set it to add the city tools.',
      );
      expect(loads).toEqual([]);
      const message = await connection.client.callTool({ name: 'arrivals', arguments: {} }).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      expect(message).toContain(
        'Tool "arrivals" is off in this server: its domain, city, is not mounted ' +
          `(CITY_API_KEY is not set; set it to add the city tools); the tool needs ${NEEDS}.`,
      );
      await connection.client.callTool({ name: 'places', arguments: {} }).catch(() => undefined);
      expect(loads).toEqual(['city']);
    } finally {
      await connection.close();
    }
  });

  it('still calls an unknown name unknown, and a tool the filters hide too', async () => {
    const unknown = await callOutcome([mountOf({ keyed: false })], { era }, 'no_such_tool');
    expect(unknown.answer).toMatch(/Unknown tool "no_such_tool"/);
    const denied = await callOutcome(
      [mountOf({ keyed: false })],
      { era, toolsDeny: ['arrivals'] },
      'arrivals',
    );
    expect(denied.answer).toMatch(/Unknown tool "arrivals"/);
    expect(denied.instructions ?? '').not.toContain('arrivals');
    const readOnly = await callOutcome([], { era, readOnly: true, unmounted: [unmountedCity([])] }, 'places');
    expect(readOnly.answer).toMatch(/Unknown tool "places"/);
  });
});

describe('the catalog of tools left out', () => {
  it('names them as a client would call them, prefixed when the server prefixes', async () => {
    const catalog = buildCatalog([mountOf({ keyed: false })], { toolPrefix: true });
    expect(await catalog.unavailable.explain('city_arrivals')).toContain('it needs');
    expect(await catalog.unavailable.explain('arrivals')).toBeUndefined();
    const unmounted = buildCatalog([], { toolPrefix: true, unmounted: [unmountedCity([])] });
    expect(await unmounted.unavailable.explain('city_places')).toContain('its domain, city, is not mounted');
  });

  it('says nothing when every tool it knows is offered', () => {
    expect(buildCatalog([mountOf({ keyed: true })], {}).unavailable.summary()).toBeUndefined();
  });
});
