import { defineConfig } from 'vitest/config';
import { testWorkers } from './vitest.workers.js';

// The fast part of the test run (what .ci/run repeats on Node 22): every package and app except the
// minutes-long projects, the hardening suite and the packaging check (vitest.packaging.config.ts).
export default defineConfig({
  test: {
    projects: ['packages/*', 'packages/*/vitest.alone.config.ts', '!packages/hardening', 'apps/*'],
    maxWorkers: testWorkers(),
  },
});
