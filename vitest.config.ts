import { defineConfig } from 'vitest/config';

// Every package and app has its own vitest.config.ts; the root runs them all as projects, plus the
// packaging check (every published package packed, installed with npm and started: minutes, not seconds).
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'apps/meta-server/vitest.packaging.config.ts'],
  },
});
