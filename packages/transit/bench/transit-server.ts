// The transit server as bin.ts runs it (config from the environment, runServer over stdio), except that the
// local Digitransit limiter (10 calls/s by default, not an environment setting) is lifted: the benchmark
// measures the tools, not the limiter. PLAN_JOURNEY_TPS is lifted through its environment variable.
import { createLogger, resolveDataDir, runServer } from '@switchyard/server-kit';
import { createTransitModule, loadConfig } from '../src/index.js';

const logger = createLogger({ level: 'warn' });
const dataDir = resolveDataDir();
const transit = createTransitModule(loadConfig(), { dataDir, logger, digitransitCallsPerSecond: 1_000_000 });
await runServer([transit], { name: 'switchyard-transit', version: transit.version, dataDir, logger });
