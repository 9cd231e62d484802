import { parseList, parseNonEmptyList as parseListSetting } from '@switchyard/server-kit/bin-flags';

/** The domains the combined server knows, in the order they are mounted (and closed). */
export const DOMAIN_NAMES = ['transit', 'launch-runs', 'journey-continuity'] as const;
export type DomainName = (typeof DOMAIN_NAMES)[number];

/** Short names accepted in --domains, matching the standalone bins and the tool prefixes. */
const DOMAIN_ALIASES: Record<string, DomainName> = { launch: 'launch-runs', journey: 'journey-continuity' };

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 3333;

/** Everything `switchyard` can be told, after flags and environment are merged (flags win). */
export interface SwitchyardSettings {
  transport: 'stdio' | 'http';
  /** HTTP only. */
  host: string;
  /** HTTP only; 0 picks any free port. */
  port: number;
  /** Bearer token every HTTP request must carry (SWITCHYARD_TOKEN; never a flag, so it stays out of `ps`). */
  token?: string;
  /** Host header allow-list for HTTP (default: loopback names when bound to loopback). */
  allowedHosts?: string[];
  /** Origins browsers may call from (default: only the server's own origin). */
  allowedOrigins?: string[];
  /** Mount exactly these domains; undefined mounts the defaults (see domains.ts). */
  domains?: DomainName[];
  /** Put the domain's word (`transit_`, `launch_`, `journey_`) before each tool name that lacks it. */
  toolPrefix: boolean;
  /** Offer only the tools annotated read-only (SWITCHYARD_READ_ONLY / --read-only). */
  readOnly: boolean;
  toolsAllow?: string[];
  toolsDeny?: string[];
  /** Undefined: SWITCHYARD_DATA_DIR or the platform's user data directory. */
  dataDir?: string;
}

/** A setting with a wrong value; the message names the flag or variable and says what to set. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

export function parseDomains(raw: string, source: string): DomainName[] {
  const names = parseList(raw).map((name) => name.toLowerCase());
  if (names.length === 0) {
    throw new SettingsError(`${source} must name at least one of: ${DOMAIN_NAMES.join(', ')}`);
  }
  const domains = names.map((name) => {
    const domain = (DOMAIN_NAMES as readonly string[]).includes(name)
      ? (name as DomainName)
      : DOMAIN_ALIASES[name];
    if (domain === undefined) {
      throw new SettingsError(
        `${source}: unknown domain "${name}"; use a comma-separated list of ${DOMAIN_NAMES.join(', ')}`,
      );
    }
    return domain;
  });
  return [...new Set(domains)];
}

export function parsePort(raw: string, source: string): number {
  const trimmed = raw.trim();
  const port = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SettingsError(
      `${source} must be a port number from 0 to 65535 (0 = any free port), got "${raw}"`,
    );
  }
  return port;
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off', '']);

export function parseBoolean(raw: string, source: string): boolean {
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw new SettingsError(`${source} must be true or false (or 1 / 0), got "${raw}"`);
}

export function parseHost(raw: string, source: string): string {
  const host = raw.trim();
  if (host === '' || /\s/.test(host)) {
    throw new SettingsError(`${source} must be a host name or IP address to listen on, got "${raw}"`);
  }
  return host;
}

export function parseNonEmptyList(raw: string, source: string): string[] {
  return parseListSetting(raw, source, SettingsError);
}
