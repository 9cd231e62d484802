import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectHttp } from '../src/harness/mcp-client.js';
import { rawHttpRequest } from '@switchyard/server-kit/testing';
import { initializeBody, MCP_HEADERS } from '../src/harness/raw-http.js';
import { spawnSwitchyard, type SpawnedSwitchyard } from '../src/harness/switchyard.js';
import { startWorld, type World } from '../src/harness/world.js';
import { classify } from '../src/outcome.js';
import { SENTINELS } from '../src/sentinels.js';
import { toolContract } from '../src/tools.js';

/**
 * HTTP access to the combined server with SWITCHYARD_TOKEN set (the sentinel token): no token and a wrong
 * token get 401, a foreign Origin 403, a body over the limit 413, and none of those answers shows a secret.
 * Saved places are per caller: a second server on the same data directory with another token (another
 * principal) neither sees, reads nor deletes the first caller's places.
 */
const OTHER_TOKEN = 'another-caller-token-0123456789abcdef';
let world: World;
let other: SpawnedSwitchyard;

beforeAll(async () => {
  world = await startWorld({ name: 'access' });
  other = await spawnSwitchyard({ env: { ...world.env, SWITCHYARD_TOKEN: OTHER_TOKEN } });
});

afterAll(async () => {
  await other?.stop();
  other?.lines().forEach((line, n) => world.scanner.scan(`other server line ${n + 1}`, line));
  await world?.close();
});

function scanned<T>(where: string, value: T): T {
  world.scanner.scan(where, value);
  return value;
}

describe('HTTP access', () => {
  it('answers 401 without a token and with a wrong one, naming the header to send', async () => {
    const missing = scanned(
      'no token',
      await rawHttpRequest(world.server.url, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: initializeBody(),
      }),
    );
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = scanned(
      'wrong token',
      await rawHttpRequest(world.server.url, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${SENTINELS.switchyardToken}x` },
        body: initializeBody(),
      }),
    );
    expect(wrong.status).toBe(401);
    const otherServersToken = scanned(
      'token of another server',
      await rawHttpRequest(world.server.url, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${OTHER_TOKEN}` },
        body: initializeBody(),
      }),
    );
    expect(otherServersToken.status).toBe(401);
  });

  it('answers 403 to a foreign Origin even with the right token', async () => {
    const foreign = scanned(
      'foreign origin',
      await rawHttpRequest(world.server.url, {
        method: 'POST',
        headers: {
          ...MCP_HEADERS,
          authorization: `Bearer ${SENTINELS.switchyardToken}`,
          origin: 'https://evil.example',
        },
        body: initializeBody(),
      }),
    );
    expect(foreign.status).toBe(403);
  });

  it('answers 413 to a body over the limit, and keeps serving', async () => {
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      // Far over the limit (1 MiB, raised to what journey documents need: about 7 MiB).
      params: { name: 'record_session', arguments: { summary: 'x'.repeat(16 * 1024 * 1024) } },
    });
    const answer = scanned(
      'oversized body',
      await rawHttpRequest(world.server.url, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${SENTINELS.switchyardToken}` },
        body: huge,
      }),
    );
    expect(answer.status).toBe(413);
    const client = await connectHttp(world.server.url, SENTINELS.switchyardToken);
    expect((await client.listTools()).tools.length).toBeGreaterThan(20);
    await client.close();
    world.assertHealthy();
  });
});

describe('limits that meet at the HTTP layer', () => {
  // The HTTP body limit once stopped the largest document the journey contract allows (1 MiB) at 413; the
  // journey module now declares its largest request and server-kit raises the limit to it.
  it('stores a document of exactly JOURNEY_MAX_DOCUMENT_BYTES over HTTP', async () => {
    const journey = await callTool(world.client, 'get_or_create_journey', {});
    const answer = await callTool(world.client, 'add_document_to_journey', {
      journey_id: journey.structured?.journey_id,
      document_type: 'file_upload',
      title: 'largest allowed',
      content: 'd'.repeat(1024 * 1024),
    });
    expect(answer.isError).toBe(false);
    expect(answer.structured?.content_bytes).toBe(1024 * 1024);
  });

  it("answers one byte more with the contract's 400, not an HTTP 413", async () => {
    const journey = await callTool(world.client, 'get_or_create_journey', {});
    const answer = await callTool(world.client, 'add_document_to_journey', {
      journey_id: journey.structured?.journey_id,
      document_type: 'file_upload',
      title: 'one byte too many',
      content: 'd'.repeat(1024 * 1024 + 1),
    });
    expect(answer.isError).toBe(true);
    expect(answer.structured).toMatchObject({ error: { status: 400, code: 'VALIDATION_ERROR' } });
  });
});

describe('saved places are per principal', () => {
  it("another caller neither lists, reads nor deletes the first caller's places", async () => {
    const mine = await callTool(world.client, 'save_user_variable', {
      key: 'home',
      value: { type: 'location', lat: 60.17, lon: 24.94, name: 'Home' },
    });
    expect(mine.isError).toBe(false);
    const theirs = await connectHttp(other.url, OTHER_TOKEN);
    try {
      const listed = scanned('other list', await callTool(theirs, 'get_user_variables', {}));
      expect(listed.structured).toEqual({ variables: [] });
      const read = classify(
        toolContract('get_user_variables'),
        await callTool(theirs, 'get_user_variables', { key: 'home' }),
      );
      expect(read.kind === 'error' && read.code).toBe('not-found');
      const deleted = classify(
        toolContract('delete_user_variable'),
        await callTool(theirs, 'delete_user_variable', { key: 'home' }),
      );
      expect(deleted.kind === 'error' && deleted.code).toBe('not-found');
      // Their own place under the same key does not overwrite mine.
      await callTool(theirs, 'save_user_variable', {
        key: 'home',
        value: { type: 'location', lat: 60.2, lon: 24.9 },
      });
    } finally {
      await theirs.close();
    }
    const still = await callTool(world.client, 'get_user_variables', { key: 'home' });
    expect(still.structured).toMatchObject({
      variables: [{ key: 'home', value: { lat: 60.17, lon: 24.94, name: 'Home' } }],
    });
  });

  it('no answer and no log line of either server holds a secret', () => {
    world.scanLogs();
    other.lines().forEach((line, n) => world.scanner.scan(`other server line ${n + 1}`, line));
    expect(world.scanner.found()).toEqual([]);
  });
});
