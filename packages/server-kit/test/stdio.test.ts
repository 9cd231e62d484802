import fs from 'node:fs';
import path from 'node:path';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { clientFor } from '../src/testing.js';
import { FIXTURES_DIR, logEntry, PACKAGE_DIR, tempDir } from './helpers.js';

describe.each(['modern', 'legacy'] as const)('runServer over stdio (spawned process, %s era)', (era) => {
  it('serves a real SDK client, keeps stdout for the protocol, and closes domains in order when stdin ends', async () => {
    const dir = tempDir();
    const closeLog = path.join(dir, 'closed.txt');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', path.join(FIXTURES_DIR, 'serve.ts')],
      cwd: PACKAGE_DIR,
      env: {
        ...getDefaultEnvironment(),
        FIXTURE_TRANSPORT: 'stdio',
        FIXTURE_CLOSE_LOG: closeLog,
        SWITCHYARD_DATA_DIR: path.join(dir, 'data'),
      },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = clientFor(era, 'stdio-test-client');
    const clientErrors: Error[] = [];
    client.onerror = (error) => clientErrors.push(error);
    await client.connect(transport);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['echo_text', 'progress_count', 'slow_wait']);
    const echoed = await client.callTool({ name: 'echo_text', arguments: { text: 'over stdio' } });
    expect(echoed.structuredContent).toMatchObject({
      text: 'over stdio',
      principal: expect.stringMatching(/^local:/),
    });
    const invalid = await client.callTool({ name: 'echo_text', arguments: { text: '' } });
    expect(invalid).toMatchObject({ isError: true, structuredContent: { error: { kind: 'validation' } } });
    await client.close();
    // A modern client first probes with server/discover on a short-lived sibling process (the SDK's way on
    // stdio): that process too closes its domains in order.
    expect(fs.readFileSync(closeLog, 'utf8')).toMatch(/^(echo\nsecond\nthird\n)+$/);
    // Anything but protocol messages on stdout would have surfaced as a client error.
    expect(clientErrors).toEqual([]);
    const messages = stderr
      .split('\n')
      .map(logEntry)
      .map((entry) => entry?.msg);
    expect(messages).toContain('serving');
    expect(messages).toContain('stdin closed');
    expect(messages).not.toContain('signal received');
  });
});
