import {
  mountWhenWanted,
  type AutoMount,
  type Domain,
  type DomainLifecycle,
  type Mount,
  type MountDecision,
  type UnmountedDomain,
} from '@switchyard/server-kit';
import { autoMountTransit } from '@switchyard/transit/providers';
import type { Env } from './cli.js';
import { DOMAIN_NAMES, SettingsError, type DomainName } from './settings.js';

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

/** A built-in domain: how it mounts (its own rule, or mounted whenever wanted), and its package. */
interface BuiltInDomain {
  autoMount?: AutoMount;
  /** Loaded only when the domain is mounted, or when a call names one of its tools and the server says why it is off. */
  load(): Promise<Domain<unknown, DomainLifecycle>>;
}

/** The built-in domains, in the order they mount. Adding one is a line here and its name in settings.ts. */
const DOMAINS: Record<DomainName, BuiltInDomain> = {
  transit: {
    autoMount: autoMountTransit,
    load: () => import('@switchyard/transit').then((m) => m.transitDomain),
  },
  'launch-runs': {
    load: () => import('@switchyard/launch-runs').then((m) => m.launchRunsDomain),
  },
  'journey-continuity': {
    load: () => import('@switchyard/journey-continuity').then((m) => m.journeyDomain),
  },
};

/** Whether `name` is mounted: left out when --domains does not list it, else the domain's own rule. */
function decide(name: DomainName, request: PlanRequest, env: Env): MountDecision {
  const named = request.domains?.includes(name) === true;
  if (request.domains !== undefined && !named) {
    return { mount: false, reason: 'not listed in --domains / SWITCHYARD_DOMAINS' };
  }
  return (DOMAINS[name].autoMount ?? mountWhenWanted)(env, named);
}

/**
 * Whether `name` is mounted and why. A mounted domain's configuration is read and checked now, with its own
 * loader, so that a wrong variable fails the start before anything is opened.
 */
async function planDomain(name: DomainName, request: PlanRequest, env: Env): Promise<DomainDecision> {
  const decision = decide(name, request, env);
  if (!decision.mount) return { name, mount: false, reason: decision.reason };
  const domain = await DOMAINS[name].load();
  try {
    const config = domain.config(decision.env);
    const reason = domain.describe?.(config, request.dataDir, decision.why) ?? decision.why ?? 'mounted';
    return { name, mount: true, reason, domain: { domain, config } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SettingsError(`cannot mount ${name}: ${message}`, { cause: error });
  }
}

/**
 * Every domain's decision, in order. The mounted domains' packages load all at once (their file reads overlap,
 * which shortens the start); the decisions are awaited in order, so the first domain that fails is the one reported.
 */
export async function planDomains(request: PlanRequest): Promise<DomainDecision[]> {
  // The domains' own loaders read the data directory from the environment too: point them at ours.
  const env: Env = { ...request.env, SWITCHYARD_DATA_DIR: request.dataDir };
  const planning = DOMAIN_NAMES.map((name) => planDomain(name, request, env));
  for (const plan of planning) plan.catch(() => {}); // awaited below; a later one's error is not the one reported
  const decisions: DomainDecision[] = [];
  for (const plan of planning) decisions.push(await plan);
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
      : [{ name: decision.name, reason: decision.reason, load: DOMAINS[decision.name].load }],
  );
}
