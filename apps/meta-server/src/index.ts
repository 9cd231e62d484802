import {
  createLogger,
  resolveDataDir,
  runServer,
  type DomainModule,
  type Logger,
  type RunningServer,
} from '@switchyard/server-kit';
import { describeDomains, describeHttpStart } from './announce.js';
import type { Env } from './cli.js';
import { closeModules, openDomains, planDomains, type DomainDecision } from './domains.js';
import { DEFAULT_HOST, DEFAULT_PORT, type SwitchyardSettings } from './settings.js';
import { VERSION } from './version.js';

export { VERSION } from './version.js';
export { parseCommandLine, ENVIRONMENT_OF, type CliOutcome, type Env } from './cli.js';
export {
  planDomains,
  PROVIDER_KEYS,
  type DomainDecision,
  type MountedDomain,
  type SkippedDomain,
} from './domains.js';
export {
  clientConfiguration,
  clientSetups,
  TOKEN_PLACEHOLDER,
  type ClientSetup,
  type StdioCommand,
} from './announce.js';
export {
  DEFAULT_HOST,
  DEFAULT_PORT,
  DOMAIN_NAMES,
  SettingsError,
  type DomainName,
  type SwitchyardSettings,
} from './settings.js';

export const SERVER_NAME = 'switchyard';

export interface SwitchyardOptions extends Partial<SwitchyardSettings> {
  /** Where domain variables (keys, URLs, limits) and server-kit's bounds are read from; default `process.env`. */
  env?: Env;
  /** Default JSON lines on stderr. */
  logger?: Logger;
  /** Your own modules, mounted after the built-in ones (name collisions are refused at start). */
  extraModules?: DomainModule[];
  /** Contract violations in tool output become internal errors (tests). */
  strictOutput?: boolean;
  /** Default true: SIGINT/SIGTERM stop the server and exit the process. */
  handleSignals?: boolean;
  shutdownGraceMs?: number;
  /** Where the start-up report goes; default stderr. */
  announce?: (text: string) => void;
}

/** The combined server's modules, opened and not yet serving: mount them on any transport (or in memory). */
export interface SwitchyardServer {
  /** Mounted modules in order (built-in domains, then `extraModules`). */
  modules: DomainModule[];
  /** Every built-in domain, mounted or skipped, and why. */
  decisions: DomainDecision[];
  dataDir: string;
  /** Closes every module in order. */
  close(): Promise<void>;
}

export interface RunningSwitchyard extends SwitchyardServer {
  /** `http://HOST:PORT/mcp` when serving over HTTP. */
  url?: string;
  /** Stops serving (in-flight calls get the grace period), then closes every module in order. */
  close(): Promise<void>;
}

function loggerFor(options: SwitchyardOptions): Logger {
  return options.logger ?? createLogger({ fields: { service: SERVER_NAME } });
}

/** Reads every domain's configuration, decides what to mount, and opens those modules (databases, clients). */
export async function createSwitchyardServer(options: SwitchyardOptions = {}): Promise<SwitchyardServer> {
  const env = options.env ?? process.env;
  const logger = loggerFor(options);
  const dataDir = resolveDataDir({
    ...env,
    ...(options.dataDir === undefined ? {} : { SWITCHYARD_DATA_DIR: options.dataDir }),
  });
  const decisions = await planDomains({
    ...(options.domains === undefined ? {} : { domains: options.domains }),
    env,
    dataDir,
  });
  const modules = [...(await openDomains(decisions, logger)), ...(options.extraModules ?? [])];
  let closing: Promise<void> | undefined;
  return {
    modules,
    decisions,
    dataDir,
    close: () => (closing ??= closeModules(modules, logger)),
  };
}

function instructionsFor(modules: readonly DomainModule[]): string {
  return (
    `Switchyard ${VERSION}: ${modules.map((module) => module.name).join(', ')}. ` +
    'Every tool answers with structured content that follows its published contract; errors carry a code ' +
    'and a message that says what to change.'
  );
}

/**
 * Opens the domains and serves them over stdio or Streamable HTTP (what the `switchyard` bin does).
 * Reports what was mounted, and over HTTP the URL and a client configuration, through `announce`.
 */
export async function startSwitchyard(options: SwitchyardOptions = {}): Promise<RunningSwitchyard> {
  const logger = loggerFor(options);
  const announce = options.announce ?? ((text: string) => process.stderr.write(text));
  const server = await createSwitchyardServer({ ...options, logger });
  announce(describeDomains(server.decisions));
  const transport = options.transport ?? 'stdio';
  let running: RunningServer;
  try {
    running = await runServer(server.modules, {
      name: SERVER_NAME,
      version: VERSION,
      transport,
      dataDir: server.dataDir,
      logger,
      // The SWITCHYARD_* resource bounds (sessions, connections, timeouts, sizes, nesting) are read there.
      env: options.env ?? process.env,
      instructions: instructionsFor(server.modules),
      ...(options.toolPrefix === undefined ? {} : { toolPrefix: options.toolPrefix }),
      ...(options.toolsAllow === undefined ? {} : { toolsAllow: options.toolsAllow }),
      ...(options.toolsDeny === undefined ? {} : { toolsDeny: options.toolsDeny }),
      ...(options.strictOutput === undefined ? {} : { strictOutput: options.strictOutput }),
      ...(options.handleSignals === undefined ? {} : { handleSignals: options.handleSignals }),
      ...(options.shutdownGraceMs === undefined ? {} : { shutdownGraceMs: options.shutdownGraceMs }),
      http: {
        host: options.host ?? DEFAULT_HOST,
        port: options.port ?? DEFAULT_PORT,
        ...(options.token === undefined ? {} : { token: options.token }),
        ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
        ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
      },
    });
  } catch (error) {
    // runServer leaves the modules open when it cannot start (bad options, collision, port in use).
    await server.close();
    throw error;
  }
  if (running.url !== undefined) {
    // The stdio form of this same server, for clients that start their own copy (the entry script that runs).
    const stdio = { command: process.execPath, args: process.argv.slice(1, 2) };
    announce(describeHttpStart(running.url, options.token !== undefined, stdio));
  }
  return {
    ...server,
    ...(running.url === undefined ? {} : { url: running.url }),
    close: () => running.close(),
  };
}
