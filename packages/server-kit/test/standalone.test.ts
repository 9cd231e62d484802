import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { clientFor, rawHttpRequest } from '../src/testing.js';
import { FIXTURES_DIR, hasMessage, logEntry, PACKAGE_DIR, spawnFixture, tempDir } from './helpers.js';

const entry = path.join(FIXTURES_DIR, 'standalone.ts');

function runBin(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, SWITCHYARD_DATA_DIR: path.join(tempDir(), 'data'), ...env },
    encoding: 'utf8',
    input: '',
    timeout: 30_000,
  });
}

describe('runStandaloneServer', () => {
  it.each(['modern', 'legacy'] as const)('serves its domain over stdio (%s era)', async (era) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', entry],
      cwd: PACKAGE_DIR,
      env: { ...getDefaultEnvironment(), SWITCHYARD_DATA_DIR: path.join(tempDir(), 'data') },
      stderr: 'pipe',
    });
    const client = clientFor(era, 'standalone-test');
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo_text');
    await client.close();
  });

  it('serves its domain over HTTP with --http, with the token from SWITCHYARD_TOKEN', async () => {
    const token = 'standalone-token-0123456789';
    const fixture = spawnFixture(
      'standalone.ts',
      { SWITCHYARD_DATA_DIR: path.join(tempDir(), 'data'), SWITCHYARD_TOKEN: token },
      ['--http', '--port', '0'],
    );
    try {
      const listening = logEntry(await fixture.waitForLine(hasMessage('listening')));
      expect(listening).toMatchObject({
        service: 'fixture-standalone',
        url: expect.stringMatching(/\/mcp$/),
      });
      const url = listening?.url as string;
      const refused = await fetch(url, { method: 'POST' });
      expect(refused.status).toBe(401);
      const client = clientFor('modern', 'standalone-test');
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      const result = await client.callTool({ name: 'echo_text', arguments: { text: 'over http' } });
      expect(result.structuredContent).toMatchObject({
        text: 'over http',
        principal: expect.stringMatching(/^client:/),
      });
      await client.close();
      expect(fixture.stderrLines.join('\n')).not.toContain(token);
    } finally {
      fixture.child.kill('SIGTERM');
      await fixture.exited;
    }
  });

  it("prints usage for --help and exits 0, with the bin's own usages and help lines", () => {
    const result = runBin(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n').slice(0, 3)).toEqual([
      'usage: fixture-standalone [--http [--host HOST] [--port PORT] [--allowed-hosts LIST] [--allowed-origins LIST]]',
      '       fixture-standalone --fixture-demo DIR',
      '       fixture-standalone --help | --version',
    ]);
    expect(result.stdout).toMatch(/\n\nFIXTURE_KEY: the key the fixture domain needs\.\n$/);
  });

  it.each(['--version', '-v'])("prints the domain package's version for %s and exits 0", (flag) => {
    expect(runBin([flag])).toMatchObject({ status: 0, stdout: '7.8.9\n', stderr: '' });
  });

  it.each([
    [['--port', '4000'], '--port needs --http'],
    [['--host', '0.0.0.0'], '--host needs --http'],
    [['--host', '0.0.0.0', '--port', '4000'], '--host and --port need --http'],
    [['--allowed-hosts', 'mcp.example.com'], '--allowed-hosts needs --http'],
    [
      ['--port', '4000', '--allowed-hosts', 'a.test', '--allowed-origins', 'https://a.test'],
      '--port, --allowed-hosts and --allowed-origins need --http',
    ],
  ])('refuses %j without --http instead of ignoring it', (args, message) => {
    const result = runBin(args);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `fixture-standalone: ${message}: without it the server speaks stdio and listens on nothing\n`,
    );
  });

  it('exits 1 naming the problem when a flag is wrong or the domain cannot be configured', () => {
    const badPort = runBin(['--http', '--port', 'eighty']);
    expect(badPort.status).toBe(1);
    expect(badPort.stderr).toContain(
      'fixture-standalone: --port must be a port number from 0 to 65535 (got "eighty")',
    );

    const unknownFlag = runBin(['--verbose']);
    expect(unknownFlag.status).toBe(1);
    expect(unknownFlag.stderr).toContain('usage: fixture-standalone');

    const missing = runBin([], { FIXTURE_FAIL_CONFIG: '1' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('fixture-standalone: FIXTURE_KEY is required');
  });

  /** The fixture over HTTP on every interface; the Host allow-list warning (or undefined) and the port. */
  async function servedOffLoopback(args: string[], env: Record<string, string> = {}) {
    const fixture = spawnFixture(
      'standalone.ts',
      {
        SWITCHYARD_DATA_DIR: path.join(tempDir(), 'data'),
        SWITCHYARD_TOKEN: 'standalone-token-0123456789',
        ...env,
      },
      ['--http', '--host', '0.0.0.0', '--port', '0', ...args],
    );
    const listening = logEntry(await fixture.waitForLine(hasMessage('listening')));
    const port = new URL(listening?.url as string).port;
    const warning = fixture.stderrLines.map(logEntry).find((entry) => entry?.level === 'warn')?.msg;
    const healthz = (host: string) =>
      rawHttpRequest(`http://127.0.0.1:${port}/healthz`, { headers: { host } }).then(
        (answer) => answer.status,
      );
    const stop = async () => {
      fixture.child.kill('SIGTERM');
      await fixture.exited;
    };
    return { warning, healthz, stop };
  }

  it('takes a Host allow-list from --allowed-hosts or SWITCHYARD_ALLOWED_HOSTS, and hints at both', async () => {
    const open = await servedOffLoopback([]);
    try {
      expect(open.warning).toBe(
        'no Host allow-list: set --allowed-hosts (SWITCHYARD_ALLOWED_HOSTS) to the names clients use to reach this server',
      );
      expect(await open.healthz('anything.example')).toBe(200);
    } finally {
      await open.stop();
    }
    const flagged = await servedOffLoopback(['--allowed-hosts', 'mcp.example.com, proxy.example.com'], {
      SWITCHYARD_ALLOWED_HOSTS: 'ignored.example.com',
    });
    try {
      expect(flagged.warning).toBeUndefined();
      expect(await flagged.healthz('proxy.example.com')).toBe(200);
      expect(await flagged.healthz('ignored.example.com')).toBe(403);
    } finally {
      await flagged.stop();
    }
    const variable = await servedOffLoopback([], { SWITCHYARD_ALLOWED_HOSTS: 'mcp.example.com' });
    try {
      expect(await variable.healthz('mcp.example.com')).toBe(200);
      expect(await variable.healthz('evil.example')).toBe(403);
    } finally {
      await variable.stop();
    }
  });

  it('refuses an allow-list that lists nothing, or an entry that is no host or origin, naming the flag', () => {
    const empty = runBin(['--http', '--port', '0', '--allowed-hosts', ' , ']);
    expect(empty.stderr).toBe(
      'fixture-standalone: --allowed-hosts must be a comma-separated list, got " , "\n',
    );
    const origin = runBin(['--http', '--port', '0'], { SWITCHYARD_ALLOWED_ORIGINS: 'app.example.com' });
    expect(origin.stderr).toContain(
      'fixture-standalone: --allowed-origins (SWITCHYARD_ALLOWED_ORIGINS) entry "app.example.com" is not an origin',
    );
    for (const result of [empty, origin]) expect(result.status).toBe(1);
  });

  it('names what its user sets in a start-up error, not the runServer option', () => {
    const exposed = runBin(['--http', '--host', '0.0.0.0', '--port', '0']);
    expect(exposed.status).toBe(1);
    expect(exposed.stderr).toContain(
      'fixture-standalone: refusing to listen on 0.0.0.0 without a token or OAuth',
    );
    expect(exposed.stderr).toContain('Set a bearer token (SWITCHYARD_TOKEN), configure OAuth');
    const shortToken = runBin(['--http', '--port', '0'], { SWITCHYARD_TOKEN: 'short' });
    expect(shortToken.stderr).toContain(
      'fixture-standalone: the bearer token (SWITCHYARD_TOKEN) must be at least 16 characters',
    );
    const bound = runBin(['--http', '--port', '0'], { SWITCHYARD_HTTP_MAX_CONNECTIONS: '0' });
    expect(bound.stderr).toContain(
      'fixture-standalone: SWITCHYARD_HTTP_MAX_CONNECTIONS must be a whole number of connections >= 1',
    );
    for (const result of [exposed, shortToken, bound]) {
      expect(result.status).toBe(1);
      expect(result.stderr).not.toMatch(/runServer|http\.(token|host|port)/);
    }
  });

  it('stops at start on a SWITCHYARD_LOG_LEVEL it does not know, and takes one in any case', () => {
    const unknown = runBin([], { SWITCHYARD_LOG_LEVEL: 'verbose' });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain(
      'SWITCHYARD_LOG_LEVEL must be one of debug, info, warn, error, got "verbose"',
    );

    const errorsOnly = runBin([], { SWITCHYARD_LOG_LEVEL: ' Error ' });
    expect(errorsOnly.status).toBe(0);
    expect(errorsOnly.stderr).toBe('');
    const debug = runBin([], { SWITCHYARD_LOG_LEVEL: 'DEBUG' });
    expect(debug.status).toBe(0);
    expect(debug.stderr).toContain('"msg":"serving"');
  });
});
