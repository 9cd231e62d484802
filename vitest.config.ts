import { defineConfig } from 'vitest/config';
import { testWorkers } from './vitest.workers.js';

// Every package and app has its own vitest.config.ts; the root runs them all as projects, plus the
// packaging check (every published package packed, installed with npm and started: minutes, not seconds).
export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'packages/*/vitest.alone.config.ts',
      'apps/*',
      'apps/meta-server/vitest.packaging.config.ts',
    ],
    maxWorkers: testWorkers(),
  },
});
