import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { InFlightTracker } from '../src/in-flight.js';
import { serveInProcess } from '../src/in-process.js';
import { TrackedTransport } from '../src/stdio/tracked-transport.js';
import { clientFor } from '../src/testing.js';
import { echoDomain } from './fixtures/echo-domain.js';
import { memoryLogger } from './helpers.js';

describe('InFlightTracker', () => {
  it('counts work, ignores a second end, and reports idleness or a timeout', async () => {
    const tracker = new InFlightTracker();
    await expect(tracker.whenIdle(0)).resolves.toBe(true);
    const endA = tracker.begin();
    const endB = tracker.begin();
    expect(tracker.count).toBe(2);
    endA();
    endA();
    expect(tracker.count).toBe(1);
    await expect(tracker.whenIdle(1)).resolves.toBe(false);
    const idle = tracker.whenIdle(60_000);
    endB();
    await expect(idle).resolves.toBe(true);
    expect(tracker.count).toBe(0);
  });
});

describe('TrackedTransport (how stdio shutdown waits for calls)', () => {
  /** A 2025-era server (the one kind that lives for a connection) behind a TrackedTransport. */
  async function connect() {
    let started!: () => void;
    const slowStarted = new Promise<void>((resolve) => (started = resolve));
    const tracker = new InFlightTracker();
    const serving = await serveInProcess(
      [{ domain: echoDomain({ onSlowStart: () => started() }), config: undefined }],
      {
        logger: memoryLogger().logger,
        dataDir: '/nonexistent',
        env: {},
        strictOutput: true,
        persistentConnection: true,
      },
    );
    const server = serving.createServer({ era: 'legacy' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const tracked = new TrackedTransport(serverSide, tracker);
    const client = clientFor('legacy');
    await Promise.all([server.connect(tracked), client.connect(clientSide)]);
    return { client, server, tracker, tracked, slowStarted };
  }

  it('counts a request until its response, and refuses new requests after stopAccepting', async () => {
    const { client, server, tracker, tracked, slowStarted } = await connect();
    const call = client.callTool({ name: 'slow_wait', arguments: { ms: 200 } });
    await slowStarted;
    expect(tracker.count).toBe(1);
    tracked.stopAccepting();
    await expect(client.listTools()).rejects.toThrow(/Server is shutting down/);
    await expect(call).resolves.toMatchObject({ structuredContent: { waitedMs: 200 } });
    expect(tracker.count).toBe(0);
    await client.close();
    await server.close();
  });

  it('stops counting a request the client cancels (it gets no response)', async () => {
    const { client, server, tracker, slowStarted } = await connect();
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'slow_wait', arguments: { ms: 60_000 } },
      { signal: controller.signal },
    );
    await slowStarted;
    expect(tracker.count).toBe(1);
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await expect(tracker.whenIdle(10_000)).resolves.toBe(true);
    await client.close();
    await server.close();
  });

  it('stops counting everything when the connection closes', async () => {
    const { client, server, tracker, slowStarted } = await connect();
    const call = client.callTool({ name: 'slow_wait', arguments: { ms: 60_000 } }).catch(() => 'closed');
    await slowStarted;
    await server.close();
    expect(tracker.count).toBe(0);
    await expect(call).resolves.toBe('closed');
    await client.close();
  });
});
