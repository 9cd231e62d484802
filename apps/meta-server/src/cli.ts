import { HTTP_ONLY_FLAGS, httpOnlyFlagsWithoutHttp } from '@switchyard/server-kit/bin-flags';
import { Command, CommanderError, Option } from 'commander';
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  DOMAIN_NAMES,
  parseBoolean,
  parseDomains,
  parseHost,
  parseNonEmptyList,
  parsePort,
  SettingsError,
  type SwitchyardSettings,
} from './settings.js';
import { VERSION } from './version.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** Each flag and the variable that sets the same thing when the flag is absent. */
export const ENVIRONMENT_OF = {
  http: 'SWITCHYARD_HTTP',
  host: 'SWITCHYARD_HOST',
  port: 'SWITCHYARD_PORT',
  domains: 'SWITCHYARD_DOMAINS',
  toolsAllow: 'SWITCHYARD_TOOLS_ALLOW',
  toolsDeny: 'SWITCHYARD_TOOLS_DENY',
  toolPrefix: 'SWITCHYARD_TOOL_PREFIX',
  readOnly: 'SWITCHYARD_READ_ONLY',
  dataDir: 'SWITCHYARD_DATA_DIR',
  allowedHosts: 'SWITCHYARD_ALLOWED_HOSTS',
  allowedOrigins: 'SWITCHYARD_ALLOWED_ORIGINS',
} as const;
type SettingKey = keyof typeof ENVIRONMENT_OF;

export const FLAG_OF: Record<SettingKey, string> = {
  http: '--http',
  host: '--host',
  port: '--port',
  domains: '--domains',
  toolsAllow: '--tools-allow',
  toolsDeny: '--tools-deny',
  toolPrefix: '--tool-prefix',
  readOnly: '--read-only',
  dataDir: '--data-dir',
  allowedHosts: '--allowed-hosts',
  allowedOrigins: '--allowed-origins',
};

const HELP_AFTER = `
Every flag can also be set by its environment variable (the flag wins):
  SWITCHYARD_HTTP, SWITCHYARD_HOST, SWITCHYARD_PORT, SWITCHYARD_DOMAINS, SWITCHYARD_TOOLS_ALLOW,
  SWITCHYARD_TOOLS_DENY, SWITCHYARD_TOOL_PREFIX, SWITCHYARD_READ_ONLY, SWITCHYARD_DATA_DIR,
  SWITCHYARD_ALLOWED_HOSTS, SWITCHYARD_ALLOWED_ORIGINS.
  SWITCHYARD_TOKEN   bearer token HTTP clients must send; to listen on anything but loopback, set it or
                     configure OAuth (SWITCHYARD_OAUTH_ISSUER and SWITCHYARD_RESOURCE_URL; see the README)
  SWITCHYARD_LOG_LEVEL  debug | info (default) | warn | error
  SWITCHYARD_LOG_FORMAT text | json (default: text on a terminal, else JSON lines)
  Resource bounds (connections, timeouts, message sizes, batch length, argument nesting):
  SWITCHYARD_HTTP_MAX_CONNECTIONS, SWITCHYARD_HTTP_HEADERS_TIMEOUT_MS, SWITCHYARD_HTTP_REQUEST_TIMEOUT_MS, SWITCHYARD_HTTP_KEEP_ALIVE_TIMEOUT_MS,
  SWITCHYARD_HTTP_MAX_BODY_BYTES, SWITCHYARD_HTTP_MAX_BATCH, SWITCHYARD_STDIO_MAX_MESSAGE_BYTES,
  SWITCHYARD_MAX_ARGUMENT_DEPTH (defaults and meanings: the README's configuration section).

Domains: journey-continuity and launch-runs run unless --domains leaves them out (on SQLite files in the data
directory, or on PostgreSQL: below).
transit is mounted with the providers whose keys are set: TFL_API_KEY (London, planJourney, get_london_arrivals, get_line_status, find_london_stops) and/or
DIGITRANSIT_SUBSCRIPTION_KEY (Helsinki, get_departures, plan_trip, find_stops). Naming transit in
--domains makes its keys required.

PostgreSQL (instead of the embedded SQLite files): SWITCHYARD_DATABASE_URL=postgres://..., or per domain
  TRANSIT_DATABASE_URL, JOURNEY_DATABASE_URL, LAUNCH_DATABASE_URL. Servers refuse to start on an unmigrated database: run \`switchyard migrate\` first,
  or set SWITCHYARD_MIGRATE_ON_START=1.

Examples:
  switchyard                                   stdio, for a client that starts the server itself
  switchyard --http                            Streamable HTTP on http://127.0.0.1:3333/mcp
  switchyard --domains journey,launch --tools-deny 'launch_cancel'
  SWITCHYARD_TOKEN=$(openssl rand -hex 32) switchyard --http --host 0.0.0.0
`;

