import type { DomainLifecycle, Mount, UnmountedDomain } from '@switchyard/server-kit';
import { describeDatabase, type PostgresSettings } from '@switchyard/server-kit/runtime';
import { PROVIDER_KEYS, type Provider } from '@switchyard/transit/providers';
import type { Env } from './cli.js';
import { DOMAIN_NAMES, SettingsError, type DomainName } from './settings.js';

const PROVIDER_PLACES: Record<Provider, string> = { tfl: 'London', hsl: 'Helsinki' };

export interface MountedDomain {
  name: DomainName;
  mount: true;
  /** Why and how it is mounted, for the start-up report. */
  reason: string;
  /** The domain with its configuration, read and checked already; runServer opens it. */
  domain: Mount<unknown, DomainLifecycle>;
}

export interface SkippedDomain {
  name: DomainName;
  mount: false;
  reason: string;
}

export type DomainDecision = MountedDomain | SkippedDomain;

export interface PlanRequest {
  /** Domains named with --domains; undefined means the defaults. */
  domains?: readonly DomainName[];
  env: Env;
  /** The data directory every domain uses (resolved already). */
  dataDir: string;
}

/**
 * Each domain's package, loaded only when the domain may be mounted (a skipped domain costs no start-up
 * time), or when a call names one of its tools and the server says why it is off.
 */
const DECLARATIONS = {
  transit: () => import('@switchyard/transit').then((m) => m.transitDomain),
  'launch-runs': () => import('@switchyard/launch-runs').then((m) => m.launchRunsDomain),
  'journey-continuity': () => import('@switchyard/journey-continuity').then((m) => m.journeyDomain),
};

function isSet(env: Env, name: string): boolean {
  const value = env[name];
  return value !== undefined && value.trim() !== '';
}

/** Runs a domain's own configuration loader, turning its error into a SettingsError that names the domain. */
function loadFor<T>(domain: DomainName, load: () => T): T {
  try {
    return load();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SettingsError(`cannot mount ${domain}: ${message}`, { cause: error });
  }
}

/**
 * transit: when named explicitly, its own rules hold (TRANSIT_PROVIDERS, default both, and every enabled
 * provider's key is required). Otherwise TRANSIT_PROVIDERS when set, else the providers whose key is present,
 * else transit is skipped.
 */
async function planTransit(request: PlanRequest, explicit: boolean): Promise<DomainDecision> {
  const { env } = request;
  const chosen = env.TRANSIT_PROVIDERS?.trim();
  let transitEnv: Env = env;
  let why: string;
  if (explicit) {
    why = 'named in --domains';
  } else if (chosen) {
    why = `TRANSIT_PROVIDERS=${chosen}`;
  } else {
    const keyed = (Object.keys(PROVIDER_KEYS) as Provider[]).filter((p) => isSet(env, PROVIDER_KEYS[p]));
    if (keyed.length === 0) {
      return {
        name: 'transit',
        mount: false,
        reason:
          `neither ${PROVIDER_KEYS.tfl} (London) nor ${PROVIDER_KEYS.hsl} (Helsinki) is set; ` +
          'set one or both to add the transit tools',
      };
    }
    transitEnv = { ...env, TRANSIT_PROVIDERS: keyed.join(',') };
    why = keyed.map((p) => `${PROVIDER_KEYS[p]} is set`).join(', ');
  }
  const transitDomain = await DECLARATIONS.transit();
  const config = loadFor('transit', () => transitDomain.config(transitEnv));
  const providers = config.providers.map((p) => `${p} (${PROVIDER_PLACES[p]})`).join(' and ');
  const places =
    config.database === undefined
      ? ''
      : `; saved places in PostgreSQL at ${describeDatabase(config.database.url)} (${config.database.variable})`;
  return {
    name: 'transit',
    mount: true,
    reason: `providers ${providers}: ${why}${places}`,
    domain: { domain: transitDomain, config },
  };
}

async function planJourney(request: PlanRequest): Promise<DomainDecision> {
  const journeyDomain = await DECLARATIONS['journey-continuity']();
  const config = loadFor('journey-continuity', () => journeyDomain.config(request.env));
  return {
    name: 'journey-continuity',
    mount: true,
    reason: storageOf(config.database, request.dataDir),
    domain: { domain: journeyDomain, config },
  };
}

async function planLaunchRuns(request: PlanRequest): Promise<DomainDecision> {
  const launchRunsDomain = await DECLARATIONS['launch-runs']();
  const config = loadFor('launch-runs', () => launchRunsDomain.config(request.env));
  return {
    name: 'launch-runs',
    mount: true,
    reason: storageOf(config.database, request.dataDir),
    domain: { domain: launchRunsDomain, config },
  };
}

/** Where a domain keeps its data, as the start-up report names it (never with the URL's password). */
function storageOf(database: PostgresSettings | undefined, dataDir: string): string {
  if (database === undefined) return `embedded SQLite in ${dataDir}`;
  return `PostgreSQL at ${describeDatabase(database.url)} (${database.variable})`;
}

/**
 * Starts loading the packages of the domains that may be mounted, all at once: their file reads overlap,
 * which shortens the start. The planners below await the same (cached) imports; errors surface there.
 */
function prefetchDomainPackages(request: PlanRequest): void {
  const wanted = (name: DomainName): boolean =>
    request.domains === undefined || request.domains.includes(name);
  const ignore = (): void => {};
  const transitPossible =
    request.domains?.includes('transit') === true ||
    isSet(request.env, 'TRANSIT_PROVIDERS') ||
    Object.values(PROVIDER_KEYS).some((key) => isSet(request.env, key));
  if (wanted('transit') && transitPossible) DECLARATIONS.transit().catch(ignore);
  if (wanted('launch-runs')) DECLARATIONS['launch-runs']().catch(ignore);
  if (wanted('journey-continuity')) DECLARATIONS['journey-continuity']().catch(ignore);
}

/**
 * Decides, for every domain, whether it is mounted and why; reads and checks each mounted domain's
 * configuration now, so a wrong variable fails the start before anything is opened.
 */
export async function planDomains(request: PlanRequest): Promise<DomainDecision[]> {
  prefetchDomainPackages(request);
  // The domains' own loaders read the data directory from the environment too: point them at ours.
  const env: Env = { ...request.env, SWITCHYARD_DATA_DIR: request.dataDir };
  const scoped: PlanRequest = { ...request, env };
  const decisions: DomainDecision[] = [];
  for (const name of DOMAIN_NAMES) {
    const named = request.domains?.includes(name);
    if (request.domains !== undefined && !named) {
      decisions.push({ name, mount: false, reason: 'not listed in --domains / SWITCHYARD_DOMAINS' });
      continue;
    }
    switch (name) {
      case 'transit':
        decisions.push(await planTransit(scoped, named === true));
        break;
      case 'launch-runs':
        decisions.push(await planLaunchRuns(scoped));
        break;
      case 'journey-continuity':
        decisions.push(await planJourney(scoped));
        break;
    }
  }
  return decisions;
}

/** The mounts of the domains `decisions` mounts, in order. */
export function mountsOf(decisions: readonly DomainDecision[]): Mount<unknown, DomainLifecycle>[] {
  return decisions.flatMap((decision) => (decision.mount ? [decision.domain] : []));
}

/** The domains `decisions` skips, with why: a call to one of their tools answers it. */
export function unmountedOf(decisions: readonly DomainDecision[]): UnmountedDomain[] {
  return decisions.flatMap((decision) =>
    decision.mount
      ? []
      : [{ name: decision.name, reason: decision.reason, load: DECLARATIONS[decision.name] }],
  );
}
