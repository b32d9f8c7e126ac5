import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/setup.ts'],
    // Generous: a test waits for an outcome, and a loaded machine (2 cores) may take long to reach it.
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: 'forks',
  },
});
