// Rules of the combined server's command line, start-up report and start that no other test held (found by
// mutation testing): every variable is read, every flag is named in its errors, help and errors go to the
// right stream, server-kit's option names become flags, the report masks the token for every client.
import fs from 'node:fs';
import path from 'node:path';
import { createLogger } from '@switchyard/server-kit/runtime';
import { rawHttpRequest } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { clientSetups, describeDomains, describeHttpStart } from '../src/announce.js';
import { ENVIRONMENT_OF, parseCommandLine, type CliOutcome } from '../src/cli.js';
import { planDomains } from '../src/domains.js';
import { startSwitchyard, type RunningSwitchyard, type SwitchyardOptions } from '../src/index.js';
import { migrateConfiguredDomains } from '../src/migrate.js';
import type { SwitchyardSettings } from '../src/settings.js';
import { INITIALIZE_REQUEST, PACKAGE_DIR, runBin, spawnHttpServer, tempDir } from './helpers.js';

function outcome(argv: string[], env: Record<string, string> = {}): CliOutcome {
  return parseCommandLine(argv, env);
}

function settings(argv: string[], env: Record<string, string> = {}): SwitchyardSettings {
  const parsed = outcome(argv, env);
  if (parsed.action !== 'run') throw new Error(`expected settings, got ${JSON.stringify(parsed)}`);
  return parsed.settings;
}

const DEFAULTS = settings([]);
const TOKEN = 'test-token-0123456789abcdef-not-a-real-secret';
const URL_ = 'http://127.0.0.1:4444/mcp';
const STDIO = { command: '/usr/bin/node', args: ['/opt/switchyard/bin/switchyard.js'] };

