import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { startTestProvider, type ServiceClient, type TestProvider } from '@switchyard/upstream-mocks/oidc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectHttp, type ToolAnswer } from '../src/harness/mcp-client.js';
import { MCP_HEADERS, modernBody, modernHeaders } from '../src/harness/raw-http.js';
import { spawnSwitchyard, type SpawnedSwitchyard } from '../src/harness/switchyard.js';
import { removeTempDir, tempDir } from '../src/harness/temp.js';
import { serverEnv, startUpstreams, type Upstreams } from '../src/harness/upstreams.js';
import { exampleRepos, launchCall, runConfig, waitForRest, type RunStatus } from '../src/launch.js';
import { SecretScanner } from '../src/sentinels.js';
import { freePort } from '@switchyard/server-kit/testing';

/**
 * Issue #17's isolation matrix, against the built combined server as an OAuth resource server trusting a real
 * OpenID provider on loopback: two principals (client-credentials clients whose subjects are UUIDs, as a
 * provider's user ids are) and every tool of every domain. Mallory tries to read, list, search, modify and
 * delete Alice's saved places, journeys and launch runs by key or id, by user_id, by list filters and by
 * resource URI; every answer equals the answer for a record that never existed. A backend holding
 * journey:admin reaches Alice's journey, and the server logs that it did. No access token reaches an answer
 * or a log line.
 */
const SCOPES = ['transit', 'journey:read', 'journey:write', 'journey:admin', 'launch:run', 'launch:pr'];
const USER_SCOPES = SCOPES.filter((scope) => scope !== 'journey:admin').join(' ');

const ALICE: ServiceClient = { id: randomUUID(), secret: 'alice-client-secret-0123456789' };
const MALLORY: ServiceClient = { id: randomUUID(), secret: 'mallory-client-secret-0123456789' };
const BACKEND: ServiceClient = { id: 'origin-backend', secret: 'backend-client-secret-0123456789' };
/** A principal whose subject is a UUID in capitals (as some providers write them). */
const CAROL: ServiceClient = { id: randomUUID().toUpperCase(), secret: 'carol-client-secret-0123456789' };

const MISSING_RUN_ID = 'r_2026-01-01T00-00-00Z_00000000';

let provider: TestProvider;
let upstreams: Upstreams;
let server: SpawnedSwitchyard;
/** The server's resource URI, the audience of every token. */
let resource: string;
let dataDir: string;
const scanner = new SecretScanner();
const clients: Client[] = [];
let alice: Client;
let mallory: Client;
let backend: Client;

/** What Alice owns, made in `beforeAll`. */
const owned = { journeyId: '', runId: '', artifact: '', sessionSummary: 'Alice asked about the ferry' };

async function connectAs(client: ServiceClient, scope: string, resource: string): Promise<Client> {
  const token = await provider.clientCredentialsToken({ scope, resource }, client);
  scanner.watchAccessToken(`${client.id} access token`, token);
  const connected = await connectHttp(server.url, { token, name: `isolation-${client.id}` });
  clients.push(connected);
  return connected;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const answer = await callTool(client, name, args, { timeoutMs: 60_000 });
  scanner.scan(`${name} answer`, answer);
  return answer;
}

/** Per-call values that differ between any two calls. */
const VOLATILE_KEYS = new Set(['correlationId', 'correlation_id']);

/** A value with `id` replaced and per-call values dropped, so that the answers for two ids compare. */
function normalized(value: unknown, id: string): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll(id, '<id>'), (key, field: unknown) =>
    VOLATILE_KEYS.has(key) ? undefined : field,
  ) as unknown;
}

/** Mallory's answer for Alice's `id`, and for `missing`, a record that never existed: they must be equal. */
async function expectAsIfMissing(
  name: string,
  args: (id: string) => Record<string, unknown>,
  id: string,
  missing: string,
) {
  const forAlice = await call(mallory, name, args(id));
  const forMissing = await call(mallory, name, args(missing));
  expect(forAlice.isError, `${name}: ${JSON.stringify(forAlice.structured)}`).toBe(true);
  // The text mirrors the structured content (checked elsewhere), per-call ids included: compare the latter.
  expect(normalized(forAlice.structured, id)).toEqual(normalized(forMissing.structured, missing));
}

/** A JSON-RPC failure of `request` as the client sees it (code and message), with `id` replaced. */
async function rpcFailure(request: () => Promise<unknown>, id: string): Promise<unknown> {
  try {
    const result = await request();
    return { resolved: normalized(result, id) };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    scanner.scan('rpc failure', String(message));
    return normalized({ code, message }, id);
  }
}

