import { defineConfig } from 'vitest/config';

/**
 * Three projects: `unit` (modules, services in-process, commands run in-process against in-process or fake
 * servers), `isolated` (unit tests that need a fresh module graph and stack of their own) and `e2e` (the
 * built binary and `ops serve` processes). `npm test` runs them all; `npx vitest run --project unit` runs the
 * fast part alone.
 */
const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' as const };
/**
 * Files that need a worker of their own: deep-nesting.test.ts compiles SQL nested 200 levels deep, close to
 * the parser's stack limit, which it reaches when a reused worker runs it deeper in the stack. Its worker gets
 * a 3 MB stack, nearer the compiler's own (`ops serve` compiles in worker threads with a 4 MB stack): on the
 * default ~1 MB, the parser's WebAssembly frames overflowed it now and then on a busy machine (before the
 * code is optimized its frames are bigger).
 */
const ISOLATED = ['test/engine/deep-nesting.test.ts'];

export default defineConfig({
  test: {
    // Most test files wait on sockets, workers and child processes rather than compute: four at once on two
    // cores took the suite from 274 s to 155 s (1,517 tests) with every test passing.
    maxWorkers: 4,
    projects: [
      // Test files share their worker's module graph (`isolate: false`): loading the modules again for each of
      // ~180 files was a third of the suite's time (2,042 tests: 215 s -> 163 s on 2 cores). Each file still
      // builds its own servers, directories and state; no test relies on a module being fresh except ISOLATED.
      { test: { ...shared, isolate: false, name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**', 'test/bench/**', 'node_modules/**', ...ISOLATED] } },
      { test: { ...shared, name: 'isolated', include: ISOLATED, execArgv: ['--stack-size=3000'] } },
      { test: { ...shared, name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
    ],
  },
});