function buildProgram(): Command {
  return new Command()
    .name('switchyard')
    .description(
      'One MCP server for transit (London and Helsinki), documentation launch runs and journey continuity.',
    )
    .argument('[command]', 'migrate: apply pending PostgreSQL migrations, then exit (takes no flags)')
    .version(VERSION, '-v, --version', 'print the version and exit')
    .helpOption('-h, --help', 'show this help and exit')
    .addOption(new Option('--http', 'serve Streamable HTTP on /mcp instead of stdio'))
    .addOption(new Option('--no-http', 'serve stdio even when SWITCHYARD_HTTP is set').hideHelp())
    .addOption(new Option('--host <host>', `interface to listen on with --http (default: ${DEFAULT_HOST})`))
    .addOption(
      new Option('--port <port>', `port to listen on with --http, 0 = any (default: ${DEFAULT_PORT})`),
    )
    .addOption(new Option('--domains <list>', `comma-separated domains to mount: ${DOMAIN_NAMES.join(', ')}`))
    .addOption(
      new Option('--tools-allow <list>', 'only these tools are visible (comma-separated, * wildcards)'),
    )
    .addOption(
      new Option('--tools-deny <list>', 'hide these tools (comma-separated, * wildcards; wins over allow)'),
    )
    .addOption(
      new Option(
        '--tool-prefix',
        "put the domain's word (transit_, launch_, journey_) before each tool name that lacks it",
      ),
    )
    .addOption(new Option('--no-tool-prefix', 'no prefix even when SWITCHYARD_TOOL_PREFIX is set').hideHelp())
    .addOption(new Option('--read-only', 'offer only the tools annotated read-only (no writes, no runs)'))
    .addOption(new Option('--no-read-only', 'all tools even when SWITCHYARD_READ_ONLY is set').hideHelp())
    .addOption(
      new Option('--data-dir <dir>', 'where the SQLite databases live (default: the user data directory)'),
    )
    .addOption(
      new Option('--allowed-hosts <list>', 'Host headers accepted over HTTP (default: loopback names)'),
    )
    .addOption(
      new Option(
        '--allowed-origins <list>',
        'browser origins accepted over HTTP (default: the server itself)',
      ),
    )
    .addHelpText('after', HELP_AFTER)
    .showHelpAfterError('(run `switchyard --help` for usage)')
    .allowExcessArguments(false)
    .exitOverride();
}

/** The raw value of one setting: the flag when given on the command line, else its variable, else undefined. */
function rawSetting(
  program: Command,
  env: Env,
  key: SettingKey,
): { value: string | boolean; source: string } | undefined {
  if (program.getOptionValueSource(key) === 'cli') {
    return { value: program.getOptionValue(key) as string | boolean, source: FLAG_OF[key] };
  }
  const variable = ENVIRONMENT_OF[key];
  const value = env[variable];
  return value === undefined || value.trim() === '' ? undefined : { value, source: variable };
}

function stringSetting<T>(
  program: Command,
  env: Env,
  key: SettingKey,
  parse: (raw: string, source: string) => T,
): T | undefined {
  const raw = rawSetting(program, env, key);
  return raw === undefined ? undefined : parse(String(raw.value), raw.source);
}

function booleanSetting(program: Command, env: Env, key: SettingKey): boolean {
  const raw = rawSetting(program, env, key);
  if (raw === undefined) return false;
  return typeof raw.value === 'boolean' ? raw.value : parseBoolean(raw.value, raw.source);
}

