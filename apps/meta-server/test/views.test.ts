// The combined bin serves the views its tools name (MCP Apps), in both protocol eras.
import { afterEach, describe, expect, it } from 'vitest';
import { viewsNamedBy } from '@switchyard/server-kit/testing';
import { connectStdio, DUMMY_KEYS, tempDir, type StdioConnection } from './helpers.js';

let connection: StdioConnection | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

/** The tools a served view may call, as the page itself reads them. */
async function callableIn(uri: string): Promise<Record<string, string>> {
  const { contents } = await connection!.client.readResource({ uri });
  expect(contents[0]).toMatchObject({ uri, mimeType: 'text/html;profile=mcp-app' });
  const html = contents[0] !== undefined && 'text' in contents[0] ? contents[0].text : '';
  return JSON.parse(/id="switchyard-tools">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as Record<
    string,
    string
  >;
}

describe.each(['modern', 'legacy'] as const)('views through the combined switchyard bin (%s era)', (era) => {
  it('reads every view tools/list names, each with the tools of its domain', async () => {
    connection = await connectStdio({ ...DUMMY_KEYS, SWITCHYARD_DATA_DIR: tempDir() }, [], era);
    const { tools } = await connection.client.listTools();
    const uris = new Set(Object.values(viewsNamedBy(tools)));
    expect([...uris]).toContain('ui://switchyard/line-status');
    for (const uri of uris) expect(Object.keys(await callableIn(uri)).length).toBeGreaterThan(0);
    expect(await callableIn('ui://switchyard/line-status')).toMatchObject({
      get_line_status: 'get_line_status',
    });
  });
});
