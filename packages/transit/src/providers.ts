// The transit providers and the variable that holds each one's key, for transit's configuration and for a
// server that decides whether to mount transit from the keys it finds: the `/providers` subpath loads nothing
// else, so that decision does not load the domain.
import type { AutoMount, Env } from '@switchyard/server-kit';

export const PROVIDERS = ['tfl', 'hsl'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The variable that holds each provider's key. */
export const PROVIDER_KEYS: Readonly<Record<Provider, string>> = {
  tfl: 'TFL_API_KEY',
  hsl: 'DIGITRANSIT_SUBSCRIPTION_KEY',
};

/** The city each provider serves, as messages name it. */
export const PROVIDER_PLACES: Readonly<Record<Provider, string>> = { tfl: 'London', hsl: 'Helsinki' };

function isSet(env: Env, name: string): boolean {
  const value = env[name];
  return value !== undefined && value.trim() !== '';
}

/**
 * How transit mounts in a server of several domains. Named explicitly, its own rules hold (TRANSIT_PROVIDERS,
 * default both, and every enabled provider's key is required). Otherwise TRANSIT_PROVIDERS when set, else the
 * providers whose key is present, else transit is skipped.
 */
export const autoMountTransit: AutoMount = (env, named) => {
  const chosen = env.TRANSIT_PROVIDERS?.trim();
  if (named) return { mount: true, env, why: 'named in --domains' };
  if (chosen) return { mount: true, env, why: `TRANSIT_PROVIDERS=${chosen}` };
  const keyed = PROVIDERS.filter((provider) => isSet(env, PROVIDER_KEYS[provider]));
  if (keyed.length === 0) {
    return {
      mount: false,
      reason:
        `neither ${PROVIDER_KEYS.tfl} (${PROVIDER_PLACES.tfl}) nor ${PROVIDER_KEYS.hsl} (${PROVIDER_PLACES.hsl}) ` +
        'is set; set one or both to add the transit tools',
    };
  }
  return {
    mount: true,
    env: { ...env, TRANSIT_PROVIDERS: keyed.join(',') },
    why: keyed.map((provider) => `${PROVIDER_KEYS[provider]} is set`).join(', '),
  };
};
