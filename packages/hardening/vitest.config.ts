import { defineConfig } from 'vitest/config';

// The fast part of the hardening suite: runs inside `pnpm test` (about a minute on 2 cores).
// `pnpm hardening` runs vitest.full.config.ts: the same suites at full size, plus the memory soak.
export default defineConfig({
  test: {
    name: 'hardening',
    include: ['test/**/*.test.ts'],
    exclude: ['test/full/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