describe('switchyard command line rules', () => {
  // Literal names: the table must fail when a variable is renamed in cli.ts.
  const VARIABLES: [string, string, Partial<SwitchyardSettings>][] = [
    ['SWITCHYARD_HTTP', 'on', { transport: 'http' }],
    ['SWITCHYARD_HOST', 'localhost', { host: 'localhost' }],
    ['SWITCHYARD_PORT', '8080', { port: 8080 }],
    ['SWITCHYARD_DOMAINS', 'launch', { domains: ['launch-runs'] }],
    ['SWITCHYARD_TOOLS_ALLOW', 'get_*', { toolsAllow: ['get_*'] }],
    ['SWITCHYARD_TOOLS_DENY', 'launch_cancel', { toolsDeny: ['launch_cancel'] }],
    ['SWITCHYARD_TOOL_PREFIX', 'true', { toolPrefix: true }],
    ['SWITCHYARD_READ_ONLY', '1', { readOnly: true }],
    ['SWITCHYARD_DATA_DIR', '  /srv/switchyard  ', { dataDir: '/srv/switchyard' }],
    ['SWITCHYARD_ALLOWED_HOSTS', 'mcp.example.com', { allowedHosts: ['mcp.example.com'] }],
    [
      'SWITCHYARD_ALLOWED_ORIGINS',
      'https://app.example.com',
      { allowedOrigins: ['https://app.example.com'] },
    ],
  ];

  it('has a row below for every variable a flag stands for', () => {
    expect(VARIABLES.map(([variable]) => variable).sort()).toEqual(Object.values(ENVIRONMENT_OF).sort());
  });

  it.each(VARIABLES)('reads %s = %j alone', (variable, value, expected) => {
    expect(settings([], { [variable]: value })).toEqual({ ...DEFAULTS, ...expected });
  });

  it.each([
    [['--port', 'x'], '--port must be a port number'],
    [['--domains', 'weather'], '--domains: unknown domain "weather"'],
    [['--tools-allow', ','], '--tools-allow must be a comma-separated list'],
    [['--tools-deny', ' , '], '--tools-deny must be a comma-separated list'],
    [['--allowed-hosts', ','], '--allowed-hosts must be a comma-separated list'],
    [['--allowed-origins', ','], '--allowed-origins must be a comma-separated list'],
  ])('a wrong value of %j names the flag, in one line with exit code 1', (argv, message) => {
    expect(outcome(argv)).toEqual({
      action: 'exit',
      exitCode: 1,
      output: expect.stringMatching(new RegExp(`^switchyard: ${literal(message)}[^\\n]*\\n$`)),
    });
  });

  it.each([
    ['SWITCHYARD_TOOLS_ALLOW', ','],
    ['SWITCHYARD_TOOLS_DENY', ','],
    ['SWITCHYARD_ALLOWED_HOSTS', ','],
    ['SWITCHYARD_ALLOWED_ORIGINS', ','],
    ['SWITCHYARD_TOOL_PREFIX', 'sometimes'],
  ])('a wrong value of %s names the variable', (variable, value) => {
    expect(outcome([], { [variable]: value })).toMatchObject({
      exitCode: 1,
      output: expect.stringMatching(new RegExp(`^switchyard: ${variable} must be`)),
    });
  });

  it('treats a blank SWITCHYARD_TOKEN as no token, and trims a --data-dir (a blank one is no directory)', () => {
    expect(settings([], { SWITCHYARD_TOKEN: '   ' })).toEqual(DEFAULTS);
    expect(settings(['--data-dir', '  /srv/sy  ']).dataDir).toBe('/srv/sy');
    expect(settings(['--data-dir', '   '])).toEqual(DEFAULTS);
  });

  it('knows -h and -v, and points at --help after a usage error', () => {
    expect(outcome(['-h'])).toMatchObject({
      exitCode: 0,
      output: expect.stringContaining('Usage: switchyard'),
    });
    const { version } = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(outcome(['-v'])).toEqual({ action: 'exit', exitCode: 0, output: `${version}\n` });
    expect(outcome(['--bogus'])).toMatchObject({
      exitCode: 1,
      output: expect.stringContaining('(run `switchyard --help` for usage)'),
    });
  });

  it('refuses anything after the migrate command', () => {
    expect(outcome(['migrate', 'now'])).toMatchObject({
      action: 'exit',
      exitCode: 1,
      output: expect.stringContaining('too many arguments'),
    });
  });

  it('lists every flag, every variable and every database variable in --help', () => {
    const help = outcome(['--help']);
    for (const word of [
      '--data-dir <dir>',
      '--allowed-hosts <list>',
      '--allowed-origins <list>',
      '--tools-allow <list>',
      ...Object.values(ENVIRONMENT_OF),
      'SWITCHYARD_TOKEN   bearer token',
      'SWITCHYARD_DATABASE_URL',
      'TRANSIT_DATABASE_URL',
      'JOURNEY_DATABASE_URL',
      'LAUNCH_DATABASE_URL',
    ]) {
      expect(help).toMatchObject({ exitCode: 0, output: expect.stringContaining(word) });
    }
  });

  it('states the prefix rule and both ways to listen off loopback in --help', () => {
    const help = outcome(['--help']);
    const text = help.action === 'exit' ? help.output.replace(/\s+/g, ' ') : '';
    // `launch_start_run` already has its word and keeps its name.
    expect(text).toContain(
      "--tool-prefix put the domain's word (transit_, launch_, journey_) before each tool name that lacks it",
    );
    // A token or OAuth: either is enough (runServer's rule).
    expect(text).toContain(
      'to listen on anything but loopback, set it or configure OAuth (SWITCHYARD_OAUTH_ISSUER and SWITCHYARD_RESOURCE_URL',
    );
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the start-up report', () => {
  it('aligns one line per domain: mounted or skipped, the name in a column, the reason', () => {
    expect(
      describeDomains([
        { name: 'transit', mount: false, reason: 'no keys' },
        { name: 'launch-runs', mount: true, reason: 'embedded SQLite in /d', domain: undefined as never },
      ]),
    ).toBe(
      'switchyard: domains\n' +
        '  skipped transit            no keys\n' +
        '  mounted launch-runs        embedded SQLite in /d\n',
    );
  });

  it('without a token: the URL, health and readiness at the origin, one setup per client, how to stop', () => {
    const lines = describeHttpStart(URL_, { hasToken: false, stdio: STDIO, stopsOnCtrlC: true }).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      `switchyard: serving MCP over Streamable HTTP at ${URL_}`,
      'switchyard: health http://127.0.0.1:4444/healthz, readiness http://127.0.0.1:4444/readyz',
      'switchyard: connect a client:',
    ]);
    expect(lines.slice(-2)).toEqual(['switchyard: press Ctrl-C to stop.', '']);
    expect(lines.join('\n')).not.toContain('Authorization');
  });

  it('with a token: every client that speaks HTTP gets the masked header in its own form', () => {
    const byClient = Object.fromEntries(
      clientSetups(URL_, true, STDIO).map((setup) => [setup.client, setup.snippet]),
    );
    const header = { Authorization: 'Bearer <SWITCHYARD_TOKEN>' };
    expect(byClient).toEqual({
      'Claude Code': `claude mcp add --transport http switchyard ${URL_} --header "Authorization: Bearer <SWITCHYARD_TOKEN>"`,
      Cursor: JSON.stringify({ mcpServers: { switchyard: { url: URL_, headers: header } } }),
      'VS Code': JSON.stringify({ servers: { switchyard: { type: 'http', url: URL_, headers: header } } }),
      'Claude Desktop': JSON.stringify({ mcpServers: { switchyard: STDIO } }),
      'MCP Inspector': `npx -y @modelcontextprotocol/inspector --transport http --server-url ${URL_} --header "Authorization: Bearer <SWITCHYARD_TOKEN>"`,
    });
    expect(describeHttpStart(URL_, { hasToken: true, stdio: STDIO, stopsOnCtrlC: true })).toContain(
      '\nswitchyard: replace <SWITCHYARD_TOKEN> with the value of SWITCHYARD_TOKEN.\n',
    );
    expect(describeHttpStart(URL_, { hasToken: false, stdio: STDIO, stopsOnCtrlC: true })).not.toContain(
      'replace <SWITCHYARD_TOKEN>',
    );
  });
});

