import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './test/helpers/count-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'memory', include: ['test/**/*.test.ts', 'src/**/*.test.ts'] },
      },
      {
        // The money and catalog suites again on the store a sandbox ships with: a file store,
        // checked after each test against what the sandbox holds (test/helpers/file-store-check.ts).
        extends: true,
        test: {
          name: 'file-store',
          include: ['test/money/**/*.test.ts', 'test/catalog/**/*.test.ts'],
          exclude: ['**/*.browser.test.ts'],
          env: { SANDBOX_TEST_STORE: 'file' },
          setupFiles: ['test/helpers/file-store-setup.ts'],
        },
      },
    ],
  },
});
