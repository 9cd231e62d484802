import { defineConfig } from 'vitest/config';

// Every package and app has its own vitest.config.ts; the root runs them all as projects.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
  },
});
