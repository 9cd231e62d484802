import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DomainLifecycle, Mount, TaskSnapshot } from '../src/index.js';
import { DECLARES_TASKS, modernRequest, MODERN_PROTOCOL_VERSION, overHttp } from '../src/testing.js';
import { taskingDomain, type MemoryBoard, type TaskingState } from './fixtures/tasking-domain.js';
import { httpTestHarness, startInProcessStdio } from './helpers.js';

// notifications/tasks: the kit serves a listen naming taskIds itself (task-listens.ts), over HTTP and stdio.

type Json = Record<string, unknown>;
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const FAST = { pollIntervalMs: 20 };

function taskingMount(): Mount<unknown, DomainLifecycle> {
  return { domain: taskingDomain(), config: undefined } as Mount<unknown, DomainLifecycle>;
}

function boardOf(domains: ReadonlyMap<string, DomainLifecycle> | undefined): MemoryBoard {
  return (domains?.get('tasking') as TaskingState).board;
}

/** Changes a held task as its worker would (its update time moves on too). */
function change(board: MemoryBoard, taskId: string, patch: Partial<TaskSnapshot>): void {
  const held = board.tasks.get(taskId)!;
  held.snapshot = { ...held.snapshot, ...patch, lastUpdatedAt: new Date() };
}

/** Puts a task on the board as another principal's. */
function theirs(board: MemoryBoard, taskId: string, like: string): void {
  board.put({ taskId, principal: 'someone-else' }, board.tasks.get(like)!.snapshot);
}

function listenForTasks(id: number, taskIds: unknown, capabilities: Json = DECLARES_TASKS): Json {
  return modernRequest(id, 'subscriptions/listen', { notifications: { taskIds } }, capabilities);
}

function withoutEnvelope(message: Json): Json {
  const { _meta: _envelope, resultType: _kind, ...rest } = message;
  return rest;
}

const { start, closeAll } = httpTestHarness();
afterEach(async () => {
  await closeAll();
});

/** A listen POSTed as a 2026-07-28 client does (fetch: its stream is read as it comes). */
function postListen(url: string, message: Json, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      'mcp-method': 'subscriptions/listen',
      ...headers,
    },
    body: JSON.stringify(message),
  });
}

/** A listen's SSE stream, read message by message as they come. */
async function openListen(url: string, message: Json) {
  const response = await postListen(url, message);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  const queued: Json[] = [];
  /** The next message, or undefined once the stream ended. */
  const next = async (): Promise<Json | undefined> => {
    for (;;) {
      if (queued.length > 0) return queued.shift();
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffered += value;
      const frames = buffered.split('\n\n');
      buffered = frames.pop() ?? '';
      for (const frame of frames) {
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('');
        if (data !== '') queued.push(JSON.parse(data) as Json);
      }
    }
  };
  return { status: response.status, type: response.headers.get('content-type'), next };
}

