// Two `switchyard --http` processes on one data directory behind a round-robin proxy: HTTP is stateless in
// both protocol eras (no session to pin a client to a process), so any process can answer any request.
import { startDigitransitMock, type DigitransitMock } from '@switchyard/upstream-mocks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEraClient, type EraClient } from './era-clients.js';
import { departures, searchJourney, writeJourney } from './flows.js';
import { JOURNEY_TOOLS, LAUNCH_TOOLS, spawnHttpServer, tempDir, type SpawnedServer } from './helpers.js';
import { startRoundRobinProxy, type ProxiedRequest, type RoundRobinProxy } from './round-robin-proxy.js';

/** The tool a logged request called, or its method. */
function whatItDid(request: ProxiedRequest): string {
  const message = JSON.parse(request.body) as { method: string; params?: { name?: string } };
  return message.method === 'tools/call' ? (message.params?.name ?? '?') : message.method;
}

describe('two switchyard processes behind a round-robin proxy', () => {
  let digitransit: DigitransitMock;
  let proxy: RoundRobinProxy;
  const servers: SpawnedServer[] = [];
  let client: EraClient;

  beforeAll(async () => {
    digitransit = await startDigitransitMock();
    proxy = await startRoundRobinProxy();
    const dataDir = tempDir('switchyard-two-processes-');
    const env = {
      SWITCHYARD_DATA_DIR: dataDir,
      DIGITRANSIT_SUBSCRIPTION_KEY: 'two-processes-key',
      DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
      DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
    };
    // Clients reach them by the proxy's address, so that is the Host they must accept.
    const hostOfProxy = new URL(proxy.origin).host;
    for (let n = 0; n < 2; n += 1) servers.push(await spawnHttpServer(env, ['--allowed-hosts', hostOfProxy]));
    proxy.backends = servers.map((server) => new URL(server.url).origin);
    client = await connectEraClient('modern', { transport: 'http', url: `${proxy.origin}/mcp` });
  });
  afterAll(async () => {
    await client?.close();
    for (const server of servers) expect(await server.stop()).toBe(0);
    await proxy?.close();
    await digitransit?.close();
  });

  it('serves one client alternately from both processes without an error', async () => {
    const tools = await client.listToolNames();
    expect(tools).toEqual(expect.arrayContaining([...LAUNCH_TOOLS, ...JOURNEY_TOOLS, 'get_departures']));

    const summary = 'Ferry to Suomenlinna from the Market Square, then tram 2 back';
    const journeyId = await writeJourney(client, summary);
    expect(await searchJourney(client, journeyId, 'suomenlinna')).toEqual([summary]);
    expect((await departures(client)).length).toBeGreaterThan(0);

    const calls = proxy.log.filter((request) => request.method === 'POST');
    expect(calls.map(whatItDid)).toEqual(
      expect.arrayContaining([
        'server/discover',
        'tools/list',
        'get_or_create_journey',
        'record_session',
        'query_journey_history',
        'get_departures',
      ]),
    );
    expect(proxy.log.every((request) => request.status === 200)).toBe(true);
    // Strictly in turn, and both processes answered.
    expect(proxy.log.map((request) => request.backend)).toEqual(proxy.log.map((_, index) => index % 2));
    expect(new Set(proxy.log.map((request) => request.backend))).toEqual(new Set([0, 1]));
    // The session was written by one process and found by the other, through the shared database.
    const backendOf = (tool: string) => calls.find((request) => whatItDid(request) === tool)?.backend;
    expect(backendOf('query_journey_history')).not.toBe(backendOf('record_session'));
  });
});