beforeAll(async () => {
  [provider, upstreams] = await Promise.all([
    startTestProvider({ scopes: SCOPES, serviceClients: [ALICE, MALLORY, BACKEND, CAROL] }),
    startUpstreams(),
  ]);
  dataDir = tempDir('isolation');
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  server = await spawnSwitchyard({
    env: {
      ...serverEnv(upstreams, { dataDir, token: null }),
      SWITCHYARD_OAUTH_ISSUER: provider.issuer,
      SWITCHYARD_RESOURCE_URL: resource,
    },
    args: ['--port', String(port)],
  });
  [alice, mallory, backend] = await Promise.all([
    connectAs(ALICE, USER_SCOPES, resource),
    connectAs(MALLORY, USER_SCOPES, resource),
    connectAs(BACKEND, SCOPES.join(' '), resource),
  ]);

  for (const [key, value] of [
    ['alice-home', { type: 'location', lat: 60.1699, lon: 24.9384, name: 'Alice home' }],
    ['alice-stop', { type: 'stop', stopId: 'HSL:1040129' }],
    ['alice-tube', { type: 'tfl-stop', naptanId: '940GZZLUOXC' }],
  ] as const) {
    expect((await call(alice, 'save_user_variable', { key, value })).isError).toBe(false);
  }
  const journey = await call(alice, 'get_or_create_journey', { user_id: ALICE.id });
  owned.journeyId = journey.structured?.journey_id as string;
  await call(alice, 'record_session', { journey_id: owned.journeyId, summary: owned.sessionSummary });
  await call(alice, 'add_document_to_journey', {
    journey_id: owned.journeyId,
    document_type: 'note',
    content: 'Ferry every 20 minutes',
  });
  const repos = await exampleRepos(path.join(dataDir, 'repos'));
  const started = await launchCall(alice, 'launch_start_run', {
    run_config: runConfig(repos),
    idempotency_key: 'alice-launch',
  });
  owned.runId = started.run_id as string;
  const status: RunStatus = await waitForRest(alice, owned.runId);
  owned.artifact = status.artifacts[0]?.name ?? 'page_plan.json';
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await server?.stop();
  await Promise.all([provider?.close(), upstreams?.close()]);
  if (dataDir !== undefined) removeTempDir(dataDir);
});

describe('what the server asks for', () => {
  it('challenges for every scope a request needs, and lists journey:admin only as supported', async () => {
    const refused = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    const asked = /scope="([^"]*)"/.exec(challenge)?.[1]?.split(' ');
    expect(asked?.sort()).toEqual(SCOPES.filter((scope) => scope !== 'journey:admin').sort());
    const metadataUrl = /resource_metadata="([^"]*)"/.exec(challenge)?.[1] ?? '';
    const metadata = (await (await fetch(metadataUrl)).json()) as { scopes_supported: string[] };
    expect(metadata.scopes_supported.sort()).toEqual([...SCOPES].sort());
  });
});

describe('what a token may call', () => {
  /** A raw request with `token`, to read the HTTP status and challenge of the answer. */
  async function rawRequest(token: string, method: string, params: Record<string, unknown>, name?: string) {
    const answer = await fetch(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...modernHeaders(method, name), authorization: `Bearer ${token}` },
      body: modernBody(method, params),
    });
    const body = await answer.text();
    scanner.scan(`${method} answer`, body);
    const message = (JSON.parse(body) as { error?: { message?: string } }).error?.message;
    return { status: answer.status, challenge: answer.headers.get('www-authenticate') ?? '', message };
  }

  it('refuses record_session to a token holding only journey:read (403 naming journey:write), which still reads', async () => {
    const token = await provider.clientCredentialsToken({ scope: 'journey:read', resource }, ALICE);
    scanner.watchAccessToken('alice read-only access token', token);
    const summary = 'Written with a read-only token';
    const refused = await rawRequest(
      token,
      'tools/call',
      { name: 'record_session', arguments: { journey_id: owned.journeyId, summary } },
      'record_session',
    );
    expect(refused.status).toBe(403);
    expect(refused.challenge).toContain('error="insufficient_scope"');
    expect(refused.challenge).toContain('scope="journey:write"');
    expect(refused.message).toMatch(/the tool "record_session" needs the OAuth scope "journey:write"/);
    const reader = await connectHttp(server.url, { token, name: 'isolation-alice-reader' });
    clients.push(reader);
    const history = await call(reader, 'query_journey_history', { journey_id: owned.journeyId });
    expect(history.isError).toBe(false);
    expect(JSON.stringify(history.structured)).toContain(owned.sessionSummary);
    expect(JSON.stringify(history.structured)).not.toContain(summary);
  });

  it('completes launch run ids only for a token holding launch:run, not one holding only transit', async () => {
    const token = await provider.clientCredentialsToken({ scope: 'transit', resource }, ALICE);
    scanner.watchAccessToken('alice transit-only access token', token);
    const refused = await rawRequest(token, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'launch://runs/{run_id}/events.ndjson' },
      argument: { name: 'run_id', value: '' },
    });
    expect(refused.status).toBe(403);
    expect(refused.challenge).toContain('scope="launch:run"');
    expect(refused.message).toMatch(/completing the resource needs the OAuth scope "launch:run"/);
    const completion = await alice.complete({
      ref: { type: 'ref/resource', uri: 'launch://runs/{run_id}/events.ndjson' },
      argument: { name: 'run_id', value: '' },
    });
    expect(completion.completion.values).toContain(owned.runId);
  });
});

