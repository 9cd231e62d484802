import { defineConfig } from 'vitest/config';

// `pnpm hardening`: every suite at full size (HARDENING_PROFILE=full), plus the 10,000-call memory soak.
// Files run one at a time so that load, soak and kill trials do not measure each other.
export default defineConfig({
  test: {
    name: 'hardening-full',
    include: ['test/**/*.test.ts'],
    env: { HARDENING_PROFILE: 'full' },
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
