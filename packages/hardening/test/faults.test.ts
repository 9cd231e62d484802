import type { Client } from '@modelcontextprotocol/client';
import type { ProtocolEra } from '@switchyard/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, NORMAL_CALLS, TRANSIT_TABLES } from '../src/faults.js';
import { callTool } from '../src/harness/mcp-client.js';
import { startWorld, type World } from '../src/harness/world.js';
import { classify } from '../src/outcome.js';
import { currentProfile } from '../src/profile.js';
import { toolContract } from '../src/tools.js';

/**
 * Every upstream failure the issue lists, once per transit tool, through the combined `switchyard` bin over
 * Streamable HTTP (fast: in the default era, HARDENING_ERA or modern; full: in both eras): the contract's
 * code, a truthful retryable/retryAfter, bounded attempts, the next normal call succeeds, no secret in any
 * answer or log line, and the process never reports an unhandled rejection.
 */
const TRANSIT_TOOLS = [
  'planJourney',
  'get_london_arrivals',
  'get_line_status',
  'find_london_stops',
  'get_departures',
  'plan_trip',
  'find_stops',
] as const;

let world: World;
const clients = new Map<ProtocolEra, Client>();

beforeAll(async () => {
  // The TfL answer cache off: each fault below must reach the mock, not an answer cached a test earlier
  // (the cache has its own tests in packages/transit).
  world = await startWorld({
    name: 'faults',
    upstreamTimeoutMs: 400,
    extraEnv: { TFL_CACHE_MAX_ENTRIES: '0' },
  });
  for (const era of currentProfile().faultEras) clients.set(era, await world.connect(era));
});

afterAll(async () => {
  world.scanLogs();
  await world?.close();
});

async function call(era: ProtocolEra, tool: string, args: Record<string, unknown>) {
  const answer = await callTool(clients.get(era)!, tool, args, { timeoutMs: 30_000 });
  world.scanner.scan(`${tool} answer`, answer);
  return classify(toolContract(tool), answer);
}

describe.each(currentProfile().faultEras.flatMap((era) => TRANSIT_TOOLS.map((tool) => [era, tool] as const)))(
  '%s era: %s under upstream faults',
  (era, tool) => {
    const contract = toolContract(tool);
    const upstream = contract.upstream!;
    const table = TRANSIT_TABLES[tool]!;

    it('answers normally before any fault', async () => {
      world.upstreams.reset();
      expect((await call(era, tool, NORMAL_CALLS[tool]!)).kind).toBe('success');
    });

    for (const fault of FAULTS.filter((f) => f.upstreams.includes(upstream))) {
      it(`${fault.name}: the contract's code, truthful retry information, then a normal call succeeds`, async () => {
        world.upstreams.reset();
        fault.apply(world.upstreams, upstream);
        const outcome = await call(era, tool, NORMAL_CALLS[tool]!);
        const attempts = (upstream === 'tfl' ? world.upstreams.tfl : world.upstreams.digitransit).requests
          .length;
        world.upstreams.reset();

        expect(outcome.kind, JSON.stringify(outcome)).toBe('error');
        if (outcome.kind !== 'error') return;
        const code = table.byKind[fault.kind];
        expect(outcome.code).toBe(code);
        expect(outcome.retryable).toBe(table.codes[code]!.retryable);
        expect(outcome.message.length).toBeGreaterThan(10);
        if (typeof fault.retryAfter === 'number') {
          expect(outcome.retryAfter).toBe(fault.retryAfter);
        } else if (fault.retryAfter === 'unknown') {
          // The upstream named no wait: the answer may not invent a long one.
          if (outcome.retryAfter !== undefined) expect(outcome.retryAfter).toBeLessThanOrEqual(1);
        } else {
          expect(outcome.retryAfter).toBeUndefined();
        }
        expect(attempts).toBeGreaterThanOrEqual(1);
        expect(attempts).toBeLessThanOrEqual(fault.retried ? 3 : 1);

        const next = await call(era, tool, NORMAL_CALLS[tool]!);
        expect(next.kind, JSON.stringify(next)).toBe('success');
        world.assertHealthy();
      });
    }

    it('honours a short Retry-After within the retry budget and then succeeds', async () => {
      world.upstreams.reset();
      const mock = upstream === 'tfl' ? world.upstreams.tfl : world.upstreams.digitransit;
      mock.scenario('rate-limited', { times: 1, retryAfterSeconds: 1 });
      const outcome = await call(era, tool, NORMAL_CALLS[tool]!);
      expect(outcome.kind, JSON.stringify(outcome)).toBe('success');
      expect(mock.requests.length).toBeGreaterThanOrEqual(2);
      const [first, second] = mock.requests;
      expect(second!.receivedAt.getTime() - first!.receivedAt.getTime()).toBeGreaterThanOrEqual(950);
    });
  },
);

describe('after every fault scenario', () => {
  it('no answer and no log line holds a configured secret, and the process reported no defect', () => {
    world.assertHealthy();
    world.scanLogs();
    expect(world.scanner.count).toBeGreaterThan(100);
    expect(world.scanner.found()).toEqual([]);
  });
});
