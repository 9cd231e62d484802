export { transitDomain } from './domain.js';
export {
  ConfigError,
  DEFAULT_DIGITRANSIT_CALLS_PER_SECOND,
  HSL_REGION_BOUNDS,
  loadConfig,
  PROVIDERS,
  type HslConfig,
  type Provider,
  type RegionBounds,
  type TflConfig,
  type TransitConfig,
} from './config.js';
export type { HslServices, TflServices, TransitState } from './services.js';
export { GRAPHQL_DOCUMENTS } from './hsl/queries.js';
