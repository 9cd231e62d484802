import { describe, expect, it } from 'vitest';
import { parseCommandLine, type CliOutcome } from '../src/cli.js';
import type { SwitchyardSettings } from '../src/settings.js';
import { VERSION } from '../src/version.js';

function settings(argv: string[], env: Record<string, string> = {}): SwitchyardSettings {
  const outcome = parseCommandLine(argv, env);
  if (outcome.action !== 'run') throw new Error(`expected settings, got ${JSON.stringify(outcome)}`);
  return outcome.settings;
}

function exit(argv: string[], env: Record<string, string> = {}): Extract<CliOutcome, { action: 'exit' }> {
  const outcome = parseCommandLine(argv, env);
  if (outcome.action !== 'exit') throw new Error(`expected an exit, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('switchyard command line', () => {
  it('knows one command, migrate, and names it for any other', () => {
    expect(parseCommandLine(['migrate'], {})).toEqual({ action: 'migrate' });
    expect(exit(['serve'])).toMatchObject({
      exitCode: 1,
      output: expect.stringContaining('unknown command "serve" (the one command is `switchyard migrate`)'),
    });
  });

  it('refuses a flag given with migrate, which migrates every PostgreSQL domain whatever the flags say', () => {
    expect(parseCommandLine(['migrate'], { SWITCHYARD_DOMAINS: 'transit' })).toEqual({ action: 'migrate' });
    expect(exit(['migrate', '--domains', 'transit', '--port', '4000'])).toEqual({
      action: 'exit',
      exitCode: 1,
      output:
        'switchyard: migrate takes no flags (--port, --domains): it applies the pending migrations of every ' +
        'domain whose database is PostgreSQL\n',
    });
    expect(exit(['--read-only', 'migrate']).output).toContain('migrate takes no flags (--read-only)');
  });

  it('defaults to stdio, 127.0.0.1:3333, no prefix, every tool and the default domains', () => {
    expect(settings([])).toEqual({
      transport: 'stdio',
      host: '127.0.0.1',
      port: 3333,
      toolPrefix: false,
      readOnly: false,
    });
  });

  it('reads every flag', () => {
    expect(
      settings([
        '--http',
        '--host',
        '0.0.0.0',
        '--port',
        '8080',
        '--domains',
        'journey, launch-runs',
        '--tools-allow',
        'get_*,launch_*',
        '--tools-deny',
        'launch_cancel',
        '--tool-prefix',
        '--read-only',
        '--data-dir',
        '/tmp/sy',
        '--allowed-hosts',
        'mcp.example.com',
        '--allowed-origins',
        'https://app.example.com',
      ]),
    ).toEqual({
      transport: 'http',
      host: '0.0.0.0',
      port: 8080,
      domains: ['journey-continuity', 'launch-runs'],
      toolsAllow: ['get_*', 'launch_*'],
      toolsDeny: ['launch_cancel'],
      toolPrefix: true,
      readOnly: true,
      dataDir: '/tmp/sy',
      allowedHosts: ['mcp.example.com'],
      allowedOrigins: ['https://app.example.com'],
    });
  });

  it('reads the same settings from the environment', () => {
    expect(
      settings([], {
        SWITCHYARD_HTTP: 'true',
        SWITCHYARD_HOST: '::1',
        SWITCHYARD_PORT: '0',
        SWITCHYARD_DOMAINS: 'transit',
        SWITCHYARD_TOOLS_ALLOW: 'plan*',
        SWITCHYARD_TOOLS_DENY: 'planJourney',
        SWITCHYARD_TOOL_PREFIX: '1',
        SWITCHYARD_READ_ONLY: 'yes',
        SWITCHYARD_DATA_DIR: '/data',
        SWITCHYARD_TOKEN: '  secret-token-of-enough-length  ',
      }),
    ).toEqual({
      transport: 'http',
      host: '::1',
      port: 0,
      domains: ['transit'],
      toolsAllow: ['plan*'],
      toolsDeny: ['planJourney'],
      toolPrefix: true,
      readOnly: true,
      dataDir: '/data',
      token: 'secret-token-of-enough-length',
    });
  });

  it('lets a flag win over its variable, booleans included', () => {
    const env = {
      SWITCHYARD_HTTP: 'yes',
      SWITCHYARD_PORT: '4000',
      SWITCHYARD_DOMAINS: 'transit',
      SWITCHYARD_TOOL_PREFIX: 'on',
      SWITCHYARD_READ_ONLY: 'true',
    };
    expect(settings(['--no-http'], env)).toMatchObject({ transport: 'stdio' });
    expect(
      settings(['--port', '5000', '--domains', 'launch', '--no-tool-prefix', '--no-read-only'], env),
    ).toMatchObject({
      transport: 'http',
      port: 5000,
      domains: ['launch-runs'],
      toolPrefix: false,
      readOnly: false,
    });
    expect(settings([], { SWITCHYARD_HTTP: '0', SWITCHYARD_TOOL_PREFIX: 'false' })).toMatchObject({
      transport: 'stdio',
      toolPrefix: false,
    });
  });

  it('mounts a domain named twice (by its name and its short name) once', () => {
    expect(settings(['--domains', 'launch,launch-runs,LAUNCH']).domains).toEqual(['launch-runs']);
  });

  it('refuses --host or --port without --http (stdio listens on nothing), but not their variables', () => {
    const needsHttp = ': without it the server speaks stdio and listens on nothing\n';
    expect(exit(['--port', '4000'])).toEqual({
      action: 'exit',
      exitCode: 1,
      output: `switchyard: --port needs --http${needsHttp}`,
    });
    expect(exit(['--host', '0.0.0.0', '--port', '4000', '--no-http'], { SWITCHYARD_HTTP: '1' }).output).toBe(
      `switchyard: --host and --port need --http${needsHttp}`,
    );
    expect(exit(['--allowed-hosts', 'mcp.example.com']).output).toBe(
      `switchyard: --allowed-hosts needs --http${needsHttp}`,
    );
    expect(exit(['--allowed-origins', 'https://a.test', '--host', '::1']).output).toBe(
      `switchyard: --host and --allowed-origins need --http${needsHttp}`,
    );
    expect(settings(['--port', '4000'], { SWITCHYARD_HTTP: '1' })).toMatchObject({ port: 4000 });
    expect(settings([], { SWITCHYARD_HOST: 'localhost', SWITCHYARD_PORT: '4000' }).transport).toBe('stdio');
  });

  it('treats a blank variable as unset', () => {
    expect(settings([], { SWITCHYARD_PORT: '  ', SWITCHYARD_DOMAINS: '' })).toEqual(settings([]));
  });

  it('names the flag or the variable that has a wrong value', () => {
    expect(exit(['--port', '70000'])).toEqual({
      action: 'exit',
      exitCode: 1,
      output: 'switchyard: --port must be a port number from 0 to 65535 (0 = any free port), got "70000"\n',
    });
    expect(exit([], { SWITCHYARD_PORT: '-1' }).output).toContain('SWITCHYARD_PORT must be a port number');
    expect(exit([], { SWITCHYARD_HTTP: 'maybe' }).output).toContain(
      'SWITCHYARD_HTTP must be true or false (or 1 / 0), got "maybe"',
    );
    expect(exit([], { SWITCHYARD_READ_ONLY: 'mostly' }).output).toContain(
      'SWITCHYARD_READ_ONLY must be true or false (or 1 / 0), got "mostly"',
    );
    expect(exit(['--domains', 'transit,weather']).output).toContain(
      '--domains: unknown domain "weather"; use a comma-separated list of transit, launch-runs, journey-continuity',
    );
    expect(exit([], { SWITCHYARD_DOMAINS: ' , ' }).output).toContain(
      'SWITCHYARD_DOMAINS must name at least one',
    );
    expect(exit(['--tools-deny', ',']).output).toContain('--tools-deny must be a comma-separated list');
    expect(exit(['--http', '--host', ' ']).output).toContain('--host must be a host name or IP address');
    expect(exit([], { SWITCHYARD_HOST: '127.0.0.1 0.0.0.0' }).output).toContain(
      'SWITCHYARD_HOST must be a host name or IP address to listen on, got "127.0.0.1 0.0.0.0"',
    );
  });

  it('prints help and the version on stdout with exit code 0', () => {
    const help = exit(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.output).toContain('Usage: switchyard [options]');
    for (const flag of [
      '--http',
      '--host',
      '--port',
      '--domains',
      '--tools-allow',
      '--tools-deny',
      '--tool-prefix',
      '--read-only',
    ]) {
      expect(help.output).toContain(flag);
    }
    expect(help.output).toContain('SWITCHYARD_TOKEN');
    expect(exit(['--version'])).toEqual({ action: 'exit', exitCode: 0, output: `${VERSION}\n` });
  });

  it('rejects unknown options and stray arguments', () => {
    const unknown = exit(['--verbose']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.output).toContain("unknown option '--verbose'");
    expect(exit(['serve']).exitCode).toBe(1);
    expect(exit(['--port']).output).toContain("option '--port <port>' argument missing");
  });

  it('never takes the token from a flag (it would show in the process list)', () => {
    expect(exit(['--token', 'abc']).output).toContain("unknown option '--token'");
  });
});
