import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DomainLifecycle, Mount } from '../src/index.js';
import {
  clientFor,
  connectInMemory,
  MODERN_PROTOCOL_VERSION,
  rawHttpRequest,
  type ProtocolEra,
} from '../src/testing.js';
import { askingDomain, type AskingState } from './fixtures/asking-domain.js';
import {
  httpTestHarness,
  jsonRpcAnswerOf,
  MCP_POST_HEADERS,
  MODERN_META,
  startInProcessStdio,
} from './helpers.js';

const KEY = 'an operator key of more than thirty-two bytes, for tests';

function askingMount(): Mount<unknown, DomainLifecycle> {
  return { domain: askingDomain(), config: undefined } as Mount<unknown, DomainLifecycle>;
}

/** A client that answers the kinds of question it declared, counting them. */
function answering(client: Client, declared: Record<string, object>): { asked: string[] } {
  const asked: string[] = [];
  if (declared.elicitation !== undefined) answerElicitation(client, asked);
  if (declared.sampling !== undefined) answerSampling(client, asked);
  if (declared.roots !== undefined) {
    client.setRequestHandler('roots/list', async () => {
      asked.push('roots');
      return { roots: [{ uri: 'file:///work/a', name: 'a' }] };
    });
  }
  return { asked };
}

function answerElicitation(client: Client, asked: string[]): void {
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    const field = request.params.message === 'Which topic?' ? 'topic' : 'name';
    return { action: 'accept', content: { [field]: field === 'topic' ? 'trains' : 'Alice' } };
  });
}

function answerSampling(client: Client, asked: string[]): void {
  client.setRequestHandler('sampling/createMessage', async (request) => {
    const question = request.params.messages[0]!.content;
    const text = 'text' in question ? question.text : '';
    asked.push(text);
    return {
      role: 'assistant',
      content: { type: 'text', text: text.startsWith('Shorter') ? 'Short title' : 'A long draft title' },
      model: 'scripted',
      stopReason: 'endTurn',
    };
  });
}

const EVERYTHING = { elicitation: {}, sampling: {}, roots: {} };

/** One raw 2026-07-28 request over HTTP (a client that drives the rounds itself), and its JSON-RPC answer. */
async function rawRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  clientCapabilities: Record<string, unknown> = EVERYTHING,
): Promise<{ status: number; body: { result?: Record<string, unknown>; error?: Record<string, unknown> } }> {
  const answer = await rawHttpRequest(url, {
    method: 'POST',
    headers: {
      ...MCP_POST_HEADERS,
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      'mcp-method': method,
      'mcp-name': String(params.name ?? params.uri),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method,
      params: {
        ...params,
        _meta: { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': clientCapabilities },
      },
    }),
  });
  return { status: answer.status, body: jsonRpcAnswerOf(answer.body) };
}

const NAME_ANSWER = { name: { action: 'accept', content: { name: 'Bob' } } };

