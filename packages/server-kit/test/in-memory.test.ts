import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  callerPrincipal,
  createProgressReporter,
  defineDomain,
  specsFor,
  type DomainLifecycle,
} from '../src/index.js';
import { connectInMemory, type InMemoryConnection } from '../src/testing.js';
import { echoDomain, type EchoState } from './fixtures/echo-domain.js';
import { memoryLogger } from './helpers.js';

let connection: InMemoryConnection | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

const echoMount = () => ({ domain: echoDomain(), config: undefined });

describe.each(['modern', 'legacy'] as const)('connectInMemory with the echo fixture (%s era)', (era) => {
  it('lists and calls tools and reads the resource through a real SDK client', async () => {
    connection = await connectInMemory([echoMount()], { era });
    const { client } = connection;
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['echo_text', 'progress_count', 'slow_wait']);
    expect(tools.find((tool) => tool.name === 'echo_text')?.inputSchema).toMatchObject({
      required: ['text'],
      properties: { text: { type: 'string', description: 'Text to send back.' } },
    });

    const echoed = await client.callTool({ name: 'echo_text', arguments: { text: 'hello' } });
    expect(echoed.isError).toBeFalsy();
    expect(echoed.structuredContent).toMatchObject({
      text: 'hello',
      principal: `local:${os.userInfo().username}`,
    });

    const bad = await client.callTool({ name: 'echo_text', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ error: { kind: 'validation' } });

    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['echo://info']);
    const read = await client.readResource({ uri: 'echo://info' });
    expect(read.contents[0]).toMatchObject({ text: JSON.stringify({ name: 'echo' }) });
  });

  it('opens each domain once per connection, however many requests it serves, and closes it with the connection', async () => {
    let opens = 0;
    const echo = echoDomain();
    const counted = {
      ...echo,
      open: (...args: Parameters<typeof echo.open>) => (opens++, echo.open(...args)),
    };
    connection = await connectInMemory([{ domain: counted, config: undefined }], { era });
    for (let call = 0; call < 5; call += 1) {
      await connection.client.callTool({ name: 'echo_text', arguments: { text: `call ${call}` } });
    }
    expect(opens).toBe(1);
    const state = connection.domains.get('echo') as EchoState;
    expect(state.stats.closed).toBe(false);
    await connection.close();
    connection = undefined;
    expect(state.stats.closed).toBe(true);
  });

  it('sends notifications/progress when the client passes onprogress (a progress token)', async () => {
    connection = await connectInMemory([echoMount()], { era });
    const updates: unknown[] = [];
    const result = await connection.client.callTool(
      { name: 'progress_count', arguments: { steps: 3 } },
      { onprogress: (progress) => updates.push(progress) },
    );
    expect(result.structuredContent).toEqual({ steps: 3, progressEnabled: true });
    expect(updates).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('sends no progress when the client sent no progress token', async () => {
    connection = await connectInMemory([echoMount()], { era });
    const errors: Error[] = [];
    const notifications: unknown[] = [];
    connection.client.onerror = (error) => errors.push(error);
    connection.client.fallbackNotificationHandler = async (notification) => {
      // progress_count logs each step too (ToolCall.log): only progress is in question here.
      if (notification.method === 'notifications/progress') notifications.push(notification);
    };
    const result = await connection.client.callTool({ name: 'progress_count', arguments: { steps: 3 } });
    expect(result.structuredContent).toEqual({ steps: 3, progressEnabled: false });
    // A progress notification without a token the client knows would surface as an onerror.
    expect(errors).toEqual([]);
    expect(notifications).toEqual([]);
  });
});

describe('connectInMemory options', () => {
  it('keeps explicit undefined options from erasing the defaults', async () => {
    connection = await connectInMemory([echoMount()], { logger: undefined, dataDir: undefined });
    const result = await connection.client.callTool({ name: 'echo_text', arguments: { text: 'ok' } });
    expect(result.isError).toBeFalsy();
  });

  it('passes authInfo through as the caller principal (modern era)', async () => {
    connection = await connectInMemory([echoMount()], {
      authInfo: { token: 'token-abcd', clientId: 'token-abcd', scopes: [] },
    });
    const result = await connection.client.callTool({ name: 'echo_text', arguments: { text: 'who' } });
    expect(result.structuredContent).toMatchObject({ principal: 'client:token-abcd' });
  });
});

describe('createProgressReporter', () => {
  it('never throws from report() when sending fails, and is a no-op without a token', async () => {
    const reporter = createProgressReporter('tok', () => Promise.reject(new Error('client went away')));
    expect(reporter.enabled).toBe(true);
    await expect(reporter.report(1, 2, 'half')).resolves.toBeUndefined();
    const sent: unknown[] = [];
    const silent = createProgressReporter(undefined, async (notification) => void sent.push(notification));
    expect(silent.enabled).toBe(false);
    await silent.report(1);
    expect(sent).toEqual([]);
  });
});

