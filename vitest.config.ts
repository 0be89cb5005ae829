import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (modules, services in-process, commands run in-process against in-process or fake
 * servers) and `e2e` (the built binary and `ops serve` processes). `npm test` runs both;
 * `npx vitest run --project unit` runs the fast part alone.
 */
const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' as const };

export default defineConfig({
  test: {
    // Most test files wait on sockets, workers and child processes rather than compute: four at once on two
    // cores took the suite from 274 s to 155 s (1,517 tests) with every test passing.
    maxWorkers: 4,
    projects: [
      { test: { ...shared, name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**', 'test/bench/**', 'node_modules/**'] } },
      { test: { ...shared, name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
    ],
  },
});
