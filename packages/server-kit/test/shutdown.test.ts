import fs from 'node:fs';
import path from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { clientFor, rawHttpRequest } from '../src/testing.js';
import { hasMessage, logEntry, spawnFixture, tempDir } from './helpers.js';

describe.each(['modern', 'legacy'] as const)('SIGTERM on an HTTP server process (%s era)', (era) => {
  it('lets the in-flight call finish, refuses new work, closes domains in order and exits 0', async () => {
    const dir = tempDir();
    const closeLog = path.join(dir, 'closed.txt');
    const fixture = spawnFixture('serve.ts', {
      FIXTURE_TRANSPORT: 'http',
      FIXTURE_CLOSE_LOG: closeLog,
      SWITCHYARD_DATA_DIR: path.join(dir, 'data'),
    });
    try {
      const url = logEntry(await fixture.waitForLine(hasMessage('listening')))?.url as string;
      const client = clientFor(era, 'shutdown-test-client');
      client.onerror = () => {};
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));

      const call = client.callTool({ name: 'slow_wait', arguments: { ms: 1000 } });
      await fixture.waitForLine(hasMessage('slow call started'));
      fixture.child.kill('SIGTERM');
      await fixture.waitForLine(hasMessage('shutting down'));

      const refused = await rawHttpRequest(url.replace(/\/mcp$/, '/healthz')).then(
        (response) => response.status,
        () => 'connection refused',
      );
      expect([503, 'connection refused']).toContain(refused);

      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ waitedMs: 1000 });
      expect(await fixture.exited).toBe(0);
      expect(fs.readFileSync(closeLog, 'utf8')).toBe('echo\nsecond\nthird\n');
      await client.close();
    } finally {
      if (fixture.child.exitCode === null) fixture.child.kill('SIGKILL');
    }
  });
});
