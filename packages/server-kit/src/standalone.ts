import { parseArgs } from 'node:util';
import {
  ALLOW_LIST_SETTINGS,
  HTTP_ONLY_FLAGS,
  httpOnlyFlagsWithoutHttp,
  parseNonEmptyList,
} from './bin-flags.js';
import type { Domain, DomainLifecycle } from './domain.js';
import { BIN_SETTING_NAMES, forPeople } from './for-people.js';
import { runServer } from './run-server.js';
import { resolveDataDir } from './runtime/data-dir.js';
import { createLogger } from './runtime/logger.js';
import { boundMemory } from './runtime/memory-bounds.js';

export interface StandaloneServerOptions<Config, State extends DomainLifecycle> {
  /** The bin's name, e.g. `switchyard-transit`: the server name, log service and message prefix. */
  name: string;
  /** The one domain it serves; its configuration is read from the environment (an error names the variable). */
  domain: Domain<Config, State>;
  /** Defaults to process.argv.slice(2) and process.env. */
  argv?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** The bin's other ways to be called, for --help (`--example-repos DIR`); the bin handles them itself. */
  otherUsage?: readonly string[];
  /** Lines --help ends with: what the domain needs set (its keys), what the other usages do. */
  help?: readonly string[];
}

function usage<Config, State extends DomainLifecycle>(
  options: StandaloneServerOptions<Config, State>,
): string {
  const { name } = options;
  const forms = [
    '[--http [--host HOST] [--port PORT] [--allowed-hosts LIST] [--allowed-origins LIST]]',
    ...(options.otherUsage ?? []),
    '--help | --version',
  ];
  return [
    ...forms.map((form, index) => `${index === 0 ? 'usage:' : '      '} ${name} ${form}`),
    '',
    'Serves MCP over stdio by default; --http serves Streamable HTTP on /mcp (127.0.0.1:3333 by default).',
    'SWITCHYARD_TOKEN sets the bearer token HTTP clients must send (required off loopback).',
    '--allowed-hosts (or SWITCHYARD_ALLOWED_HOSTS): Host headers accepted over HTTP, comma-separated',
    '(default: the loopback names when bound to loopback, else any); --allowed-origins (or',
    "SWITCHYARD_ALLOWED_ORIGINS): browser origins accepted (default: the server's own).",
    'SWITCHYARD_DATA_DIR sets where data is kept (default: the platform user data directory).',
    'SWITCHYARD_LOG_LEVEL: debug | info (default) | warn | error.',
    'SWITCHYARD_LOG_FORMAT: text | json (default: text on a terminal, else JSON lines).',
    'Resource bounds (SWITCHYARD_HTTP_MAX_BODY_BYTES, SWITCHYARD_STDIO_MAX_MESSAGE_BYTES, ...): see the',
    "configuration table in @switchyard/server-kit's README.",
    ...(options.help === undefined ? [] : ['', ...options.help]),
  ].join('\n');
}

function refuseHttpOnlyFlagsWithoutHttp(values: Record<string, string | boolean | undefined>): void {
  if (values.http === true) return;
  const refusal = httpOnlyFlagsWithoutHttp(
    HTTP_ONLY_FLAGS.filter((flag) => values[flag.slice('--'.length)] !== undefined),
  );
  if (refusal !== undefined) throw new Error(refusal);
}

/** The allow-list `option`, from its flag or else its variable (ALLOW_LIST_SETTINGS). */
function allowList(
  option: keyof typeof ALLOW_LIST_SETTINGS,
  values: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv,
): string[] | undefined {
  const { flag, variable } = ALLOW_LIST_SETTINGS[option];
  const given = values[flag.slice('--'.length)];
  if (typeof given === 'string') return parseNonEmptyList(given, flag);
  const raw = env[variable];
  return raw === undefined || raw.trim() === '' ? undefined : parseNonEmptyList(raw, variable);
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`--port must be a port number from 0 to 65535 (got "${value}")`);
  }
  return port;
}

async function start<Config, State extends DomainLifecycle>(
  options: StandaloneServerOptions<Config, State>,
): Promise<void> {
  const env = options.env ?? process.env;
  const { values } = parseArgs({
    args: [...(options.argv ?? process.argv.slice(2))],
    options: {
      http: { type: 'boolean', default: false },
      host: { type: 'string' },
      port: { type: 'string' },
      'allowed-hosts': { type: 'string' },
      'allowed-origins': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'v', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${usage(options)}\n`);
    return;
  }
  if (values.version) {
    process.stdout.write(`${options.domain.version}\n`);
    return;
  }
  const port = parsePort(values.port);
  refuseHttpOnlyFlagsWithoutHttp(values);
  const { domain } = options;
  const config = domain.config(env);
  const logger = createLogger({ fields: { service: options.name } });
  const dataDir = resolveDataDir(env);
  const token = env.SWITCHYARD_TOKEN?.trim();
  boundMemory(env);
  await runServer([{ domain, config }], {
    name: options.name,
    version: domain.version,
    title: domain.title,
    instructions: domain.instructions,
    icon: domain.icon,
    transport: values.http ? 'http' : 'stdio',
    env,
    dataDir,
    logger,
    http: {
      host: values.host,
      port,
      token,
      allowedHosts: allowList('allowedHosts', values, env),
      allowedOrigins: allowList('allowedOrigins', values, env),
    },
    settingNames: BIN_SETTING_NAMES,
  });
}

/**
 * The whole of a domain's standalone bin: flags, data directory, logger, runServer, and a one-line
 * message naming the problem (a missing variable, a bad flag) with exit code 1 when it cannot start.
 */
export function runStandaloneServer<Config, State extends DomainLifecycle>(
  options: StandaloneServerOptions<Config, State>,
): void {
  start(options).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${options.name}: ${forPeople(message)}\n`);
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
      process.stderr.write(`${usage(options)}\n`);
    process.exitCode = 1;
  });
}
