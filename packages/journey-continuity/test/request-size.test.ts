// Over HTTP the domain's `maxRequestBytes` raises the body limit, so the largest document the configuration
// allows reaches add_document_to_journey even with every character JSON-escaped (six bytes each); one byte
// more is the tool's 400, not the transport's 413.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { runServer } from '@switchyard/server-kit';
import { createLogger } from '@switchyard/server-kit/runtime';
import { clientFor } from '@switchyard/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journeyDomain, loadJourneyConfig } from '../src/index.js';
import { tempDataDir } from './helpers.js';

const MAX_DOCUMENT_BYTES = 1024 * 1024;
/** A character JSON writes as `\u0001`: six bytes on the wire for one byte of content. */
const ESCAPED = '\u0001';

describe('the largest document over HTTP', () => {
  let server: Awaited<ReturnType<typeof runServer>>;
  const client = clientFor('modern', 'request-size-test');
  beforeAll(async () => {
    const config = loadJourneyConfig({ JOURNEY_MAX_DOCUMENT_BYTES: String(MAX_DOCUMENT_BYTES) });
    server = await runServer([{ domain: journeyDomain, config }], {
      name: 'journey-request-size',
      version: '0.0.0',
      transport: 'http',
      http: { port: 0 },
      handleSignals: false,
      logger: createLogger({ level: 'error' }),
      dataDir: tempDataDir(),
      env: {},
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url!)));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('reaches the tool: accepted at the limit, the contract 400 one byte past it', async () => {
    const journey = await client.callTool({ name: 'get_or_create_journey', arguments: {} });
    const { journey_id } = journey.structuredContent as { journey_id: string };
    const add = (content: string) =>
      client.callTool({
        name: 'add_document_to_journey',
        arguments: { journey_id, document_type: 'note', content },
      });

    const largest = await add(ESCAPED.repeat(MAX_DOCUMENT_BYTES));
    expect(largest.isError, JSON.stringify(largest.structuredContent)).toBeFalsy();
    expect(largest.structuredContent).toMatchObject({ content_bytes: MAX_DOCUMENT_BYTES });

    const tooLarge = await add(ESCAPED.repeat(MAX_DOCUMENT_BYTES + 1));
    expect(tooLarge.isError).toBe(true);
    expect(tooLarge.structuredContent).toMatchObject({
      error: {
        status: 400,
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining(`${MAX_DOCUMENT_BYTES}`),
      },
    });
  });
});
