import { rawHttpRequest, type ProtocolEra } from '@switchyard/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectHttp } from '../src/harness/mcp-client.js';
import { initializeBody, MCP_HEADERS, modernBody, modernHeaders } from '../src/harness/raw-http.js';
import { spawnSwitchyard, type SpawnedSwitchyard } from '../src/harness/switchyard.js';
import { startWorld, type World } from '../src/harness/world.js';
import { classify } from '../src/outcome.js';
import { ERAS } from '../src/profile.js';
import { SENTINELS } from '../src/sentinels.js';
import { toolContract } from '../src/tools.js';

/**
 * HTTP access to the combined server with SWITCHYARD_TOKEN set (the sentinel token), in both protocol eras:
 * no token and a wrong token get 401, a foreign Origin 403, a body over the limit 413, and none of those
 * answers shows a secret. Saved places are per caller: a second server on the same data directory with
 * another token (another principal) neither sees, reads nor deletes the first caller's places.
 */
const OTHER_TOKEN = 'another-caller-token-0123456789abcdef';

/** The first request a client of `era` sends: `initialize` (2025) or `server/discover` (2026-07-28). */
function firstRequest(era: ProtocolEra): { headers: Record<string, string>; body: string } {
  return era === 'modern'
    ? {
        headers: { ...MCP_HEADERS, ...modernHeaders('server/discover') },
        body: modernBody('server/discover'),
      }
    : { headers: MCP_HEADERS, body: initializeBody() };
}

describe.each(ERAS)('%s era', (era) => {
  let world: World;
  let other: SpawnedSwitchyard;

  beforeAll(async () => {
    world = await startWorld({ name: `access-${era}`, era });
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

  /** The era's first request with `headers` added (a token, an Origin). */
  const opening = (headers: Record<string, string> = {}) => {
    const request = firstRequest(era);
    return rawHttpRequest(world.server.url, {
      method: 'POST',
      headers: { ...request.headers, ...headers },
      body: request.body,
    });
  };

  describe('HTTP access', () => {
    it('answers 401 without a token and with a wrong one, naming the header to send', async () => {
      const missing = scanned('no token', await opening());
      expect(missing.status).toBe(401);
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
      const wrong = scanned(
        'wrong token',
        await opening({ authorization: `Bearer ${SENTINELS.switchyardToken}x` }),
      );
      expect(wrong.status).toBe(401);
      const otherServersToken = scanned(
        'token of another server',
        await opening({ authorization: `Bearer ${OTHER_TOKEN}` }),
      );
      expect(otherServersToken.status).toBe(401);
    });

    it('answers 403 to a foreign Origin even with the right token', async () => {
      const foreign = scanned(
        'foreign origin',
        await opening({
          authorization: `Bearer ${SENTINELS.switchyardToken}`,
          origin: 'https://evil.example',
        }),
      );
      expect(foreign.status).toBe(403);
    });

    it('answers 413 to a body over the limit, and keeps serving', async () => {
      // Far over the limit (1 MiB, raised to what journey documents need: about 7 MiB).
      const params = { name: 'record_session', arguments: { summary: 'x'.repeat(16 * 1024 * 1024) } };
      const huge =
        era === 'modern'
          ? modernBody('tools/call', params)
          : JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
      const answer = scanned(
        'oversized body',
        await rawHttpRequest(world.server.url, {
          method: 'POST',
          headers: {
            ...MCP_HEADERS,
            ...(era === 'modern' ? modernHeaders('tools/call', 'record_session') : {}),
            authorization: `Bearer ${SENTINELS.switchyardToken}`,
          },
          body: huge,
        }),
      );
      expect(answer.status).toBe(413);
      const client = await connectHttp(world.server.url, { token: SENTINELS.switchyardToken, era });
      expect((await client.listTools()).tools.length).toBeGreaterThan(20);
      await client.close();
      world.assertHealthy();
    });
  });

  describe('limits that meet at the HTTP layer', () => {
    // The HTTP body limit once stopped the largest document the journey contract allows (1 MiB) at 413; the
    // journey module now declares its largest request and server-kit raises the limit to it.
    const addDocument = async (title: string, bytes: number) => {
      const journey = await callTool(world.client, 'get_or_create_journey', {});
      return callTool(world.client, 'add_document_to_journey', {
        journey_id: journey.structured?.journey_id,
        document_type: 'file_upload',
        title,
        content: 'd'.repeat(bytes),
      });
    };

    it('stores a document of exactly JOURNEY_MAX_DOCUMENT_BYTES over HTTP', async () => {
      const answer = await addDocument('largest allowed', 1024 * 1024);
      expect(answer.isError).toBe(false);
      expect(answer.structured?.content_bytes).toBe(1024 * 1024);
    });

    it("answers one byte more with the contract's 400, not an HTTP 413", async () => {
      const answer = await addDocument('one byte too many', 1024 * 1024 + 1);
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
      const theirs = await connectHttp(other.url, { token: OTHER_TOKEN, era });
      try {
        const listed = scanned('other list', await callTool(theirs, 'get_user_variables', {}));
        expect(listed.structured).toEqual({ variables: [], next_cursor: null });
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
});