describe('multi round-trip requests (SEP-2322): a handler asks the client, then is called again', () => {
  // 2026-07-28: the client's SDK answers input_required and calls again. 2025-11-25 over a connection (the
  // in-memory pair serves as stdio does): server-kit's SDK sends the questions to the client and calls again.
  describe.each(['modern', 'legacy'] as ProtocolEra[])('%s era, a real SDK client answering', (era) => {
    let close: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });

    async function connect(clientCapabilities: Record<string, object> = EVERYTHING) {
      const connection = await connectInMemory([askingMount()], { era, clientCapabilities });
      close = connection.close;
      const state = connection.domains.get('asking') as AskingState;
      return { client: connection.client, state, ...answering(connection.client, clientCapabilities) };
    }

    it('a tool gets the answer and its own state back, and answers', async () => {
      const { client, state, asked } = await connect();
      const answer = await client.callTool({ name: 'greet_by_name', arguments: {} });
      expect(answer.structuredContent).toEqual({ text: 'Hello, Alice', rounds: 1 });
      expect(asked).toEqual(['What is your name?']);
      expect(state.entries).toEqual([
        { handler: 'greet_by_name', requestState: undefined },
        { handler: 'greet_by_name', requestState: { round: 1 } },
      ]);
    });

    it('asks again on the next round with new state (two sampling rounds)', async () => {
      const { client, asked } = await connect();
      const answer = await client.callTool({ name: 'draft_title', arguments: {} });
      expect(answer.structuredContent).toEqual({ text: 'Short title', rounds: 2 });
      expect(asked).toEqual(['A title, please', 'Shorter than: A long draft title']);
    });

    it('a prompt and a resource ask too', async () => {
      const { client } = await connect();
      const prompt = await client.getPrompt({ name: 'ask_topic' });
      expect(prompt.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Write about trains' } },
      ]);
      const read = await client.readResource({ uri: 'asking://roots' });
      expect(read.contents).toEqual([
        { uri: 'asking://roots', mimeType: 'text/plain', text: 'file:///work/a' },
      ]);
    });

    it('a handler sees what the client declared: without elicitation it answers without asking', async () => {
      const { client, asked } = await connect({ sampling: {} });
      const answer = await client.callTool({ name: 'greet_by_name', arguments: {} });
      expect(answer.structuredContent).toEqual({ text: 'Hello, stranger', rounds: 0 });
      expect(asked).toEqual([]);
    });

    it('a tool that requires sampling refuses a client without it (-32021), before its handler runs', async () => {
      const { client, state } = await connect({ elicitation: {} });
      const refused = await client.callTool({ name: 'draft_title', arguments: {} }).catch((error) => error);
      expect(refused).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
      expect(state.entries).toEqual([]);
    });

    it('a question the client did not declare it can answer is refused (-32021), never sent', async () => {
      const { client, asked } = await connect({ elicitation: {} });
      const refused = await client.callTool({ name: 'list_client_roots', arguments: {} }).catch((e) => e);
      expect(refused).toMatchObject({ code: -32021, data: { requiredCapabilities: { roots: {} } } });
      expect(asked).toEqual([]);
    });
  });

  it.each(['modern', 'legacy'] as ProtocolEra[])(
    '%s era over the stdio host: the handler asks, the client answers, one code path',
    async (era) => {
      const stdio = await startInProcessStdio([askingMount()]);
      try {
        const client = await stdio.connectClient(era, EVERYTHING);
        const { asked } = answering(client, EVERYTHING);
        const answer = await client.callTool({ name: 'draft_title', arguments: {} });
        expect(answer.structuredContent).toEqual({ text: 'Short title', rounds: 2 });
        expect(asked).toEqual(['A title, please', 'Shorter than: A long draft title']);
      } finally {
        await stdio.close();
      }
    },
  );

  it('2025-11-25 over a connection: SWITCHYARD_INPUT_MAX_ROUNDS bounds the rounds one request may ask', async () => {
    const connection = await connectInMemory([askingMount()], {
      era: 'legacy',
      clientCapabilities: EVERYTHING,
      env: { SWITCHYARD_INPUT_MAX_ROUNDS: '1' },
    });
    try {
      const { asked } = answering(connection.client, EVERYTHING);
      const once = await connection.client.callTool({ name: 'greet_by_name', arguments: {} });
      expect(once.structuredContent).toEqual({ text: 'Hello, Alice', rounds: 1 });
      // draft_title asks twice: the second round is one too many.
      const twice = await connection.client.callTool({ name: 'draft_title', arguments: {} });
      expect(twice.isError).toBe(true);
      expect(JSON.stringify(twice.content)).toContain('still required input after 1 rounds');
      expect(asked).toEqual(['What is your name?', 'A title, please']);
    } finally {
      await connection.close();
    }
  });

  it("2026-07-28: one caller's sealed state is refused in another's request (bound to the principal)", async () => {
    const as = (principal: string) =>
      connectInMemory([askingMount()], {
        clientCapabilities: EVERYTHING,
        requestState: { key: KEY },
        authInfo: { token: principal, clientId: principal, scopes: [], extra: { principal } },
      });
    const [alice, mallory] = [await as('alice'), await as('mallory')];
    try {
      const first = (await alice.client.request(
        { method: 'tools/call', params: { name: 'greet_by_name', arguments: {} } },
        { allowInputRequired: true },
      )) as { resultType?: string; requestState?: string };
      expect(first).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
      const retry = (client: Client) =>
        client.request(
          {
            method: 'tools/call',
            params: {
              name: 'greet_by_name',
              arguments: {},
              inputResponses: NAME_ANSWER,
              requestState: first.requestState,
            },
          },
          { allowInputRequired: true },
        );
      await expect(retry(mallory.client)).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('Invalid or expired requestState'),
      });
      expect(await retry(alice.client)).toMatchObject({
        structuredContent: { text: 'Hello, Bob', rounds: 1 },
      });
    } finally {
      await alice.close();
      await mallory.close();
    }
  });

  it('2026-07-28: a sealed state older than SWITCHYARD_REQUEST_STATE_TTL_S is refused', async () => {
    const connection = await connectInMemory([askingMount()], {
      clientCapabilities: EVERYTHING,
      env: { SWITCHYARD_REQUEST_STATE_TTL_S: '60' },
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const call = (params: Record<string, unknown> = {}) =>
        connection.client.request(
          { method: 'tools/call', params: { name: 'greet_by_name', arguments: {}, ...params } },
          { allowInputRequired: true },
        );
      const { requestState } = (await call()) as unknown as { requestState: string };
      vi.setSystemTime(Date.now() + 61_000);
      await expect(call({ inputResponses: NAME_ANSWER, requestState })).rejects.toMatchObject({
        code: -32602,
      });
      vi.setSystemTime(Date.now() - 61_000 + 59_000);
      expect(await call({ inputResponses: NAME_ANSWER, requestState })).toMatchObject({
        structuredContent: { text: 'Hello, Bob' },
      });
    } finally {
      vi.useRealTimers();
      await connection.close();
    }
  });

  describe('2025-11-25 over stateless HTTP: no connection to ask on', () => {
    const h = httpTestHarness();
    afterEach(() => h.closeAll());

    async function legacyClient() {
      const { url, server } = await h.start([askingMount()]);
      const client = clientFor('legacy', 'legacy-http', EVERYTHING);
      const { asked } = answering(client, EVERYTHING);
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return {
        client,
        asked,
        state: server.domains.get('asking') as AskingState,
        close: () => client.close(),
      };
    }

    it('a handler sees no capabilities, so it answers without asking', async () => {
      const { client, asked, close } = await legacyClient();
      try {
        const answer = await client.callTool({ name: 'greet_by_name', arguments: {} });
        expect(answer.structuredContent).toEqual({ text: 'Hello, stranger', rounds: 0 });
        expect(asked).toEqual([]);
      } finally {
        await close();
      }
    });

    it('a required capability or a question is refused (-32021), saying to use 2026-07-28 or stdio', async () => {
      const { client, asked, state, close } = await legacyClient();
      try {
        for (const name of ['draft_title', 'list_client_roots']) {
          const refused = await client.callTool({ name, arguments: {} }).catch((error) => error);
          expect(refused, name).toMatchObject({ code: -32021 });
          expect(String(refused.message)).toContain('use protocol 2026-07-28, or stdio');
        }
        expect(asked).toEqual([]);
        expect(state.entries.map((entry) => entry.handler)).toEqual(['list_client_roots']);
      } finally {
        await close();
      }
    });
  });

  describe('2026-07-28 over HTTP, a client driving the rounds itself', () => {
    const h = httpTestHarness();
    afterEach(() => h.closeAll());

    const start = (env: Record<string, string> = {}) =>
      h.start([askingMount()], {}, { env: { SWITCHYARD_REQUEST_STATE_KEY: KEY, ...env } });
    const entriesOf = (server: { domains: ReadonlyMap<string, DomainLifecycle> }) =>
      (server.domains.get('asking') as AskingState).entries;

    async function firstRound(url: string, name = 'greet_by_name', args: Record<string, unknown> = {}) {
      const { body } = await rawRequest(url, 'tools/call', { name, arguments: args });
      expect(body.result).toMatchObject({ resultType: 'input_required', inputRequests: expect.any(Object) });
      return body.result!.requestState as string;
    }

    it('answers input_required with a sealed requestState, and completes when it comes back whole', async () => {
      const { url, server } = await start();
      const sealed = await firstRound(url);
      expect(sealed).toMatch(/^v1\./);
      const { body } = await rawRequest(url, 'tools/call', {
        name: 'greet_by_name',
        arguments: {},
        inputResponses: NAME_ANSWER,
        requestState: sealed,
      });
      expect(body.result).toMatchObject({ structuredContent: { text: 'Hello, Bob', rounds: 1 } });
      expect(entriesOf(server).at(-1)).toEqual({ handler: 'greet_by_name', requestState: { round: 1 } });
    });

    it('refuses a tampered, foreign or misdirected state (-32602), and no handler sees it', async () => {
      const { url, server, lines } = await start();
      const sealed = await firstRound(url);
      const other = await start({ SWITCHYARD_REQUEST_STATE_KEY: `${KEY} (another)` });
      const foreign = await firstRound(other.url);
      const body = sealed.slice(3, sealed.lastIndexOf('.'));
      const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      decoded.p.state.round = 9;
      const forged = `v1.${Buffer.from(JSON.stringify(decoded)).toString('base64url')}${sealed.slice(sealed.lastIndexOf('.'))}`;
      const cases: [string, string][] = [
        ['greet_by_name', `${sealed}-TAMPERED`],
        ['greet_by_name', forged],
        ['greet_by_name', foreign],
        ['greet_by_name', 'not a sealed state'],
        // Sealed for greet_by_name: another tool refuses it.
        ['draft_title', sealed],
      ];
      const before = entriesOf(server).length;
      for (const [name, requestState] of cases) {
        const { status, body: answer } = await rawRequest(url, 'tools/call', {
          name,
          arguments: {},
          inputResponses: NAME_ANSWER,
          requestState,
        });
        expect(answer.error, `${name} ${requestState}`).toMatchObject({
          code: -32602,
          message: 'Invalid or expired requestState',
        });
        expect(status).toBe(200);
      }
      expect(entriesOf(server).length).toBe(before);
      expect(lines.join('\n')).not.toContain(KEY);
    });

    it('a replica with the same key accepts the state another minted (one URL, several processes)', async () => {
      const first = await start();
      const second = await start();
      const sealed = await firstRound(first.url);
      const { body } = await rawRequest(second.url, 'tools/call', {
        name: 'greet_by_name',
        arguments: {},
        inputResponses: NAME_ANSWER,
        requestState: sealed,
      });
      expect(body.result).toMatchObject({ structuredContent: { text: 'Hello, Bob', rounds: 1 } });
    });

    it('bounds the state by SWITCHYARD_MAX_REQUEST_STATE_BYTES: a larger one is refused coming and going', async () => {
      const { url, server } = await start({ SWITCHYARD_MAX_REQUEST_STATE_BYTES: '2048' });
      const fits = await firstRound(url, 'keep_state', { chars: 1000 });
      expect(fits.length).toBeLessThanOrEqual(2048);
      const kept = await rawRequest(url, 'tools/call', {
        name: 'keep_state',
        arguments: { chars: 1000 },
        inputResponses: NAME_ANSWER,
        requestState: fits,
      });
      expect(kept.body.result).toMatchObject({ structuredContent: { text: 'kept 1000' } });

      // Sealed with the same key by a replica with a larger limit: whole, yet over this server's limit.
      const roomy = await start({ SWITCHYARD_MAX_REQUEST_STATE_BYTES: '65536' });
      const large = await firstRound(roomy.url, 'keep_state', { chars: 3000 });
      const oversized = await rawRequest(url, 'tools/call', {
        name: 'keep_state',
        arguments: { chars: 3000 },
        inputResponses: NAME_ANSWER,
        requestState: large,
      });
      expect(oversized.body.error).toMatchObject({
        code: -32602,
        message: 'Invalid or expired requestState',
      });
      const accepted = await rawRequest(roomy.url, 'tools/call', {
        name: 'keep_state',
        arguments: { chars: 3000 },
        inputResponses: NAME_ANSWER,
        requestState: large,
      });
      expect(accepted.body.result).toMatchObject({ structuredContent: { text: 'kept 3000' } });

      const before = entriesOf(server).length;
      const tooMuch = await rawRequest(url, 'tools/call', { name: 'keep_state', arguments: { chars: 4000 } });
      expect(tooMuch.body.error).toMatchObject({ code: -32603 });
      expect(String(tooMuch.body.error?.message)).toContain('SWITCHYARD_MAX_REQUEST_STATE_BYTES (2048)');
      expect(entriesOf(server).length).toBe(before + 1);
    });

    it('a missing capability answers -32021 with HTTP status 400', async () => {
      const { url } = await start();
      const { status, body } = await rawRequest(
        url,
        'tools/call',
        { name: 'draft_title', arguments: {} },
        {},
      );
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    });

    it('a key shorter than 32 bytes fails the start, naming the variable, never the value', async () => {
      const short = 'short-secret-key';
      const failure = await start({ SWITCHYARD_REQUEST_STATE_KEY: short }).catch((error: Error) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toContain('SWITCHYARD_REQUEST_STATE_KEY must be at least 32 bytes');
      expect((failure as Error).message).not.toContain(short);
    });
  });
});
