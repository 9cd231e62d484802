import { readFileSync } from 'node:fs';
import { runServer, type DomainLifecycle, type Mount, type RunningServer } from '@switchyard/server-kit';
import { createLogger, resolveDataDir, type Logger } from '@switchyard/server-kit/runtime';
import { describeDomains, describeHttpStart, type StdioCommand } from './announce.js';
import type { Env } from './cli.js';
import { mountsOf, planDomains, unmountedOf, type DomainDecision } from './domains.js';
import { DEFAULT_HOST, DEFAULT_PORT, type SwitchyardSettings } from './settings.js';
import { VERSION } from './version.js';

export { VERSION } from './version.js';
export { parseCommandLine, ENVIRONMENT_OF, type CliOutcome, type Env } from './cli.js';
export { planDomains, type DomainDecision, type MountedDomain, type SkippedDomain } from './domains.js';
// The variable holding each transit provider's key: transit's own table (this package exported it first).
export { PROVIDER_KEYS } from '@switchyard/transit/providers';
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
export const SERVER_TITLE = 'Switchyard';
export const WEBSITE_URL = 'https://github.com/switchyard-mcp/switchyard#readme';
/** Drawn for Switchyard (MIT, like the code); shipped in the package's icons/ folder. */
const ICON = readFileSync(new URL('../icons/switchyard.svg', import.meta.url), 'utf8');

export interface SwitchyardOptions extends Partial<SwitchyardSettings> {
  /** Where domain variables (keys, URLs, limits) and server-kit's bounds are read from; default `process.env`. */
  env?: Env;
  /** Default JSON lines on stderr. */
  logger?: Logger;
  /** Your own domains, mounted after the built-in ones (name collisions are refused at start). */
  extraDomains?: Mount<unknown, DomainLifecycle>[];
  /** Contract violations in tool output become internal errors (tests). */
  strictOutput?: boolean;
  /** Default true: SIGINT/SIGTERM stop the server and exit the process (embedding code usually passes false). */
  handleSignals?: boolean;
  shutdownGraceMs?: number;
  /** Where the start-up report goes (what was mounted; over HTTP the URL and client setups); default stderr. */
  announce?: (text: string) => void;
  /**
   * The command that starts this same server over stdio, for the Claude Desktop setup the HTTP report shows
   * (the `switchyard` bin passes its own). Without it that setup is left out.
   */
  stdioCommand?: StdioCommand;
  /**
   * How the person who starts the server sets a server-kit option that a start-up hint names (the `switchyard`
   * bin passes its flags and variables). Default: the option's name.
   */
  settingNames?: Readonly<Record<string, string>>;
}

/** What the combined server will mount, decided from its settings and environment (nothing opened yet). */
export interface SwitchyardPlan {
  /** Every built-in domain, mounted or skipped, and why. */
  decisions: DomainDecision[];
  /** The mounts in order: built-in domains, then `extraDomains`. */
  mounts: Mount<unknown, DomainLifecycle>[];
  dataDir: string;
}

export interface RunningSwitchyard extends SwitchyardPlan {
  /** `http://HOST:PORT/mcp` when serving over HTTP. */
  url?: string;
  /** Each mounted domain's state, as its `open` returned it. */
  domains: ReadonlyMap<string, DomainLifecycle>;
  /** Stops serving (in-flight calls get the grace period), then closes every domain in order. */
  close(): Promise<void>;
}

function loggerFor(options: SwitchyardOptions): Logger {
  return options.logger ?? createLogger({ fields: { service: SERVER_NAME } });
}

/** Reads every domain's configuration and decides what to mount; a wrong variable fails here, before anything opens. */
export async function planSwitchyard(options: SwitchyardOptions = {}): Promise<SwitchyardPlan> {
  const env = options.env ?? process.env;
  const dataDir = resolveDataDir({
    ...env,
    ...(options.dataDir === undefined ? {} : { SWITCHYARD_DATA_DIR: options.dataDir }),
  });
  const decisions = await planDomains({ domains: options.domains, env, dataDir });
  return { decisions, mounts: [...mountsOf(decisions), ...(options.extraDomains ?? [])], dataDir };
}

/** What the server tells a client it is for: one paragraph per mounted domain, in the domain's own words. */
export function instructionsFor(mounts: readonly Mount<unknown, DomainLifecycle>[]): string {
  return [
    `Switchyard ${VERSION}. Every tool answers with structured content that follows its published contract; ` +
      'an error carries a code and a message that says what to change.',
    ...mounts.map(({ domain }) => `${domain.title}: ${domain.instructions}`),
  ].join('\n\n');
}

/**
 * Plans, opens and serves the domains over stdio or Streamable HTTP (what the `switchyard` bin does).
 * Reports what was mounted, and over HTTP the URL and a client configuration, through `announce`.
 */
export async function startSwitchyard(options: SwitchyardOptions = {}): Promise<RunningSwitchyard> {
  const logger = loggerFor(options);
  const announce = options.announce ?? ((text: string) => process.stderr.write(text));
  const plan = await planSwitchyard(options);
  announce(describeDomains(plan.decisions));
  const running: RunningServer = await runServer(plan.mounts, {
    name: SERVER_NAME,
    version: VERSION,
    title: SERVER_TITLE,
    websiteUrl: WEBSITE_URL,
    icon: ICON,
    transport: options.transport ?? 'stdio',
    dataDir: plan.dataDir,
    logger,
    // The domains' variables and the SWITCHYARD_* resource bounds (connections, timeouts, sizes) are read there.
    env: options.env ?? process.env,
    instructions: instructionsFor(plan.mounts),
    readOnly: options.readOnly,
    toolPrefix: options.toolPrefix,
    toolsAllow: options.toolsAllow,
    toolsDeny: options.toolsDeny,
    unmounted: unmountedOf(plan.decisions),
    strictOutput: options.strictOutput,
    handleSignals: options.handleSignals,
    shutdownGraceMs: options.shutdownGraceMs,
    settingNames: options.settingNames,
    http: {
      host: options.host ?? DEFAULT_HOST,
      port: options.port ?? DEFAULT_PORT,
      token: options.token,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
    },
  });
  if (running.url !== undefined) {
    announce(
      describeHttpStart(running.url, {
        hasToken: options.token !== undefined,
        stdio: options.stdioCommand,
        stopsOnCtrlC: options.handleSignals ?? true,
      }),
    );
  }
  return {
    ...plan,
    url: running.url,
    domains: running.domains,
    close: () => running.close(),
  };
}
