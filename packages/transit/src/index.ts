export { transitDomain } from './domain.js';
export {
  ConfigError,
  DEFAULT_DIGITRANSIT_CALLS_PER_SECOND,
  HSL_REGION_BOUNDS,
  loadConfig,
  type HslConfig,
  type RegionBounds,
  type TflConfig,
  type TransitConfig,
} from './config.js';
export { PROVIDER_KEYS, PROVIDERS, type Provider } from './providers.js';
export type { HslServices, TflServices, TransitState } from './services.js';
export { GRAPHQL_DOCUMENTS } from './hsl/queries.js';