describe('task notifications over HTTP: the kit serves a listen naming taskIds', () => {
  async function startTasks(tasks: Json = FAST, extra: Json = {}) {
    const started = await start([taskingMount()], {}, { tasks, ...extra });
    const send = overHttp(started.url);
    let id = 1;
    const request = async (method: string, params: Json): Promise<Json> =>
      ((await send(modernRequest(id++, method, params))).result ?? {}) as Json;
    const working = async (): Promise<string> =>
      String(
        (await request('tools/call', { name: 'double_later', arguments: { value: 5, how: 'working' } }))
          .taskId,
      );
    return { ...started, board: boardOf(started.server.domains), request, working };
  }

  it('acknowledges only the caller’s own tasks, sends each change and a final one, and ends when all are terminal', async () => {
    const { url, board, request, working, lines } = await startTasks();
    const first = await working();
    const second = await working();
    theirs(board, 'tasking.theirs', first);
    const listen = await openListen(
      url,
      listenForTasks(201, [first, 'tasking.theirs', 'tasking.unknown', 'nowhere', second, first]),
    );
    expect(listen.status).toBe(200);
    expect(listen.type).toBe('text/event-stream');
    expect(await listen.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [first, second] }, _meta: { [SUBSCRIPTION_ID]: 201 } },
    });
    // Right after the acknowledgement: each task as tasks/get answers it now.
    const now = await listen.next();
    expect(now).toMatchObject({
      method: 'notifications/tasks',
      params: { _meta: { [SUBSCRIPTION_ID]: 201 } },
    });
    expect(withoutEnvelope(now!.params as Json)).toEqual(
      withoutEnvelope(await request('tasks/get', { taskId: first })),
    );
    expect(await listen.next()).toMatchObject({ params: { taskId: second, status: 'working' } });

    change(board, first, { statusMessage: 'half way' });
    expect(await listen.next()).toMatchObject({
      method: 'notifications/tasks',
      params: { taskId: first, status: 'working', statusMessage: 'half way' },
    });
    change(board, first, { status: 'completed', outcome: { kind: 'output', output: { doubled: 10 } } });
    const done = await listen.next();
    expect(done).toMatchObject({
      params: { taskId: first, status: 'completed', result: { structuredContent: { doubled: 10 } } },
    });
    expect(withoutEnvelope(done!.params as Json)).toEqual(
      withoutEnvelope(await request('tasks/get', { taskId: first })),
    );

    await request('tasks/cancel', { taskId: second });
    expect(await listen.next()).toMatchObject({ params: { taskId: second, status: 'cancelled' } });
    expect(await listen.next()).toEqual({
      jsonrpc: '2.0',
      id: 201,
      result: {
        resultType: 'complete',
        _meta: {
          [SUBSCRIPTION_ID]: 201,
          'io.modelcontextprotocol/serverInfo': { name: 'http-test', version: '0.0.0' },
        },
      },
    });
    expect(await listen.next()).toBeUndefined();
    expect(lines.join('\n')).not.toContain('a watched task could not be read');
  });

  it('acknowledges no task when none is the caller’s, and ends at once with the final result', async () => {
    const { url, board, working } = await startTasks();
    theirs(board, 'tasking.theirs', await working());
    const listen = await openListen(url, listenForTasks(202, ['tasking.theirs', 'tasking.unknown']));
    expect(await listen.next()).toMatchObject({ params: { notifications: { taskIds: [] } } });
    expect(await listen.next()).toMatchObject({ id: 202, result: { resultType: 'complete' } });
    expect(await listen.next()).toBeUndefined();
  });

  it('acknowledges at most SWITCHYARD_TASK_LISTEN_MAX_IDS ids, and refuses a listen past SWITCHYARD_TASK_LISTENS_MAX', async () => {
    const { url, board, working } = await startTasks(
      {},
      {
        env: {
          SWITCHYARD_TASK_POLL_INTERVAL_MS: '20',
          SWITCHYARD_TASK_LISTEN_MAX_IDS: '1',
          SWITCHYARD_TASK_LISTENS_MAX: '1',
        },
      },
    );
    const first = await working();
    const second = await working();
    const listen = await openListen(url, listenForTasks(203, [first, second]));
    expect(await listen.next()).toMatchObject({ params: { notifications: { taskIds: [first] } } });
    expect(await listen.next()).toMatchObject({ params: { taskId: first } });

    const body = await fetchJson(url, listenForTasks(205, [second]));
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 205,
      error: { code: -32603, message: 'Subscription limit reached' },
    });

    change(board, first, { status: 'cancelled' });
    expect(await listen.next()).toMatchObject({ params: { taskId: first, status: 'cancelled' } });
    expect(await listen.next()).toMatchObject({ id: 203, result: { resultType: 'complete' } });
    expect(await listen.next()).toBeUndefined();
    // The slot is free again.
    const again = await openListen(url, listenForTasks(206, [second]));
    expect(await again.next()).toMatchObject({ params: { notifications: { taskIds: [second] } } });
    change(board, second, { status: 'cancelled' });
    const rest: Json[] = [];
    for (let message = await again.next(); message !== undefined; message = await again.next())
      rest.push(message);
    expect(rest.at(-1)).toMatchObject({ id: 206, result: { resultType: 'complete' } });
  });

  it('answers taskIds that are not a list of strings with the SDK’s invalid-params error', async () => {
    const { url } = await startTasks();
    expect(await fetchJson(url, listenForTasks(207, 'tasking.x'))).toEqual({
      jsonrpc: '2.0',
      id: 207,
      error: {
        code: -32602,
        message: "Invalid params: 'notifications' is required and must be a valid SubscriptionFilter",
      },
    });
  });

  it('leaves a listen without taskIds, and one whose envelope the SDK refuses, to the SDK', async () => {
    const { url, working } = await startTasks();
    const changes = await openListen(
      url,
      modernRequest(209, 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
    );
    // The SDK honours nothing here (no listChanged advertised): an empty acknowledgement, then its result.
    expect(await changes.next()).toMatchObject({ params: { notifications: {} } });
    expect(await changes.next()).toMatchObject({ id: 209, result: { resultType: 'complete' } });
    const mismatched = await postListen(url, listenForTasks(210, [await working()]), {
      'mcp-method': 'tools/call',
    });
    expect(mismatched.status).toBe(400);
    expect(await mismatched.json()).toMatchObject({ id: 210, error: { code: -32020 } });
  });

  it('does not hold the server’s graceful close: close ends an open listen at once, with its final result', async () => {
    const { url, server, working } = await startTasks(FAST, { shutdownGraceMs: 600_000 });
    const listen = await openListen(url, listenForTasks(208, [await working()]));
    expect(await listen.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    await server.close();
    const rest: Json[] = [];
    for (let message = await listen.next(); message !== undefined; message = await listen.next())
      rest.push(message);
    expect(rest.at(-1)).toMatchObject({ id: 208, result: { resultType: 'complete' } });
  });
});

