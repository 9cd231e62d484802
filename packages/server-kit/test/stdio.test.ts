import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR, logEntry, PACKAGE_DIR, tempDir } from './helpers.js';

describe('runServer over stdio (spawned process)', () => {
  it('serves a real SDK client, keeps stdout for the protocol, and closes modules in order when stdin ends', async () => {
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
    const client = new Client({ name: 'stdio-test-client', version: '0.0.0' });
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
    expect(fs.readFileSync(closeLog, 'utf8')).toBe('echo\nsecond\nthird\n');
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
