import { describe, expect, it } from 'vitest';
import { connectInMemory } from '../src/testing.js';
import { echoDomain } from './fixtures/echo-domain.js';

describe.each(['modern', 'legacy'] as const)('smoke (%s)', (era) => {
  it('lists and calls a tool, reads a resource', async () => {
    const connection = await connectInMemory([{ domain: echoDomain(), config: undefined }], { era });
    try {
      const { tools } = await connection.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['echo_text', 'slow_wait', 'progress_count']);
      const result = await connection.client.callTool({ name: 'echo_text', arguments: { text: 'hi' } });
      expect(result.structuredContent).toMatchObject({ text: 'hi' });
      const bad = await connection.client.callTool({ name: 'echo_text', arguments: { text: '' } });
      expect(bad.isError).toBe(true);
      const progress: number[] = [];
      const counted = await connection.client.callTool(
        { name: 'progress_count', arguments: { steps: 3 } },
        { onprogress: (p) => progress.push(p.progress) },
      );
      expect(counted.structuredContent).toMatchObject({ steps: 3, progressEnabled: true });
      expect(progress).toEqual([1, 2, 3]);
      const read = await connection.client.readResource({ uri: 'echo://info' });
      expect(read.contents[0]).toMatchObject({ text: '{"name":"echo"}' });
    } finally {
      await connection.close();
    }
  });
});

import { afterEach } from 'vitest';
import { httpTestHarness } from './helpers.js';

describe.each(['modern', 'legacy'] as const)('smoke over HTTP (%s)', (era) => {
  const h = httpTestHarness();
  afterEach(() => h.closeAll());
  it('serves a client statelessly', async () => {
    const { url } = await h.start([{ domain: echoDomain(), config: undefined }]);
    const { client } = await h.connectClient(url, undefined, era);
    const result = await client.callTool({ name: 'echo_text', arguments: { text: 'hi' } });
    expect(result.structuredContent).toMatchObject({ text: 'hi' });
    const progress: number[] = [];
    await client.callTool(
      { name: 'progress_count', arguments: { steps: 2 } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(progress).toEqual([1, 2]);
    expect((await client.listResources()).resources).toHaveLength(1);
  });
});
