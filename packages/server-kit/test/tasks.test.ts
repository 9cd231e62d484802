import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import { startTestProvider, type TestProvider } from '@switchyard/upstream-mocks/oidc';
import { importJWK, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { TASKS_EXTENSION, type DomainLifecycle, type Mount } from '../src/index.js';
import {
  clientFor,
  DECLARES_TASKS,
  freePort,
  modernRequest,
  MODERN_PROTOCOL_VERSION,
  overHttp,
  postModern,
} from '../src/testing.js';
import { echoDomain } from './fixtures/echo-domain.js';
import { TaskBoards } from '../src/task-boards.js';
import { taskingDomain, type TaskingState } from './fixtures/tasking-domain.js';
import { httpTestHarness, jsonRpcAnswerOf, MODERN_META, startInProcessStdio } from './helpers.js';

const Loose = z.looseObject({});
type Json = Record<string, unknown>;

function taskingMount(): Mount<unknown, DomainLifecycle> {
  return { domain: taskingDomain(), config: undefined } as Mount<unknown, DomainLifecycle>;
}

const { start, closeAll } = httpTestHarness();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await closeAll();
});

/** A modern SDK client over HTTP declaring `capabilities` (the Tasks extension, or nothing). */
async function httpClient(url: string, capabilities: Json): Promise<Client> {
  const client = clientFor('modern', 'tasks-test', capabilities);
  client.onerror = () => {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

/**
 * The JSON-RPC answer to one message POSTed as it is: the SDK client refuses a `resultType: "task"` answer to
 * tools/call (it has no Tasks runtime), so a task-aware requester sends tools/call raw.
 */
function postRaw(url: string, message: Json, token?: string): Promise<Json> {
  return overHttp(url, token)(message);
}

let nextId = 100;
/** A raw 2026-07-28 request's result, or its error as `{ error }`. */
async function raw(url: string, method: string, params: Json, options: { caps?: Json; token?: string } = {}) {
  const answer = await postRaw(url, modernRequest(nextId++, method, params, options.caps), options.token);
  return (answer.result ?? { error: answer.error }) as Json;
}

function startTask(url: string, args: Json, token?: string): Promise<Json> {
  return raw(url, 'tools/call', { name: 'double_later', arguments: args }, { token });
}

/** The parts of a CallToolResult a client reads (not the envelope's `_meta` or `resultType`). */
function callToolPart(result: Json): Json {
  const { content, structuredContent, isError } = result;
  return { content, structuredContent, ...(isError === undefined ? {} : { isError }) };
}

describe('the Tasks extension (io.modelcontextprotocol/tasks) over HTTP', () => {
  it('answers a declaring tools/call with a CreateTaskResult, read back from the board', async () => {
    const { url } = await start([taskingMount()]);
    const created = await startTask(url, { value: 21, how: 'working' });
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      statusMessage: 'doubling 21 (within 2000 ms or as a task)',
      ttlMs: 86_400_000,
      pollIntervalMs: 1_000,
    });
    expect(created.taskId).toMatch(/^tasking\.[A-Za-z0-9_-]{22}$/);
    expect(new Date(String(created.createdAt)).toISOString()).toBe(created.createdAt);
    expect(created).not.toHaveProperty('content');
  });

  it('gives the handler the settings: SWITCHYARD_TASK_TTL_MS and SWITCHYARD_TASK_AFTER_MS', async () => {
    const env = { SWITCHYARD_TASK_TTL_MS: '60000', SWITCHYARD_TASK_AFTER_MS: '5' };
    const { url } = await start([taskingMount()], {}, { env });
    const created = await startTask(url, { value: 1, how: 'working' });
    expect(created).toMatchObject({ ttlMs: 60_000, statusMessage: 'doubling 1 (within 5 ms or as a task)' });
  });

  it('answers a task its board does not hold as an internal error, logged, never a made-up result', async () => {
    const { url, lines } = await start([taskingMount()]);
    const answer = await startTask(url, { value: 1, how: 'unrecorded' });
    expect(answer.error).toMatchObject({ code: -32603 });
    expect(JSON.stringify(answer)).not.toContain('"resultType":"task"');
    expect(lines.some((line) => line.includes('a started task is not on its board'))).toBe(true);
    // Without the extension the handler has no task to announce: a defect, answered as an internal error.
    const plain = await raw(
      url,
      'tools/call',
      { name: 'double_later', arguments: { value: 1, how: 'unrecorded' } },
      { caps: {} },
    );
    expect(plain).toMatchObject({ isError: true, structuredContent: { error: { code: 'internal' } } });
  });

  it('gives a request without the extension the plain answer, and the handler no task', async () => {
    const { url, server } = await start([taskingMount()]);
    const client = await httpClient(url, {});
    const answer = await client.callTool({ name: 'double_later', arguments: { value: 21, how: 'done' } });
    expect(answer.structuredContent).toEqual({ doubled: 42 });
    const state = server.domains?.get('tasking') as TaskingState | undefined;
    expect(state?.board.tasks.size ?? 0).toBe(0);
  });

  it('tasks/get: completed carries the CallToolResult tools/call answers; refusal is isError', async () => {
    const { url } = await start([taskingMount()]);
    const plain = await httpClient(url, {});
    const client = await httpClient(url, DECLARES_TASKS);
    for (const how of ['done', 'refused'] as const) {
      const created = await startTask(url, { value: 21, how });
      const got = await client.request({ method: 'tasks/get', params: { taskId: created.taskId } }, Loose);
      expect(got).toMatchObject({ taskId: created.taskId, status: 'completed' });
      const direct = await plain.callTool({ name: 'double_later', arguments: { value: 21, how } });
      expect(callToolPart(got.result as Json)).toEqual(callToolPart(direct as Json));
    }
    const refused = await startTask(url, { value: 1, how: 'refused' });
    const got = await client.request({ method: 'tasks/get', params: { taskId: refused.taskId } }, Loose);
    expect(got.result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'validation', message: 'That value cannot be doubled' } },
    });
  });

  it('tasks/get: a protocol error is failed with its error; input_required carries the requests', async () => {
    const { url } = await start([taskingMount()]);
    const client = await httpClient(url, DECLARES_TASKS);
    const broken = await startTask(url, { value: 1, how: 'broken' });
    const failed = await client.request({ method: 'tasks/get', params: { taskId: broken.taskId } }, Loose);
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'The work broke' } });
    expect(failed).not.toHaveProperty('result');

    const asking = await startTask(url, { value: 1, how: 'ask' });
    const waiting = await client.request({ method: 'tasks/get', params: { taskId: asking.taskId } }, Loose);
    expect(waiting).toMatchObject({
      status: 'input_required',
      inputRequests: { value: { method: 'elicitation/create', params: { message: 'Which value?' } } },
    });
    const ack = await client.request(
      {
        method: 'tasks/update',
        params: {
          taskId: asking.taskId,
          inputResponses: { value: { action: 'accept', content: { value: 5 } } },
        },
      },
      Loose,
    );
    expect(ack).not.toHaveProperty('status');
    const done = await raw(url, 'tasks/get', { taskId: asking.taskId });
    expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { doubled: 10 } } });
  });

  it('tasks/cancel acknowledges and the task ends cancelled', async () => {
    const { url } = await start([taskingMount()]);
    const created = await startTask(url, { value: 1, how: 'working' });
    const { _meta, ...ack } = await raw(url, 'tasks/cancel', { taskId: created.taskId });
    expect(ack).toEqual({ resultType: 'complete' });
    expect(await raw(url, 'tasks/get', { taskId: created.taskId })).toMatchObject({ status: 'cancelled' });
  });

  it('answers an unknown or malformed task id -32602, for get, update and cancel alike', async () => {
    const { url } = await start([taskingMount()]);
    const created = await startTask(url, { value: 1, how: 'working' });
    // The created id with its last two characters changed: a different id of the same shape, never the same one.
    const known = String(created.taskId);
    const unknown = `${known.slice(0, -2)}${known.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const taskId of [unknown, 'no-dot', 'elsewhere.abc', '.abc']) {
      for (const [method, extra] of [
        ['tasks/get', {}],
        ['tasks/update', { inputResponses: {} }],
        ['tasks/cancel', {}],
      ] as const) {
        const answer = await raw(url, method, { taskId, ...extra });
        expect(answer.error, `${method} ${taskId}`).toMatchObject({
          code: -32602,
          message: 'Task not found',
        });
      }
    }
  });

  it('refuses tasks/* from a request that does not declare the extension with -32021', async () => {
    const { url } = await start([taskingMount()]);
    const created = await startTask(url, { value: 1, how: 'done' });
    const answer = await raw(url, 'tasks/get', { taskId: created.taskId }, { caps: {} });
    expect(answer.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
  });

  it('advertises the extension to 2026-07-28 clients only, and serves tasks/* there only', async () => {
    const { url } = await start([taskingMount()]);
    const modern = await httpClient(url, DECLARES_TASKS);
    expect(modern.getServerCapabilities()?.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    const legacy = clientFor('legacy', 'tasks-legacy', DECLARES_TASKS as never);
    legacy.onerror = () => {};
    await legacy.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(legacy);
    expect(legacy.getServerCapabilities()?.extensions).toBeUndefined();
    await expect(
      legacy.request({ method: 'tasks/get', params: { taskId: 'tasking.x' } }, Loose),
    ).rejects.toThrow(/not found/i);
  });

  it('slows, without refusing, a poll earlier than pollIntervalMs after the previous one', async () => {
    const { url } = await start([taskingMount()], {}, { env: { SWITCHYARD_TASK_POLL_INTERVAL_MS: '300' } });
    const created = await startTask(url, { value: 1, how: 'working' });
    expect(created.pollIntervalMs).toBe(300);
    await raw(url, 'tasks/get', { taskId: created.taskId });
    const first = Date.now();
    const second = await raw(url, 'tasks/get', { taskId: created.taskId });
    expect(second).toMatchObject({ status: 'working' });
    expect(Date.now() - first).toBeGreaterThanOrEqual(250);
  });

  it('drives a whole task with the ext-tasks requester', async () => {
    const { url } = await start([taskingMount()]);
    const client = await httpClient(url, DECLARES_TASKS);
    const clientInfo = MODERN_META['io.modelcontextprotocol/clientInfo'];
    const session = createTaskSessionFromClient(client, {
      endpointId: url,
      rawDispatch: async (request) => {
        // The requester leaves the JSON-RPC envelope to its host.
        const answer = await postRaw(url, { jsonrpc: '2.0', id: nextId++, ...(request as Json) });
        return answer.error === undefined
          ? { kind: 'result', result: answer.result as Json as never }
          : { kind: 'error', error: answer.error as never };
      },
      v2RequestFraming: {
        protocolVersion: MODERN_PROTOCOL_VERSION,
        clientInfo,
        clientCapabilities: DECLARES_TASKS,
      },
    });
    try {
      const execution = await session.callTool('double_later', { value: 4, how: 'done' });
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      expect((outcome as { result: Json }).result).toMatchObject({ structuredContent: { doubled: 8 } });
    } finally {
      await session.close();
    }
  });
});

/** Every JSON-RPC message of an SSE body, in order. */
function sseMessages(body: string): Json[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as Json);
}

/** A 2026-07-28 `subscriptions/listen` for task notifications (and nothing else) on `taskIds`. */
function listenForTasks(id: number, taskIds: string[], capabilities: Json = DECLARES_TASKS): Json {
  return modernRequest(id, 'subscriptions/listen', { notifications: { taskIds } }, capabilities);
}

describe('task notifications (notifications/tasks) over HTTP: who may listen', () => {
  it('refuses a listen for task notifications from a client without the extension: -32021, HTTP 400', async () => {
    const { url, lines } = await start([taskingMount()]);
    const created = await startTask(url, { value: 5, how: 'working' });
    const response = await postModern(url, listenForTasks(72, [String(created.taskId)], {}));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({
      id: 72,
      error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } },
    });
    expect(lines.join('\n')).not.toContain(String(created.taskId));
    // A listen without taskIds needs no extension.
    const plain = await postModern(url, modernRequest(73, 'subscriptions/listen', { notifications: {} }, {}));
    expect(sseMessages(plain.body)[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
  });

  it('leaves such a listen to the SDK on a server whose domains keep no tasks (no extension offered)', async () => {
    const { url } = await start([
      { domain: echoDomain(), config: undefined } as Mount<unknown, DomainLifecycle>,
    ]);
    const response = await postModern(url, listenForTasks(74, ['echo.x'], {}));
    expect(response.status).toBe(200);
    expect(sseMessages(response.body)[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: {} },
    });
  });
});

describe('the Tasks extension over stdio', () => {
  it('creates a task for a declaring request and answers tasks/get on the same connection', async () => {
    const stdio = await startInProcessStdio([taskingMount()]);
    try {
      const client = await stdio.connectClient('modern', DECLARES_TASKS);
      stdio.write(
        `${JSON.stringify(modernRequest(9, 'tools/call', { name: 'double_later', arguments: { value: 3, how: 'done' } }))}\n`,
      );
      const created = ((await stdio.response(9)).result ?? {}) as Json;
      expect(created).toMatchObject({ resultType: 'task', status: 'completed' });
      const got = await client.request({ method: 'tasks/get', params: { taskId: created.taskId } }, Loose);
      expect(got).toMatchObject({ status: 'completed', result: { structuredContent: { doubled: 6 } } });
    } finally {
      await stdio.close();
    }
  });
});

describe('task notifications (notifications/tasks) over stdio: who may listen', () => {
  it('acknowledges a declaring listen with its task id; refuses one without the extension with -32021', async () => {
    const stdio = await startInProcessStdio([taskingMount()]);
    try {
      await stdio.connectClient('modern', DECLARES_TASKS);
      stdio.write(
        `${JSON.stringify(modernRequest(9, 'tools/call', { name: 'double_later', arguments: { value: 3, how: 'working' } }))}\n`,
      );
      const taskId = String(((await stdio.response(9)).result as Json).taskId);
      stdio.write(`${JSON.stringify(listenForTasks(10, [taskId], {}))}\n`);
      expect(await stdio.response(10)).toMatchObject({
        error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } },
      });
      stdio.write(`${JSON.stringify(listenForTasks(11, [taskId]))}\n`);
      const ack = await vi.waitFor(() => {
        const found = stdio.output.find(
          (message) =>
            message.method === 'notifications/subscriptions/acknowledged' &&
            (message.params as { _meta?: Json })._meta?.['io.modelcontextprotocol/subscriptionId'] === 11,
        );
        if (found === undefined) throw new Error('no acknowledgement yet');
        return found;
      });
      expect((ack.params as { notifications: Json }).notifications).toEqual({ taskIds: [taskId] });
      expect(stdio.output.some((message) => message.id === 10 && 'result' in message)).toBe(false);
    } finally {
      await stdio.close();
    }
  });
});

describe('the Tasks extension over stdio, 2025-11-25', () => {
  it('neither advertises nor serves it: the client gets the plain answer, tasks/get is unknown', async () => {
    const stdio = await startInProcessStdio([taskingMount()]);
    try {
      const client = await stdio.connectClient('legacy', DECLARES_TASKS as never);
      expect(client.getServerCapabilities()?.extensions).toBeUndefined();
      const answer = await client.callTool({ name: 'double_later', arguments: { value: 3, how: 'done' } });
      expect(answer.structuredContent).toEqual({ doubled: 6 });
      await expect(
        client.request({ method: 'tasks/get', params: { taskId: 'tasking.x' } }, Loose),
      ).rejects.toThrow(/not found/i);
    } finally {
      await stdio.close();
    }
  });
});

describe('the Tasks extension with OAuth: a task is its creator’s, behind its tool’s scope', () => {
  let provider: TestProvider;
  beforeAll(async () => {
    provider = await startTestProvider({ scopes: ['tasking:read', 'tasking:write'] });
  });
  afterAll(() => provider.close());

  async function tokenFor(resource: string, sub: string, scope: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const key = provider.signingKey;
    return new SignJWT({ scope, client_id: 'hand', iss: provider.issuer, aud: resource, sub })
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
      .sign(await importJWK(key.privateJwk, 'RS256'));
  }

  async function startProtected(tasks?: { pollIntervalMs: number }) {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const started = await start(
      [taskingMount()],
      { port, oauth: { issuers: [provider.issuer], resourceUrl: resource, jwksCooldownMs: 0 } },
      tasks === undefined ? {} : { tasks },
    );
    return { ...started, resource };
  }

  it("answers another principal's task as an unknown task", async () => {
    const { url, resource } = await startProtected();
    const alice = await tokenFor(resource, 'alice', 'tasking:write');
    const bob = await tokenFor(resource, 'bob', 'tasking:write');
    const created = await startTask(url, { value: 2, how: 'done' }, alice);
    expect(await raw(url, 'tasks/get', { taskId: created.taskId }, { token: alice })).toMatchObject({
      status: 'completed',
    });
    for (const method of ['tasks/get', 'tasks/cancel'] as const) {
      const answer = await raw(url, method, { taskId: created.taskId }, { token: bob });
      expect(answer.error).toMatchObject({ code: -32602, message: 'Task not found' });
    }
  });

  it('acknowledges a listen only for the tasks the token may tasks/get: its own, with its tool’s scope', async () => {
    const { url, resource } = await startProtected();
    const writer = await tokenFor(resource, 'alice', 'tasking:write');
    const reader = await tokenFor(resource, 'alice', 'tasking:read');
    const bob = await tokenFor(resource, 'bob', 'tasking:write');
    const taskId = String((await startTask(url, { value: 2, how: 'done' }, writer)).taskId);
    const acknowledged = async (token: string): Promise<unknown> => {
      const response = await postModern(url, listenForTasks(81, [taskId]), token);
      expect(response.status).toBe(200);
      return (sseMessages(response.body)[0]?.params as { notifications: Json }).notifications.taskIds;
    };
    expect(await acknowledged(writer)).toEqual([taskId]);
    expect(await acknowledged(reader)).toEqual([]);
    expect(await acknowledged(bob)).toEqual([]);
  });

  it('reads a watched task once a poll: the scope of its tool is judged once for the listen', async () => {
    const { url, resource, server } = await startProtected({ pollIntervalMs: 20 });
    const writer = await tokenFor(resource, 'alice', 'tasking:write');
    const taskId = String((await startTask(url, { value: 2, how: 'working' }, writer)).taskId);
    const board = (server.domains?.get('tasking') as TaskingState).board;
    const scopeNeed = vi.spyOn(TaskBoards.prototype, 'scopeNeed');
    try {
      const readsBefore = board.reads;
      const listening = postModern(url, listenForTasks(83, [taskId]), writer);
      await vi.waitFor(() => expect(board.reads - readsBefore).toBeGreaterThanOrEqual(10), {
        timeout: 10_000,
      });
      const held = board.tasks.get(taskId)!;
      held.snapshot = { ...held.snapshot, status: 'cancelled', lastUpdatedAt: new Date() };
      const response = await listening;
      expect(sseMessages(response.body).at(-2)).toMatchObject({ params: { taskId, status: 'cancelled' } });
      const judged = scopeNeed.mock.calls.filter(([message]) => (message as Json).method === 'tasks/get');
      expect(judged).toHaveLength(1);
    } finally {
      scopeNeed.mockRestore();
    }
  });

  it('refuses tasks/* with 503 while the board cannot be read for the scope check, and serves on', async () => {
    const { url, resource, server } = await startProtected();
    const writer = await tokenFor(resource, 'alice', 'tasking:write');
    const created = await startTask(url, { value: 2, how: 'done' }, writer);
    const board = (server.domains?.get('tasking') as TaskingState).board;
    board.failing = true;
    const answer = await postModern(url, modernRequest(3, 'tasks/get', { taskId: created.taskId }), writer);
    expect(answer.status).toBe(503);
    expect(answer.body).not.toContain('unreachable');
    board.failing = false;
    expect(await raw(url, 'tasks/get', { taskId: created.taskId }, { token: writer })).toMatchObject({
      status: 'completed',
    });
  });

  it("refuses tasks/* to a token without the scope of the task's tool, as the tool call is refused", async () => {
    const { url, resource } = await startProtected();
    const writer = await tokenFor(resource, 'alice', 'tasking:write');
    const reader = await tokenFor(resource, 'alice', 'tasking:read');
    const created = await startTask(url, { value: 2, how: 'done' }, writer);
    const args = { value: 2, how: 'done' };
    const call = await postModern(
      url,
      modernRequest(1, 'tools/call', { name: 'double_later', arguments: args }),
      reader,
    );
    expect(call.status).toBe(403);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel'] as const) {
      const params = { taskId: created.taskId, ...(method === 'tasks/update' ? { inputResponses: {} } : {}) };
      const answer = await postModern(url, modernRequest(2, method, params), reader);
      expect(answer.status, method).toBe(403);
      expect(answer.headers['www-authenticate'], method).toContain('error="insufficient_scope"');
      expect(answer.headers['www-authenticate'], method).toContain('scope="tasking:write"');
      const { error } = jsonRpcAnswerOf(answer.body) as { error?: Json };
      expect(String(error?.message), method).toMatch(
        /the task of the tool "double_later" needs the OAuth scope "tasking:write"/,
      );
    }
    // The writer still reaches it: the refusal was the scope, not the task.
    expect(await raw(url, 'tasks/get', { taskId: created.taskId }, { token: writer })).toMatchObject({
      status: 'completed',
    });
  });
});