describe('what is mounted', () => {
  async function transitReason(env: Record<string, string>): Promise<string> {
    const transit = (await planDomains({ env, dataDir: tempDir() }))[0];
    return `${transit?.mount ? 'mounted' : 'skipped'}: ${transit?.reason}`;
  }

  it('counts a blank provider key or a blank TRANSIT_PROVIDERS as unset', async () => {
    expect(await transitReason({ TFL_API_KEY: '  ', DIGITRANSIT_SUBSCRIPTION_KEY: '' })).toMatch(
      /^skipped: neither/,
    );
    expect(await transitReason({ TFL_API_KEY: 'k-tfl', DIGITRANSIT_SUBSCRIPTION_KEY: ' ' })).toBe(
      'mounted: providers tfl (London): TFL_API_KEY is set',
    );
    expect(await transitReason({ TFL_API_KEY: 'k-tfl', TRANSIT_PROVIDERS: '  ' })).toBe(
      'mounted: providers tfl (London): TFL_API_KEY is set',
    );
  });

  it('`switchyard migrate` with nothing on PostgreSQL names every variable that would configure it', async () => {
    expect(await migrateConfiguredDomains({})).toEqual([
      'nothing to migrate: no domain is configured for PostgreSQL (set SWITCHYARD_DATABASE_URL or ' +
        'TRANSIT_DATABASE_URL, JOURNEY_DATABASE_URL, LAUNCH_DATABASE_URL); SQLite files migrate when a server opens them',
    ]);
  });

  it('`switchyard migrate` stops on a SWITCHYARD_LOG_LEVEL it does not know, as the server start does', async () => {
    expect(await runBin(['migrate'], { SWITCHYARD_LOG_LEVEL: 'verbose' })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'switchyard migrate: SWITCHYARD_LOG_LEVEL must be one of debug, info, warn, error, got "verbose"\n',
    });
  });
});

describe('startSwitchyard options', () => {
  const quiet = createLogger({ level: 'error' });

  async function withServer(options: SwitchyardOptions, use: (running: RunningSwitchyard) => Promise<void>) {
    const running = await startSwitchyard({
      transport: 'http',
      port: 0,
      env: {},
      dataDir: tempDir(),
      logger: quiet,
      handleSignals: false,
      announce: () => {},
      ...options,
    });
    try {
      await use(running);
    } finally {
      await running.close();
    }
  }

  it('puts every database in the dataDir option, not in SWITCHYARD_DATA_DIR of its env', async () => {
    const fromEnv = tempDir();
    const chosen = tempDir();
    await withServer({ env: { SWITCHYARD_DATA_DIR: fromEnv }, dataDir: chosen }, async (running) => {
      expect(running.dataDir).toBe(chosen);
    });
    expect(fs.readdirSync(chosen).filter((name) => name.endsWith('.sqlite'))).toEqual([
      'journey-continuity.sqlite',
      'launch-runs.sqlite',
    ]);
    expect(fs.readdirSync(fromEnv)).toEqual([]);
  });

  it('accepts a browser origin listed in allowedOrigins', async () => {
    await withServer({ allowedOrigins: ['https://app.example.com'] }, async (running) => {
      const request = (origin: string) =>
        rawHttpRequest(running.url ?? '', {
          ...INITIALIZE_REQUEST,
          headers: { ...INITIALIZE_REQUEST.headers, origin },
        });
      expect((await request('https://app.example.com')).status).toBe(200);
      expect((await request('https://evil.example')).status).toBe(403);
    });
  });

  it("reads server-kit's resource bounds from its env, not from process.env", async () => {
    await withServer({ env: { SWITCHYARD_HTTP_MAX_BODY_BYTES: '512' } }, async (running) => {
      const large = { ...INITIALIZE_REQUEST, body: INITIALIZE_REQUEST.body.padEnd(2048, ' ') };
      expect((await rawHttpRequest(running.url ?? '', large)).status).toBe(413);
    });
  });

  it('reports no stdio command it was not given, and no Ctrl-C it does not handle', async () => {
    let report = '';
    await withServer({ announce: (text) => (report += text) }, async (running) => {
      expect(report).toContain(`serving MCP over Streamable HTTP at ${running.url}`);
    });
    expect(report).not.toContain('Claude Desktop');
    expect(report).not.toContain(process.argv[1]);
    expect(report).not.toContain('Ctrl-C');

    let given = '';
    const announce = (text: string) => (given += text);
    await withServer({ announce, stdioCommand: STDIO }, async () => {});
    expect(given).toContain(`Claude Desktop, in claude_desktop_config.json`);
    expect(given).toContain(JSON.stringify({ mcpServers: { switchyard: STDIO } }));
  });

  it('with handleSignals: false leaves SIGINT and SIGTERM to the embedding process', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    await withServer({}, async () => {
      expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
    });
  });
});

