import type { SwitchyardError } from '@switchyard/contracts/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDomain, specsFor, type Domain, type DomainLifecycle } from '../src/index.js';
import { connectInMemory, type ConnectInMemoryOptions, type InMemoryConnection } from '../src/testing.js';

/** A domain without resources whose read tool has a view, beside a write tool and a hidden-by-deny one. */
const { tool } = specsFor<DomainLifecycle, undefined>();
const errorPayload = (error: SwitchyardError) => ({ error: { code: error.kind, message: error.message } });
const Empty = z.strictObject({});
const Shown = z.strictObject({ shown: z.boolean().describe('Always true.') });

function boardDomain(): Domain<undefined, DomainLifecycle> {
  return defineDomain({
    name: 'board',
    version: '1.0.0',
    title: 'Board',
    instructions: 'A test domain with a view.',
    toolPrefix: 'demo',
    config: () => undefined,
    open: () => ({ async close() {} }),
    tools: [
      tool({
        name: 'board_show',
        title: 'Show the board',
        description: 'Shows it.',
        input: Empty,
        output: Shown,
        annotations: { readOnlyHint: true, openWorldHint: false },
        view: 'line-status',
        errorPayload,
        handler: () => ({ shown: true }),
      }),
      tool({
        name: 'board_reset',
        title: 'Reset the board',
        description: 'Resets it.',
        input: Empty,
        output: Shown,
        annotations: {
          readOnlyHint: false,
          openWorldHint: false,
          destructiveHint: true,
          idempotentHint: true,
        },
        errorPayload,
        handler: () => ({ shown: true }),
      }),
    ],
  });
}

const VIEW_URI = 'ui://switchyard/line-status';

let connection: InMemoryConnection | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

/** The tools the served page lets its buttons call, as the page reads them. */
function callableIn(html: string): unknown {
  const json = /<script type="application\/json" id="switchyard-tools">(.*?)<\/script>/.exec(html)?.[1];
  return json === undefined ? undefined : JSON.parse(json);
}

async function readView(options: ConnectInMemoryOptions) {
  connection = await connectInMemory([{ domain: boardDomain(), config: undefined }], options);
  return connection.client.readResource({ uri: VIEW_URI });
}

describe.each(['modern', 'legacy'] as const)('MCP Apps views (%s era)', (era) => {
  it("names the view in the tool's _meta.ui.resourceUri, and only on the tool that has one", async () => {
    connection = await connectInMemory([{ domain: boardDomain(), config: undefined }], { era });
    const { tools } = await connection.client.listTools();
    expect(tools.find((listed) => listed.name === 'board_show')?._meta).toEqual({
      ui: { resourceUri: VIEW_URI },
    });
    expect(tools.find((listed) => listed.name === 'board_reset')).not.toHaveProperty('_meta');
  });

  it('serves the view as text/html;profile=mcp-app with an empty network policy, unlisted', async () => {
    const { contents } = await readView({ era });
    expect(contents).toHaveLength(1);
    const [page] = contents;
    expect(page).toMatchObject({
      uri: VIEW_URI,
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } },
    });
    const html = page !== undefined && 'text' in page ? page.text : '';
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/\bsrc=|\bhref=|https?:\/\//);
    expect(callableIn(html)).toEqual({ board_show: 'board_show', board_reset: 'board_reset' });
    // Clients without the extension list what they listed before: the view is read, never listed.
    expect((await connection!.client.listResources()).resources).toEqual([]);
    expect((await connection!.client.listResourceTemplates()).resourceTemplates).toEqual([]);
  });

  it('lets the view call only the tools this server lists, under the names clients call them by', async () => {
    expect(callableIn(textOf(await readView({ era, readOnly: true })))).toEqual({ board_show: 'board_show' });
    await connection?.close();
    expect(callableIn(textOf(await readView({ era, toolPrefix: true })))).toEqual({
      board_show: 'demo_board_show',
      board_reset: 'demo_board_reset',
    });
  });

  it('serves no view whose tools are all hidden, and then offers no resources', async () => {
    connection = await connectInMemory([{ domain: boardDomain(), config: undefined }], {
      era,
      toolsDeny: ['board_show'],
    });
    expect(connection.client.getServerCapabilities()?.resources).toBeUndefined();
    await expect(connection.client.readResource({ uri: VIEW_URI })).rejects.toThrow();
  });
});

function textOf(result: { contents: ({ text: string } | { blob: string })[] }): string {
  const [page] = result.contents;
  return page !== undefined && 'text' in page ? page.text : '';
}
