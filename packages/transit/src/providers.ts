// The transit providers and the variable that holds each one's key, for transit's configuration and for a
// server that decides whether to mount transit from the keys it finds: the `/providers` subpath loads nothing
// else, so that decision does not load the domain.
export const PROVIDERS = ['tfl', 'hsl'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The variable that holds each provider's key. */
export const PROVIDER_KEYS: Readonly<Record<Provider, string>> = {
  tfl: 'TFL_API_KEY',
  hsl: 'DIGITRANSIT_SUBSCRIPTION_KEY',
};