describe('the bin, on what it prints and its exit code', () => {
  it('hints at its own flag and variable when it serves without a Host allow-list', async () => {
    const server = await spawnHttpServer({ SWITCHYARD_TOKEN: TOKEN, SWITCHYARD_DATA_DIR: tempDir() }, [
      '--host',
      '0.0.0.0',
      '--domains',
      'journey',
    ]);
    await server.stop();
    expect(server.stderr()).toContain(
      'no Host allow-list: set --allowed-hosts (SWITCHYARD_ALLOWED_HOSTS) to the names clients use',
    );
  });

  it('prints --help on stdout with exit code 0, and a usage error on stderr with exit code 1', async () => {
    const help = await runBin(['--help'], {});
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('Usage: switchyard [options]');
    const wrong = await runBin(['--bogus'], {});
    expect(wrong).toMatchObject({ code: 1, stdout: '' });
    expect(wrong.stderr).toContain("unknown option '--bogus'");
  });

  /** The start-up error: the line after the domains report (a stack trace would add lines). */
  async function startError(args: string[], env: Record<string, string> = {}): Promise<string> {
    const result = await runBin(args, { SWITCHYARD_DATA_DIR: tempDir(), ...env });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    return result.stderr.trimEnd().split('\n').at(-1) ?? '';
  }

  it.each([
    [
      ['--http', '--port', '0', '--host', '0.0.0.0'],
      {},
      'switchyard: refusing to listen on 0.0.0.0 without a token or OAuth: anyone who can reach it could call ' +
        'every tool. Set a bearer token (SWITCHYARD_TOKEN), configure OAuth',
    ],
    [
      ['--http', '--port', '0'],
      { SWITCHYARD_TOKEN: 'short' },
      'switchyard: the bearer token (SWITCHYARD_TOKEN) must be at least 16 characters',
    ],
    [
      ['--http', '--port', '0', '--host', '192.0.2.1'],
      { SWITCHYARD_TOKEN: TOKEN },
      'address 192.0.2.1 is not available on this machine (check --host (SWITCHYARD_HOST))',
    ],
    [
      ['--http', '--port', '0', '--allowed-hosts', 'user@mcp.example.com'],
      {},
      'switchyard: --allowed-hosts (SWITCHYARD_ALLOWED_HOSTS) entry "user@mcp.example.com" is not a host name',
    ],
    [
      ['--http', '--port', '0', '--allowed-origins', 'app.example.com'],
      {},
      'switchyard: --allowed-origins (SWITCHYARD_ALLOWED_ORIGINS) entry "app.example.com" is not an origin',
    ],
    [
      [],
      { SWITCHYARD_LOG_LEVEL: 'verbose' },
      'switchyard: SWITCHYARD_LOG_LEVEL must be one of debug, info, warn',
    ],
  ])('%j fails in one line that names the flag, not the server-kit option', async (args, env, message) => {
    const line = await startError(args, env);
    expect(line).toContain(message);
    expect(line).not.toMatch(/runServer|http\.(host|port|allowed|token)/);
  });
});