describe('callerPrincipal', () => {
  it('separates authenticated clients and falls back to the local OS user', () => {
    expect(callerPrincipal({ clientId: 'token-aaaa' })).toBe('client:token-aaaa');
    expect(callerPrincipal({ clientId: 'token-bbbb' })).toBe('client:token-bbbb');
    expect(callerPrincipal(undefined)).toBe(`local:${os.userInfo().username}`);
    expect(callerPrincipal({ clientId: '' })).toMatch(/^local:/);
  });
});

/** A domain with a resource template, completions, a prompt and a tool that reports after its answer. */
interface LibraryState extends DomainLifecycle {
  books: Map<string, string>;
}

const { tool, resource, prompt } = specsFor<LibraryState>();
const codedError = (error: SwitchyardError) => ({
  error: { code: error.code ?? error.kind.toUpperCase(), message: error.message },
});
const BOOK_IDS = Array.from({ length: 150 }, (_, index) => `b${String(index).padStart(3, '0')}`);

const libraryDomain = defineDomain({
  name: 'library',
  version: '0.0.0',
  title: 'Library',
  instructions: 'Books as resources.',
  toolPrefix: 'library',
  config: () => undefined,
  open: (): LibraryState => ({
    books: new Map([...BOOK_IDS.map((id) => [id, `Book ${id}`] as const), ['dune', 'Dune']]),
    async close() {},
  }),
  tools: [
    tool({
      name: 'note_later',
      title: 'Note later',
      description: 'Answers at once and logs a note to the client afterwards, where the connection allows.',
      input: z.strictObject({ note: z.string().describe('The note.') }),
      output: z.strictObject({
        canLogLater: z.boolean().describe('Whether a later log can reach the client.'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
      errorPayload: codedError,
      handler: ({ note }, call) => {
        setTimeout(() => call.laterLog?.('info', { note }), 20);
        return { canLogLater: call.laterLog !== undefined };
      },
    }),
  ],
  resources: [
    resource({
      name: 'book',
      uriTemplate: 'library://books/{id}',
      title: 'A book',
      description: 'One book of the library, as text.',
      mimeType: 'text/plain',
      list: async (call) => [
        { uri: 'library://books/dune', name: 'Dune', title: call.state.books.get('dune') },
      ],
      read: async (uri, { id }, call) => {
        if (id === 'crash') throw new TypeError('shelf collapsed');
        const title = call.state.books.get(id ?? '');
        if (title === undefined) {
          throw new SwitchyardError('not-found', `No book "${id}"`, { code: 'BOOK_NOT_FOUND' });
        }
        return [{ uri, mimeType: 'text/plain', text: title }];
      },
      complete: async (variable, value, call) => {
        if (value === 'crash') throw new TypeError('index collapsed: SELECT ... params: secret-shelf');
        return variable === 'id' ? [...call.state.books.keys()].filter((id) => id.startsWith(value)) : [];
      },
      errorPayload: codedError,
    }),
  ],
  prompts: [
    prompt({
      name: 'summarize_book',
      title: 'Summarize a book',
      description: 'Asks for a summary of one book.',
      arguments: [
        {
          name: 'id',
          description: 'The book.',
          required: true,
          complete: async (value, call) => [...call.state.books.keys()].filter((id) => id.startsWith(value)),
        },
      ],
      tools: [],
      get: async ({ id }, call) => {
        const title = call.state.books.get(id ?? '');
        if (title === undefined)
          throw new SwitchyardError('not-found', `No book "${id}"`, { code: 'BOOK_NOT_FOUND' });
        return [{ role: 'user', content: { type: 'text', text: `Summarize ${title}.` } }];
      },
      errorPayload: codedError,
    }),
  ],
});

const libraryMount = () => ({ domain: libraryDomain, config: undefined });

describe.each(['modern', 'legacy'] as const)('resources, prompts and completions (%s era)', (era) => {
  it('lists templates and resources, and reads any URI the template matches', async () => {
    connection = await connectInMemory([libraryMount()], { era });
    const { client } = connection;
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: 'library://books/{id}',
        name: 'book',
        title: 'A book',
        description: 'One book of the library, as text.',
        mimeType: 'text/plain',
      },
    ]);
    expect((await client.listResources()).resources).toEqual([
      { uri: 'library://books/dune', name: 'Dune', title: 'Dune' },
    ]);
    const read = await client.readResource({ uri: 'library://books/b042' });
    expect(read.contents).toEqual([
      { uri: 'library://books/b042', mimeType: 'text/plain', text: 'Book b042' },
    ]);
  });

  it('answers a failed read with a JSON-RPC error carrying the contract code, and an unknown URI as not found', async () => {
    connection = await connectInMemory([libraryMount()], { era });
    const { client } = connection;
    const missing = await client
      .readResource({ uri: 'library://books/nope' })
      .catch((error: unknown) => error);
    expect(missing).toMatchObject({
      code: -32602,
      message: expect.stringContaining('BOOK_NOT_FOUND: No book "nope"'),
      data: { code: 'BOOK_NOT_FOUND' },
    });
    const crash = await client
      .readResource({ uri: 'library://books/crash' })
      .catch((error: unknown) => error);
    expect(crash).toMatchObject({ code: -32603, data: { code: 'INTERNAL' } });
    expect(JSON.stringify(crash)).not.toContain('shelf collapsed');
    const unknown = await client.readResource({ uri: 'elsewhere://x' }).catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: -32602 });
  });

  it('completes template variables and prompt arguments, at most 100 values with the total', async () => {
    connection = await connectInMemory([libraryMount()], { era });
    const { client } = connection;
    const some = await client.complete({
      ref: { type: 'ref/resource', uri: 'library://books/{id}' },
      argument: { name: 'id', value: 'b14' },
    });
    expect(some.completion).toEqual({
      values: Array.from({ length: 10 }, (_, i) => `b14${i}`),
      total: 10,
      hasMore: false,
    });
    const all = await client.complete({
      ref: { type: 'ref/resource', uri: 'library://books/{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(all.completion).toMatchObject({ total: 151, hasMore: true });
    expect(all.completion.values).toHaveLength(100);
    const prompted = await client.complete({
      ref: { type: 'ref/prompt', name: 'summarize_book' },
      argument: { name: 'id', value: 'du' },
    });
    expect(prompted.completion.values).toEqual(['dune']);
  });

  it('completes nothing from text no store holds, and answers a failed completion as INTERNAL, logged', async () => {
    const { logger, lines } = memoryLogger();
    connection = await connectInMemory([libraryMount()], { era, logger });
    const { client } = connection;
    for (const value of ['du\u0000', 'du\ud800']) {
      const none = await client.complete({
        ref: { type: 'ref/resource', uri: 'library://books/{id}' },
        argument: { name: 'id', value },
      });
      expect(none.completion).toEqual({ values: [], total: 0, hasMore: false });
    }
    const crash = await client
      .complete({
        ref: { type: 'ref/resource', uri: 'library://books/{id}' },
        argument: { name: 'id', value: 'crash' },
      })
      .catch((error: unknown) => error);
    expect(crash).toMatchObject({ code: -32603, data: { code: 'INTERNAL' } });
    expect(JSON.stringify(crash)).not.toContain('secret-shelf');
    expect(
      lines.some((line) => line.includes('completion/complete failed') && line.includes('index collapsed')),
    ).toBe(true);
  });

  it('refuses prompt arguments that are not text, naming the argument', async () => {
    connection = await connectInMemory([libraryMount()], { era });
    await expect(
      connection.client.getPrompt({ name: 'summarize_book', arguments: { id: 'du\u0000ne' } }),
    ).rejects.toThrow(/id must be well-formed Unicode text: it has a NUL character/);
  });

  it('gets a prompt, and names what is missing or unknown', async () => {
    connection = await connectInMemory([libraryMount()], { era });
    const { client } = connection;
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      {
        name: 'summarize_book',
        title: 'Summarize a book',
        description: 'Asks for a summary of one book.',
        arguments: [{ name: 'id', description: 'The book.', required: true }],
      },
    ]);
    const got = await client.getPrompt({ name: 'summarize_book', arguments: { id: 'dune' } });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarize Dune.' } }]);
    await expect(client.getPrompt({ name: 'summarize_book', arguments: {} })).rejects.toThrow(
      /Prompt "summarize_book" needs "id"/,
    );
    await expect(client.getPrompt({ name: 'summarize_book', arguments: { id: 'x' } })).rejects.toThrow(
      /BOOK_NOT_FOUND: No book "x"/,
    );
    await expect(client.getPrompt({ name: 'nothing', arguments: {} })).rejects.toThrow(
      /Unknown prompt "nothing"/,
    );
  });
});

describe('laterLog', () => {
  it('exists on a 2025-era connection that outlives the call, and reaches the client after the answer', async () => {
    connection = await connectInMemory([libraryMount()], { era: 'legacy' });
    const { client } = connection;
    const messages: unknown[] = [];
    client.setNotificationHandler('notifications/message', async (notification) => {
      messages.push(notification.params);
    });
    await client.setLoggingLevel('info');
    const result = await client.callTool({
      name: 'note_later',
      arguments: { note: 'done in the background' },
    });
    expect(result.structuredContent).toEqual({ canLogLater: true });
    expect(messages).toEqual([]);
    while (messages.length === 0) await sleep(10);
    expect(messages).toEqual([
      { level: 'info', logger: 'library', data: { note: 'done in the background' } },
    ]);
  });

  it('does not exist in the modern era, where every request has its own server', async () => {
    connection = await connectInMemory([libraryMount()], { era: 'modern' });
    const result = await connection.client.callTool({ name: 'note_later', arguments: { note: 'lost' } });
    expect(result.structuredContent).toEqual({ canLogLater: false });
  });
});
