import { defineConfig } from 'vitest/config';

// The packaging check installs every published package from its tarball with npm: minutes, not seconds.
// The root test run includes it as a project; alone: `pnpm --filter @switchyard/server test:packaging`.
export default defineConfig({
  test: {
    name: 'server-packaging',
    include: ['test/packaging/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 15 * 60_000,
  },
});
