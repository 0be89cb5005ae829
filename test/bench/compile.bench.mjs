// SQL compile time as a program grows: N chained views (`CREATE VIEW v_i AS SELECT x + 1 AS x FROM v_{i-1}`)
// against N/2 of them in the same run. Linear work reads 2x; a compile that parses each statement after the
// whole text before it (how statements were put at their place until this session) read ~3.3x at 2,000
// (0.65 s for 250, 3.3 s for 1,000, 11 s for 2,000 views). Each figure is the best of ROUNDS compiles.
// Imports the built code (npm run bench builds it).
import { compileProgram } from '../../dist/services/pipelines/worker/compiler.js';

const QUICK = !!process.env.BENCH_QUICK;
const N = QUICK ? 500 : 2000;
const ROUNDS = 3;

function chained(n) {
  const parts = ['CREATE TABLE t (x INT);', 'CREATE VIEW v0 AS SELECT x FROM t;'];
  for (let i = 1; i < n; i++) parts.push(`CREATE VIEW v${i} AS SELECT x + 1 AS x FROM v${i - 1};`);
  return parts.join('\n');
}

function best(sql) {
  let ms = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    const out = compileProgram(sql, 'upper');
    ms = Math.min(ms, performance.now() - t0);
    if (!out.ok) throw new Error('the program did not compile');
  }
  return ms;
}

best(chained(50)); // warm up the parser and the JIT
const half = best(chained(N / 2));
const full = best(chained(N));
console.log(`compile ${N / 2} chained views  ${half.toFixed(0).padStart(6)} ms  (baseline)`);
console.log(`compile ${N} chained views  ${full.toFixed(0).padStart(6)} ms  ${(full / half).toFixed(2)}x the baseline (linear: 2x)`);
