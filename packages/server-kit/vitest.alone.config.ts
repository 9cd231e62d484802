import { defineConfig } from 'vitest/config';

// Test files that measure a process's own memory or timing (`*.alone.test.ts`) run one at a time and with no
// other file beside them: a project whose maxWorkers is 1 is a group vitest runs by itself. Under a second busy
// file, V8 13 (Node 24) grew the young generation a step past SWITCHYARD_MAX_YOUNG_GENERATION_MB before the
// growth stop was read (5.75 MiB against 4, 2 runs in 6 with CPU hogs beside it).
export default defineConfig({
  test: {
    name: 'server-kit-alone',
    include: ['test/**/*.alone.test.ts'],
    maxWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
