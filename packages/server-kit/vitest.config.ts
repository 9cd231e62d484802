import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server-kit',
    include: ['test/**/*.test.ts'],
    // Files that measure the process itself run by themselves: vitest.alone.config.ts.
    exclude: ['test/**/*.alone.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
