import { defineConfig } from 'vitest/config';

/**
 * Tests that need the machine to themselves, run after every other test, one file at a time:
 * those that hold a request to a CPU or event-loop budget (issue 14: one request must never freeze
 * the process), so that they measure the sandbox's own cost and not the other files' load on the
 * same cores.
 */
const ALONE = [
  'test/fuzz/**/*.test.ts',
  'test/hardening/assistant-cost.test.ts',
  'test/hardening/path-patterns.test.ts',
];

/**
 * Tests that replace a module (`vi.mock`): they need modules of their own. Every other file of a
 * worker shares the worker's loaded modules (`isolate: false`), which saves each file loading and
 * compiling the app again (about 40% of the run).
 */
const OWN_MODULES = ['test/hardening/failed-commit.test.ts', 'test/hardening/money-half-way.test.ts'];

export default defineConfig({
  test: {
    reporters: ['default', './test/helpers/count-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Builds the CLI as it ships (dist/bin.js) from this run's sources, for the tests that start it.
    globalSetup: ['test/helpers/cli-bundle.ts'],
    // Most files wait on sockets, child processes and timers: two at a time on a 2-core machine
    // (vitest's default is one fewer than the cores, so a single file at a time there).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'memory',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: [...ALONE, ...OWN_MODULES],
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'own-modules',
          include: OWN_MODULES,
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
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
