import type { Readable, Writable } from 'node:stream';
import { rawHttpRequest, type RawHttpResponse } from './raw-http.js';
import { TASKS_EXTENSION } from './task-board.js';
import { MODERN_PROTOCOL_VERSION } from './testing-clients.js';

// A task-aware requester for tests, over HTTP or a stdio pipe. The SDK client has no Tasks runtime: it refuses
// a `resultType: "task"` answer to tools/call, so a test that follows a task sends its requests as they are.

type Json = Record<string, unknown>;

/** The request capabilities of a client that declares the Tasks extension. */
export const DECLARES_TASKS = { extensions: { [TASKS_EXTENSION]: {} } };

/** The envelope every 2026-07-28 request carries in `params._meta` (there is no handshake). */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-07-28 request as a client declaring `capabilities` frames it. */
export function modernRequest(
  id: number,
  method: string,
  params: Json,
  capabilities: Json = DECLARES_TASKS,
): Json {
  const _meta = { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': capabilities };
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta } };
}

/** The JSON-RPC answer in an HTTP response body: plain JSON, or the last `data:` event of an SSE stream. */
export function jsonRpcAnswerOf(body: string): Json {
  const json = body.startsWith('{')
    ? body
    : body
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5))
        .at(-1)!;
  return JSON.parse(json) as Json;
}

/** Sends one framed request and resolves with its JSON-RPC answer. */
export type SendRequest = (message: Json) => Promise<Json>;

/**
 * POSTs one JSON-RPC message as a 2026-07-28 client does, with the routing headers (`Mcp-Method`, `Mcp-Name`)
 * and any `headers` more (a tool's `Mcp-Param-*`).
 */
export function postModern(
  url: string,
  message: Json,
  token?: string,
  headers: Record<string, string> = {},
): Promise<RawHttpResponse> {
  const params = (message.params ?? {}) as Json;
  const name = typeof params.name === 'string' ? params.name : params.taskId;
  return rawHttpRequest(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      'mcp-method': String(message.method),
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: JSON.stringify(message),
  });
}

/** Sends each request with `postModern` and reads its JSON-RPC answer. */
export function overHttp(url: string, token?: string): SendRequest {
  return async (message) => jsonRpcAnswerOf((await postModern(url, message, token)).body);
}

/** Writes each request as a line to a server's stdin and matches the answer read from its stdout by id. */
export function overStdio(stdin: Writable, stdout: Readable): SendRequest {
  const waiting = new Map<unknown, (answer: Json) => void>();
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      if (line.trim() === '') continue;
      const answer = JSON.parse(line) as Json;
      waiting.get(answer.id)?.(answer);
      waiting.delete(answer.id);
    }
  });
  return (message) =>
    new Promise((resolve) => {
      waiting.set(message.id, resolve);
      stdin.write(`${JSON.stringify(message)}\n`);
    });
}

/**
 * Answers one of a task's input requests (`{ method, params }` under `key`) as the client's handler for its
 * method would (a sampling handler answers `sampling/createMessage` with a `CreateMessageResult`).
 */
export type InputAnswerer = (request: { method: string; params: Json }, key: string) => Promise<unknown>;

/**
 * A client of the Tasks extension over `send`: raw results (or `{ error }`), and a task followed to its end;
 * with `answer`, a task that asks for input (`input_required`) is answered with `tasks/update` on the way.
 */
export class TaskRequester {
  private nextId = 1;

  constructor(
    private readonly send: SendRequest,
    private readonly capabilities: Json = DECLARES_TASKS,
    private readonly answer?: InputAnswerer,
  ) {}

  /** A request's result, or its JSON-RPC error as `{ error }`. */
  async request(method: string, params: Json): Promise<Json> {
    const answer = await this.send(modernRequest(this.nextId++, method, params, this.capabilities));
    return (answer.result ?? { error: answer.error }) as Json;
  }

  callTool(name: string, args: Json): Promise<Json> {
    return this.request('tools/call', { name, arguments: args });
  }

  /**
   * Polls `tasks/get` until the task leaves `working` (or `timeoutMs` passes); the last answer. With an
   * answerer, each `input_required` on the way is answered (every request, one `tasks/update`) and polling
   * goes on.
   */
  async untilSettled(taskId: string, timeoutMs = 60_000, intervalMs = 50): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const task = await this.request('tasks/get', { taskId });
      const answering = task.status === 'input_required' && this.answer !== undefined;
      if ((task.status !== 'working' && !answering) || Date.now() > deadline) return task;
      if (answering) await this.answerInput(taskId, task.inputRequests as Record<string, Json>);
      else await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  /** Answers every one of `requests` with the answerer and sends the answers with `tasks/update`. */
  async answerInput(taskId: string, requests: Record<string, Json>): Promise<Json> {
    const answer = this.answer!;
    const inputResponses: Json = {};
    for (const [key, request] of Object.entries(requests)) {
      inputResponses[key] = await answer(request as { method: string; params: Json }, key);
    }
    return this.request('tasks/update', { taskId, inputResponses });
  }
}