/** The flags given on the command line, as written there. */
function flagsGiven(program: Command): string[] {
  return (Object.keys(FLAG_OF) as SettingKey[])
    .filter((key) => program.getOptionValueSource(key) === 'cli')
    .map((key) => FLAG_OF[key]);
}

/**
 * HTTP-only flags (--host, --port, the allow-lists) on the command line mean nothing over stdio: refused, as
 * the domain bins do, rather than ignored. Their variables are not (one environment may serve both transports).
 */
function refuseHttpOnlyFlagsOverStdio(program: Command): void {
  const refusal = httpOnlyFlagsWithoutHttp(
    flagsGiven(program).filter((flag) => HTTP_ONLY_FLAGS.includes(flag)),
  );
  if (refusal !== undefined) throw new SettingsError(refusal);
}

function settingsFrom(program: Command, env: Env): SwitchyardSettings {
  const token = env.SWITCHYARD_TOKEN?.trim();
  const domains = stringSetting(program, env, 'domains', parseDomains);
  const toolsAllow = stringSetting(program, env, 'toolsAllow', parseNonEmptyList);
  const toolsDeny = stringSetting(program, env, 'toolsDeny', parseNonEmptyList);
  const allowedHosts = stringSetting(program, env, 'allowedHosts', parseNonEmptyList);
  const allowedOrigins = stringSetting(program, env, 'allowedOrigins', parseNonEmptyList);
  const dataDir = stringSetting(program, env, 'dataDir', (raw) => raw.trim());
  const host = stringSetting(program, env, 'host', parseHost) ?? DEFAULT_HOST;
  const port = stringSetting(program, env, 'port', parsePort) ?? DEFAULT_PORT;
  const transport = booleanSetting(program, env, 'http') ? 'http' : 'stdio';
  if (transport === 'stdio') refuseHttpOnlyFlagsOverStdio(program);
  return {
    transport,
    host,
    port,
    toolPrefix: booleanSetting(program, env, 'toolPrefix'),
    readOnly: booleanSetting(program, env, 'readOnly'),
    token: token || undefined,
    domains,
    toolsAllow,
    toolsDeny,
    allowedHosts,
    allowedOrigins,
    dataDir: dataDir || undefined,
  };
}

export type CliOutcome =
  | { action: 'run'; settings: SwitchyardSettings }
  /** `switchyard migrate`: apply the PostgreSQL migrations of every domain configured for PostgreSQL. */
  | { action: 'migrate' }
  /** --help, --version or a usage error: print `output` (stdout when exitCode is 0, else stderr). */
  | { action: 'exit'; exitCode: number; output: string };

/**
 * `switchyard migrate` applies the migrations of every domain whose database is PostgreSQL, whatever the
 * server's flags say: a flag given with it (`--domains transit`) would be silently ignored, so it is refused.
 */
function migrateOutcome(program: Command): CliOutcome {
  const given = flagsGiven(program);
  if (given.length === 0) return { action: 'migrate' };
  const output =
    `switchyard: migrate takes no flags (${given.join(', ')}): it applies the pending migrations of every ` +
    'domain whose database is PostgreSQL\n';
  return { action: 'exit', exitCode: 1, output };
}

/** Parses `argv` (without node and the script) and `env` into settings, or what to print and exit with. */
export function parseCommandLine(argv: readonly string[], env: Env): CliOutcome {
  let output = '';
  const program = buildProgram().configureOutput({
    writeOut: (text) => {
      output += text;
    },
    writeErr: (text) => {
      output += text;
    },
  });
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return { action: 'exit', exitCode: error.exitCode, output };
    throw error;
  }
  const command = program.args[0];
  if (command === 'migrate') return migrateOutcome(program);
  if (command !== undefined) {
    return {
      action: 'exit',
      exitCode: 1,
      output: `switchyard: unknown command "${command}" (the one command is \`switchyard migrate\`)\n`,
    };
  }
  try {
    return { action: 'run', settings: settingsFrom(program, env) };
  } catch (error) {
    if (error instanceof SettingsError) {
      return { action: 'exit', exitCode: 1, output: `switchyard: ${error.message}\n` };
    }
    throw error;
  }
}
