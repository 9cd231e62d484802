// The MCP Apps view of launch runs: the run dashboard is named by launch_get_status and the answers of start,
// validate, fix and resume (no other tool), served in both protocol eras; read-only, its buttons' tools are
// not among the tools it may call.
import fs from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory, viewsNamedBy, type InMemoryConnection } from '@switchyard/server-kit/testing';
import { launchRunsDomain, loadLaunchRunsConfig } from '../src/index.js';
import { startHarness, tempDir, type Harness } from './support/harness.js';

const VIEW = 'ui://switchyard/run-dashboard';
const VIEWS: Record<string, string> = {
  launch_start_run: VIEW,
  launch_get_status: VIEW,
  launch_validate: VIEW,
  launch_fix_next: VIEW,
  launch_resume: VIEW,
};

/** The tools the served page may call, as the page reads them. */
async function callableIn(client: Harness['client']): Promise<Record<string, string>> {
  const { contents } = await client.readResource({ uri: VIEW });
  expect(contents[0]).toMatchObject({ uri: VIEW, mimeType: 'text/html;profile=mcp-app' });
  const html = contents[0] !== undefined && 'text' in contents[0] ? contents[0].text : '';
  return JSON.parse(/id="switchyard-tools">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as Record<
    string,
    string
  >;
}

let h: Harness | undefined;
let readOnly: { connection: InMemoryConnection; dataDir: string } | undefined;
afterEach(async () => {
  await h?.close();
  await readOnly?.connection.close();
  if (readOnly !== undefined) fs.rmSync(readOnly.dataDir, { recursive: true, force: true });
  h = readOnly = undefined;
});

describe.each(['modern', 'legacy'] as const)('launch views in the %s protocol era', (era) => {
  it('names the run dashboard on status, start, validate, fix and resume only, and serves it', async () => {
    h = await startHarness({ era });
    const { tools } = await h.client.listTools();
    expect(viewsNamedBy(tools)).toEqual(VIEWS);
    expect(await callableIn(h.client)).toMatchObject({
      launch_validate: 'launch_validate',
      launch_fix_next: 'launch_fix_next',
      launch_open_pr: 'launch_open_pr',
      launch_get_artifact: 'launch_get_artifact',
    });
  });
});

describe('the run dashboard on a read-only server', () => {
  it('is named by launch_get_status alone and may call none of the tools its buttons use', async () => {
    const dataDir = tempDir('views');
    const connection = await connectInMemory(
      [{ domain: launchRunsDomain, config: loadLaunchRunsConfig({ LAUNCH_REPO_ROOTS: os.tmpdir() }) }],
      { dataDir, readOnly: true },
    );
    readOnly = { connection, dataDir };
    const { tools } = await connection.client.listTools();
    expect(viewsNamedBy(tools)).toEqual({ launch_get_status: VIEW });
    const callable = await callableIn(connection.client);
    expect(callable).toHaveProperty('launch_get_status');
    for (const tool of ['launch_validate', 'launch_fix_next', 'launch_open_pr'])
      expect(callable).not.toHaveProperty(tool);
  });
});
