import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    // Minutes long (npm install of every tarball): its own project, see vitest.packaging.config.ts.
    exclude: ['test/packaging/**', '**/node_modules/**'],
    // Most tests spawn the built bin, which loads every domain: give slow machines room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