describe('saved places (transit)', () => {
  it.each([
    ['get_user_variables', (key: string) => ({ key })],
    ['delete_user_variable', (key: string) => ({ key })],
    ['get_departures', (key: string) => ({ stop: { type: 'label', value: key } })],
    ['get_london_arrivals', (key: string) => ({ stop: { type: 'label', value: key } })],
    [
      'plan_trip',
      (key: string) => ({
        origin: { type: 'label', value: key },
        destination: { type: 'coords', value: { lat: 60.2, lon: 24.9 } },
      }),
    ],
  ] as const)('%s with another principal’s key answers as for a key never saved', async (name, args) => {
    const key =
      { get_departures: 'alice-stop', get_london_arrivals: 'alice-tube' }[name as string] ?? 'alice-home';
    await expectAsIfMissing(name, args, key, `never-saved-${name}`);
  });

  it('lists none of another principal’s places, whatever the filter', async () => {
    for (const type of [undefined, 'location', 'stop', 'tfl-stop']) {
      const listed = await call(mallory, 'get_user_variables', type === undefined ? {} : { type });
      expect(listed.structured).toEqual({ variables: [], next_cursor: null });
    }
  });

  it('plans a journey from another principal’s key as plain text, never from the saved place', async () => {
    upstreams.tfl.reset();
    await call(mallory, 'planJourney', { from: 'alice-home', to: 'Oxford Circus' });
    const paths = upstreams.tfl.requests.map((request) => decodeURIComponent(request.url ?? ''));
    expect(paths.join('\n')).toContain('alice-home');
    expect(paths.join('\n')).not.toContain('60.1699');
  });
});

describe('journeys (journey-continuity)', () => {
  it.each([
    ['query_journey_history', (id: string) => ({ journey_id: id, query: 'ferry' })],
    ['query_journey_history', (id: string) => ({ journey_id: id, include_documents: true })],
    ['record_session', (id: string) => ({ journey_id: id, summary: 'Mallory writes here' })],
    ['add_document_to_journey', (id: string) => ({ journey_id: id, document_type: 'note', content: 'x' })],
    ['delete_journey', (id: string) => ({ journey_id: id })],
  ] as const)(
    '%s on another principal’s journey answers as for one that never existed',
    async (name, args) => {
      await expectAsIfMissing(name, args, owned.journeyId, randomUUID());
    },
  );

  it('refuses another principal’s subject as user_id exactly as any foreign user_id', async () => {
    await expectAsIfMissing('get_or_create_journey', (id) => ({ user_id: id }), ALICE.id, randomUUID());
    const own = await call(mallory, 'get_or_create_journey', { user_id: MALLORY.id });
    expect(own.structured?.journey_id).not.toBe(owned.journeyId);
  });

  it('lets the journey:admin backend act for Alice, and logs that it did', async () => {
    const forAlice = await call(backend, 'get_or_create_journey', { user_id: ALICE.id });
    expect(forAlice.structured).toMatchObject({ journey_id: owned.journeyId, is_new: false });
    const history = await call(backend, 'query_journey_history', { journey_id: owned.journeyId });
    expect(JSON.stringify(history.structured)).toContain(owned.sessionSummary);
    const audits = server.lines().filter((line) => line.includes('acting for another principal'));
    expect(audits.length).toBeGreaterThanOrEqual(2);
    for (const line of audits) {
      expect(JSON.parse(line)).toMatchObject({
        audit: true,
        principal: 'oauth:origin-backend',
        owner: `oauth:${ALICE.id}`,
      });
    }
  });

  it('gives a user whose subject is a UUID in capitals the journey the backend wrote for them', async () => {
    const carol = await connectAs(CAROL, USER_SCOPES, resource);
    const forCarol = await call(backend, 'get_or_create_journey', { user_id: CAROL.id.toLowerCase() });
    const summary = 'The backend noted a ferry question for Carol';
    await call(backend, 'record_session', { journey_id: forCarol.structured?.journey_id, summary });
    const own = await call(carol, 'get_or_create_journey', { user_id: CAROL.id });
    expect(own.structured).toMatchObject({ journey_id: forCarol.structured?.journey_id, is_new: false });
    const history = await call(carol, 'query_journey_history', { journey_id: own.structured?.journey_id });
    expect(JSON.stringify(history.structured)).toContain(summary);
  });
});

