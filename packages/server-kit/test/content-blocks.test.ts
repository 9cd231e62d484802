import type { SwitchyardError } from '@switchyard/contracts/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDomain, specsFor, type Domain, type DomainLifecycle } from '../src/index.js';
import { memoryLogger } from './helpers.js';
import { connectInMemory, type InMemoryConnection, type ProtocolEra } from '../src/testing.js';

/** A domain whose tool adds an image and an embedded resource to its answer, and whose prompt shows an image. */
const { tool, prompt } = specsFor<DomainLifecycle, undefined>();
const errorPayload = (error: SwitchyardError) => ({ error: { code: error.kind, message: error.message } });
const PIXEL = Buffer.from('a tiny picture').toString('base64');

function mapDomain(): Domain<undefined, DomainLifecycle> {
  return defineDomain({
    name: 'maps',
    version: '1.0.0',
    title: 'Maps',
    instructions: 'A test domain whose answers carry pictures.',
    toolPrefix: 'maps',
    config: () => undefined,
    open: () => ({ async close() {} }),
    tools: [
      tool({
        name: 'maps_draw',
        title: 'Draw a map',
        description: 'Draws the named place.',
        input: z.strictObject({
          place: z.string().min(1).max(100).describe('What to draw.'),
          copies: z.number().int().min(1).max(10_000).describe('How many pictures to add.'),
        }),
        output: z.strictObject({ place: z.string().describe('What was drawn.') }),
        annotations: { readOnlyHint: true, openWorldHint: false },
        errorPayload,
        content: ({ place }, { copies }) => [
          ...Array.from({ length: copies }, () => ({
            type: 'image' as const,
            data: PIXEL,
            mimeType: 'image/png',
          })),
          { type: 'resource', resource: { uri: `maps://${place}`, mimeType: 'text/plain', text: place } },
        ],
        handler: ({ place }) => ({ place }),
      }),
    ],
    prompts: [
      prompt({
        name: 'describe_map',
        title: 'Describe a map',
        description: 'Asks the model to describe a picture.',
        arguments: [],
        tools: [],
        get: async () => [
          { role: 'user', content: { type: 'image', data: PIXEL, mimeType: 'image/png' } },
          { role: 'user', content: { type: 'text', text: 'Describe the map above.' } },
        ],
        errorPayload,
      }),
    ],
  });
}

let connection: InMemoryConnection | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

describe.each(['modern', 'legacy'] as const)(
  'content blocks beside the payload (%s era)',
  (era: ProtocolEra) => {
    it("a tool's added blocks follow its JSON text, the payload staying the structured content", async () => {
      connection = await connectInMemory([{ domain: mapDomain(), config: undefined }], { era });
      const result = await connection.client.callTool({
        name: 'maps_draw',
        arguments: { place: 'Kamppi', copies: 1 },
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ place: 'Kamppi' });
      expect(result.content).toEqual([
        { type: 'text', text: '{"place":"Kamppi"}' },
        { type: 'image', data: PIXEL, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'maps://Kamppi', mimeType: 'text/plain', text: 'Kamppi' } },
      ]);
    });

    it('the blocks count against the answer limit: an answer they would take past it is refused', async () => {
      connection = await connectInMemory([{ domain: mapDomain(), config: undefined }], {
        era,
        maxAnswerBytes: 64 * 1024,
        logger: memoryLogger().logger,
      });
      // About 60 bytes a picture: 2,000 of them pass 64 KiB, though the payload alone is tiny.
      const result = await connection.client.callTool({
        name: 'maps_draw',
        arguments: { place: 'Kamppi', copies: 2_000 },
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.structuredContent)).toContain('answer limit');
      expect(result.content).toHaveLength(1);
    });

    it("a prompt's messages may carry an image", async () => {
      connection = await connectInMemory([{ domain: mapDomain(), config: undefined }], { era });
      const answer = await connection.client.getPrompt({ name: 'describe_map' });
      expect(answer.messages.map((message) => message.content.type)).toEqual(['image', 'text']);
      expect(answer.messages[0]?.content).toEqual({ type: 'image', data: PIXEL, mimeType: 'image/png' });
    });
  },
);
