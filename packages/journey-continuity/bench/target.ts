import type { JourneyConfig } from '../src/config.js';
import type { JourneyService } from '../src/journeys/journey-service.js';

export const BENCH_DIALECTS = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;
export type BenchDialect = keyof typeof BENCH_DIALECTS;

/** A store holding the corpus: what the journey domain needs to use it, and the floor over it. */
export interface BenchTarget {
  dialect: BenchDialect;
  /** The journey configuration that points the domain at this store. */
  storage: Partial<JourneyConfig>;
  /** The same domain calls without MCP. */
  floor: JourneyService;
  close(): Promise<void>;
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
