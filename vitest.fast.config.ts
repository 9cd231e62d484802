import { defineConfig } from 'vitest/config';

// The fast part of the test run (what .ci/run repeats on Node 22): every package and app except the
// minutes-long projects, the hardening suite and the packaging check (vitest.packaging.config.ts).
export default defineConfig({
  test: {
    projects: ['packages/*', '!packages/hardening', 'apps/*'],
  },
});
