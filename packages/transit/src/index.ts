export {
  createTransitModule,
  DEFAULT_DIGITRANSIT_CALLS_PER_SECOND,
  type TransitModuleOptions,
} from './module.js';
export {
  ConfigError,
  HSL_REGION_BOUNDS,
  loadConfig,
  PROVIDERS,
  type HslConfig,
  type Provider,
  type RegionBounds,
  type TflConfig,
  type TransitConfig,
} from './config.js';
export { GRAPHQL_DOCUMENTS } from './hsl/queries.js';
