import os from 'node:os';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { callerPrincipal, createProgressReporter } from '../src/index.js';
import { connectInMemory, type InMemoryConnection } from '../src/testing.js';
import { createEchoModule } from './fixtures/echo-module.js';

let connection: InMemoryConnection | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

describe('connectInMemory with the echo fixture', () => {
  it('lists and calls tools and reads the resource through a real SDK client', async () => {
    connection = await connectInMemory([createEchoModule()]);
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

  it('each connection registers the module again (register runs per session)', async () => {
    const module = createEchoModule();
    const first = await connectInMemory([module]);
    const second = await connectInMemory([module]);
    await first.close();
    await second.close();
    expect(module.stats.registrations).toBe(2);
  });

  it('keeps explicit undefined options from erasing the defaults', async () => {
    connection = await connectInMemory([createEchoModule()], { logger: undefined, dataDir: undefined });
    const result = await connection.client.callTool({ name: 'echo_text', arguments: { text: 'ok' } });
    expect(result.isError).toBeFalsy();
  });
});

describe('progress', () => {
  it('sends notifications/progress when the client passes onprogress (a progress token)', async () => {
    connection = await connectInMemory([createEchoModule()]);
    const updates: Progress[] = [];
    const result = await connection.client.callTool(
      { name: 'progress_count', arguments: { steps: 3 } },
      undefined,
      { onprogress: (progress) => updates.push(progress) },
    );
    expect(result.structuredContent).toEqual({ steps: 3, progressEnabled: true });
    expect(updates).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('sends nothing when the client sent no progress token', async () => {
    connection = await connectInMemory([createEchoModule()]);
    const errors: Error[] = [];
    const notifications: unknown[] = [];
    connection.client.onerror = (error) => errors.push(error);
    connection.client.fallbackNotificationHandler = async (notification) => {
      notifications.push(notification);
    };
    const result = await connection.client.callTool({ name: 'progress_count', arguments: { steps: 3 } });
    expect(result.structuredContent).toEqual({ steps: 3, progressEnabled: false });
    // A progress notification without a token the client knows would surface as an onerror.
    expect(errors).toEqual([]);
    expect(notifications).toEqual([]);
  });

  it('never throws from report() when sending fails', async () => {
    const reporter = createProgressReporter({
      _meta: { progressToken: 'tok' },
      sendNotification: () => Promise.reject(new Error('client went away')),
    });
    expect(reporter.enabled).toBe(true);
    await expect(reporter.report(1, 2, 'half')).resolves.toBeUndefined();
  });
});

describe('callerPrincipal', () => {
  it('separates authenticated clients and falls back to the local OS user', () => {
    const a = callerPrincipal({ authInfo: { token: 't', clientId: 'token-aaaa', scopes: [] } });
    const b = callerPrincipal({ authInfo: { token: 't', clientId: 'token-bbbb', scopes: [] } });
    expect(a).toBe('client:token-aaaa');
    expect(b).toBe('client:token-bbbb');
    expect(callerPrincipal({ authInfo: undefined })).toBe(`local:${os.userInfo().username}`);
    expect(callerPrincipal({ authInfo: { token: '', clientId: '', scopes: [] } })).toMatch(/^local:/);
  });
});
