/**
 * Two test projects, run one after the other by `npm test` so that they never share a time budget:
 * `unit` (pure functions, parallel files; `npm run test:unit`) and `site` (builds fixture sites with
 * Astro and drives Chromium, one file at a time; `npm run test:site`).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          globalSetup: ['tests/support/temp-root.ts'],
          include: ['tests/unit/**/*.test.ts'],
          // Well above the slowest unit test, so a busy shared machine slows them without failing them.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'site',
          globalSetup: ['tests/support/temp-root.ts'],
          include: ['tests/site/**/*.test.ts'],
          fileParallelism: false,
          // A ceiling against a hung browser or build, not a speed target: a test that opens every page of
          // a fixture site (axe-core, light and dark) took over 120 s on a 2-core machine shared with other builds.
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
