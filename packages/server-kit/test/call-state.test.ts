import { SwitchyardError } from '@switchyard/contracts/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDomain, mount, specsFor, type DomainLifecycle } from '../src/index.js';
import { connectInMemory, type InMemoryConnection, type ProtocolEra } from '../src/testing.js';

/**
 * `Domain.callState`: what handlers receive when part of a domain loads on first use. Handlers of tools,
 * resources and prompts get the resolved state (never a loader); middleware still gets the opened one; a
 * failure to resolve is the call's error, and the next call resolves again.
 */
interface Opened extends DomainLifecycle {
  loads: number;
  failNext: boolean;
}
interface Loaded {
  greeting: string;
  load: number;
}

const { tool, resource, prompt } = specsFor<Loaded, undefined>();
const { middleware } = specsFor<Opened, undefined>();
const errorPayload = (error: SwitchyardError) => ({ error: { code: error.kind, message: error.message } });
const seenByMiddleware: unknown[] = [];

const lazyDomain = defineDomain({
  name: 'lazy',
  version: '1.0.0',
  title: 'Lazy',
  instructions: 'test',
  toolPrefix: 'lazy',
  config: () => undefined,
  open: (): Opened => ({ loads: 0, failNext: false, close: async () => undefined }),
  async callState(opened: Opened): Promise<Loaded> {
    if (opened.failNext) {
      opened.failNext = false;
      throw new SwitchyardError('internal', 'the lazy part could not be loaded', { retryable: true });
    }
    opened.loads += 1;
    return { greeting: 'hello', load: opened.loads };
  },
  tools: [
    tool({
      name: 'lazy_greet',
      title: 'Greet',
      description: 'Greets from the loaded state.',
      input: z.strictObject({}),
      output: z.strictObject({ greeting: z.string(), load: z.number() }),
      annotations: { readOnlyHint: true, openWorldHint: false },
      errorPayload,
      handler: (_input, call) => ({ greeting: call.state.greeting, load: call.state.load }),
    }),
  ],
  resources: [
    resource({
      uriTemplate: 'lazy://greeting',
      name: 'greeting',
      title: 'Greeting',
      description: 'The greeting',
      mimeType: 'text/plain',
      errorPayload,
      read: async (uri, _variables, call) => [{ uri, mimeType: 'text/plain', text: call.state.greeting }],
    }),
  ],
  prompts: [
    prompt({
      name: 'lazy_prompt',
      title: 'Lazy prompt',
      description: 'A prompt from the loaded state',
      arguments: [],
      tools: ['lazy_greet'],
      errorPayload,
      get: async (_args, call) => [{ role: 'user', content: { type: 'text', text: call.state.greeting } }],
    }),
  ],
  middleware: [
    middleware({
      around: async (invocation, next) => {
        seenByMiddleware.push(invocation.state);
        return next();
      },
    }),
  ],
});

let connection: InMemoryConnection | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
  seenByMiddleware.length = 0;
});

describe.each(['modern', 'legacy'] as ProtocolEra[])('Domain.callState (%s era)', (era) => {
  it('gives tools, resources and prompts the resolved state, middleware the opened one', async () => {
    connection = await connectInMemory([mount(lazyDomain, {})], { era });
    const { client } = connection;
    const answer = await client.callTool({ name: 'lazy_greet', arguments: {} });
    expect(answer.structuredContent).toEqual({ greeting: 'hello', load: 1 });
    const opened = connection.domains.get('lazy') as Opened;
    expect(seenByMiddleware).toEqual([opened]);

    const read = await client.readResource({ uri: 'lazy://greeting' });
    expect(read.contents[0]).toMatchObject({ text: 'hello' });
    const got = await client.getPrompt({ name: 'lazy_prompt', arguments: {} });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'hello' });
  });

  it("answers a failure to resolve as the call's error, and resolves again on the next call", async () => {
    connection = await connectInMemory([mount(lazyDomain, {})], { era });
    const opened = connection.domains.get('lazy') as Opened;
    opened.failNext = true;
    const failed = await connection.client.callTool({ name: 'lazy_greet', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toEqual({
      error: { code: 'internal', message: 'the lazy part could not be loaded' },
    });
    const next = await connection.client.callTool({ name: 'lazy_greet', arguments: {} });
    expect(next.structuredContent).toEqual({ greeting: 'hello', load: 1 });
  });
});
