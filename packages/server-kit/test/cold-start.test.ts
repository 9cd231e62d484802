import fs from 'node:fs';
import path from 'node:path';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { connectRecordingImports, recordPackageImports } from '../src/testing.js';
import { FIXTURES_DIR, hasMessage, PACKAGE_DIR, spawnFixture, tempDir } from './helpers.js';

/** What only the Streamable HTTP transport needs. */
const HTTP_ONLY = ['body-parser', 'cors'];

describe('startup loads only what the transport needs', { timeout: 60_000 }, () => {
  it('stdio: initialize and tools/list without loading body-parser or cors', async () => {
    const dir = tempDir();
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const { client, imports } = await connectRecordingImports({
      bin: path.join(FIXTURES_DIR, 'serve.ts'),
      cwd: PACKAGE_DIR,
      logFile: path.join(dir, 'imports.log'),
      env: { ...getDefaultEnvironment(), FIXTURE_TRANSPORT: 'stdio', SWITCHYARD_DATA_DIR: dir },
    });
    await client.listTools();
    await client.callTool({ name: 'echo_text', arguments: { text: 'hi' } });
    await client.close();
    const loaded = imports.packages();
    expect(loaded).toContain('@modelcontextprotocol/sdk');
    for (const name of HTTP_ONLY) expect(loaded).not.toContain(name);
  });

  it('http: loads them when it serves HTTP', async () => {
    const dir = tempDir();
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const imports = recordPackageImports(path.join(dir, 'imports.log'));
    const fixture = spawnFixture('serve.ts', {
      FIXTURE_TRANSPORT: 'http',
      SWITCHYARD_DATA_DIR: dir,
      NODE_OPTIONS: imports.execArgv.join(' '),
    });
    try {
      await fixture.waitForLine(hasMessage('listening'));
      expect(imports.packages()).toEqual(expect.arrayContaining(HTTP_ONLY));
    } finally {
      fixture.child.kill('SIGTERM');
      await fixture.exited;
    }
  });
});
