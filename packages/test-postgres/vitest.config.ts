import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'test-postgres',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