describe('launch runs (launch-runs)', () => {
  const byId =
    (extra: Record<string, unknown> = {}) =>
    (id: string) => ({ run_id: id, ...extra });
  it.each([
    ['launch_get_status', byId()],
    ['launch_get_artifact', (id: string) => ({ run_id: id, artifact_name: owned.artifact })],
    ['launch_validate', byId()],
    ['launch_fix_next', byId()],
    ['launch_resume', byId()],
    ['launch_open_pr', byId()],
    ['launch_cancel', byId()],
  ] as const)('%s on another principal’s run answers as for one that never existed', async (name, args) => {
    await expectAsIfMissing(name, args, owned.runId, MISSING_RUN_ID);
  });

  it('lists none of another principal’s runs, by any filter', async () => {
    for (const filter of [undefined, { product_slug: 'tallyho' }, { state: 'VALIDATING' }]) {
      const listed = await call(mallory, 'launch_list_runs', filter === undefined ? {} : { filter });
      expect(listed.structured?.runs).toEqual([]);
    }
  });

  it('starts a run of its own for the same idempotency key', async () => {
    const answer = await call(mallory, 'launch_start_run', {
      run_config: runConfig(await exampleRepos(path.join(dataDir, 'mallory-repos'))),
      idempotency_key: 'alice-launch',
    });
    expect(answer.structured?.run_id).toBeDefined();
    expect(answer.structured?.run_id).not.toBe(owned.runId);
    await waitForRest(mallory, answer.structured?.run_id as string);
  });

  it.each([
    ['events', (id: string) => `launch://runs/${id}/events.ndjson`],
    ['an artifact', (id: string) => `launch://runs/${id}/artifacts/${owned.artifact}`],
  ])('reading %s of another principal’s run by URI fails as for a missing run', async (_what, uri) => {
    const forAlice = await rpcFailure(() => mallory.readResource({ uri: uri(owned.runId) }), owned.runId);
    const forMissing = await rpcFailure(
      () => mallory.readResource({ uri: uri(MISSING_RUN_ID) }),
      MISSING_RUN_ID,
    );
    expect(forAlice).not.toHaveProperty('resolved');
    expect(forAlice).toEqual(forMissing);
  });

  it('neither lists nor completes another principal’s run ids', async () => {
    const { resources } = await mallory.listResources();
    expect(JSON.stringify(resources)).not.toContain(owned.runId);
    const completion = await mallory.complete({
      ref: { type: 'ref/resource', uri: 'launch://runs/{run_id}/events.ndjson' },
      argument: { name: 'run_id', value: '' },
    });
    expect(completion.completion.values).not.toContain(owned.runId);
  });
});

describe('afterwards', () => {
  it('Alice still has every record, untouched', async () => {
    const places = await call(alice, 'get_user_variables', {});
    expect((places.structured?.variables as { key: string }[]).map((place) => place.key)).toEqual([
      'alice-home',
      'alice-stop',
      'alice-tube',
    ]);
    const history = await call(alice, 'query_journey_history', {
      journey_id: owned.journeyId,
      include_documents: true,
    });
    expect(JSON.stringify(history.structured)).toContain(owned.sessionSummary);
    expect(history.structured?.documents).toHaveLength(1);
    const status = await launchCall(alice, 'launch_get_status', { run_id: owned.runId });
    expect((status.status as RunStatus).state).not.toBe('CANCELLED');
    const runs = await call(alice, 'launch_list_runs', {});
    expect((runs.structured?.runs as { run_id: string }[]).map((run) => run.run_id)).toEqual([owned.runId]);
  });

  it('no access token reached an answer or a log line', () => {
    server.lines().forEach((line, n) => scanner.scan(`server line ${n + 1}`, line));
    expect(scanner.found()).toEqual([]);
    expect(server.defects()).toEqual([]);
  });
});
