import { defineConfig } from 'vitest/config';

/**
 * Tests that hold a request to a CPU or event-loop budget (issue 14: one request must never freeze
 * the process). They run after every other test, one file at a time, so that what they measure is
 * the sandbox's own cost and not the other test files' load on the same cores.
 */
const TIMED = [
  'test/fuzz/**/*.test.ts',
  'test/hardening/assistant-cost.test.ts',
  'test/hardening/path-patterns.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './test/helpers/count-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on sockets, child processes and timers: two at a time on a 2-core machine
    // (vitest's default is one fewer than the cores, so a single file at a time there).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'memory',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: TIMED,
          sequence: { groupOrder: 0 },
        },
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
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: TIMED,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
