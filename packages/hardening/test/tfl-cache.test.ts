import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../src/harness/mcp-client.js';
import { startWorld, type World } from '../src/harness/world.js';
import { classify } from '../src/outcome.js';
import { toolContract } from '../src/tools.js';

/**
 * TfL's caching hints through the combined `switchyard` bin over Streamable HTTP with its default settings:
 * several clients, each on its own connection, asking the same London stop at once and again within TfL's
 * lifetime cost the upstream one request (the mock's request log counts them).
 */
const CLIENTS = 5;
const OXFORD_CIRCUS = { stop: { type: 'id', value: '940GZZLUOXC' } };

let world: World;
let clients: Client[];

beforeAll(async () => {
  world = await startWorld({ name: 'tfl-cache' });
  clients = await Promise.all(Array.from({ length: CLIENTS }, () => world.connect()));
});

afterAll(async () => {
  world.scanLogs();
  await world?.close();
});

async function ask(client: Client) {
  const answer = await callTool(client, 'get_london_arrivals', OXFORD_CIRCUS);
  world.scanner.scan('get_london_arrivals answer', answer);
  return classify(toolContract('get_london_arrivals'), answer);
}

describe('get_london_arrivals: TfL answer cache across clients', () => {
  it(`${CLIENTS} clients asking the same stop, at once and then again, cost one TfL request`, async () => {
    world.upstreams.reset();
    const atOnce = await Promise.all(clients.map((client) => ask(client)));
    const again = await Promise.all(clients.map((client) => ask(client)));
    for (const outcome of [...atOnce, ...again])
      expect(outcome.kind, JSON.stringify(outcome)).toBe('success');
    const requests = world.upstreams.tfl.requests.filter((r) => r.endpoint === 'tfl-arrivals');
    expect(requests).toHaveLength(1);
    expect(world.scanner.found()).toEqual([]);
    world.assertHealthy();
  });
});