/** A refused listen's JSON answer (no stream is opened). */
async function fetchJson(url: string, message: Json): Promise<Json> {
  const response = await postListen(url, message);
  expect(response.headers.get('content-type')).toContain('application/json');
  return (await response.json()) as Json;
}

describe('task notifications over stdio: the kit serves a listen naming taskIds', () => {
  async function startStdio() {
    const stdio = await startInProcessStdio([taskingMount()], { tasks: FAST });
    await stdio.connectClient('modern', DECLARES_TASKS);
    let id = 1;
    const working = async (): Promise<string> => {
      const callId = id++;
      stdio.write(
        `${JSON.stringify(modernRequest(callId, 'tools/call', { name: 'double_later', arguments: { value: 2, how: 'working' } }))}\n`,
      );
      return String(((await stdio.response(callId)).result as Json).taskId);
    };
    /** The messages on listen `listenId` so far, once `count` are there. */
    const on = (listenId: number, count: number) =>
      vi.waitFor(() => {
        const found = stdio.output.filter(
          (message) =>
            ((message.params as { _meta?: Json } | undefined)?._meta?.[SUBSCRIPTION_ID] ?? message.id) ===
            listenId,
        );
        if (found.length < count)
          throw new Error(`${found.length} of ${count} messages on listen ${listenId}`);
        return found;
      });
    return { stdio, board: boardOf(stdio.domains), working, on };
  }

  it('sends the acknowledged tasks’ changes on the connection, stamped with the listen, and a final result', async () => {
    const { stdio, board, working, on } = await startStdio();
    try {
      const mine = await working();
      theirs(board, 'tasking.theirs', mine);
      stdio.write(`${JSON.stringify(listenForTasks(301, ['tasking.theirs', mine]))}\n`);
      const [ack, now] = await on(301, 2);
      expect(ack).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { taskIds: [mine] } },
      });
      expect(now).toMatchObject({
        method: 'notifications/tasks',
        params: { taskId: mine, status: 'working' },
      });
      change(board, mine, { status: 'completed', outcome: { kind: 'output', output: { doubled: 4 } } });
      const [, , done, final] = await on(301, 4);
      expect(done).toMatchObject({
        params: { taskId: mine, status: 'completed', result: { structuredContent: { doubled: 4 } } },
      });
      expect(final).toMatchObject({
        id: 301,
        result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 301 } },
      });
    } finally {
      await stdio.close();
    }
  });

  it('stops a listen the client cancels (nothing more on it), and ends open ones at shutdown with their result', async () => {
    const { stdio, board, working, on } = await startStdio();
    try {
      const task = await working();
      stdio.write(`${JSON.stringify(listenForTasks(302, [task]))}\n`);
      stdio.write(`${JSON.stringify(listenForTasks(303, [task]))}\n`);
      await on(302, 2);
      await on(303, 2);
      stdio.write(
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 302 } })}\n`,
      );
      // The cancel reached the server once a later request is answered (one connection, in order).
      await working();
      change(board, task, { statusMessage: 'later' });
      await on(303, 3);
      expect(await on(302, 2)).toHaveLength(2);
      stdio.stopAccepting();
      expect((await on(303, 4)).at(-1)).toMatchObject({ id: 303, result: { resultType: 'complete' } });
      expect(stdio.output.some((message) => message.id === 302)).toBe(false);
    } finally {
      await stdio.close();
    }
  });
});
