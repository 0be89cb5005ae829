// Retractable aggregates (src/engine/ops/accs/): the cost of one change (a row deleted and another inserted in
// the same group) for each aggregate, in us, at two group sizes, as a ratio against COUNT(*) measured the same
// way in this run. A retractable aggregate keeps that ratio small and roughly flat as groups grow; an aggregate
// that re-scanned its group would grow with the group size. ARRAY_AGG's result is an array of the group's n
// values, so emitting the changed row costs O(n) whatever the state: its figure grows with n by design.
// BENCH_QUICK=1: 1k and 10k rows per group instead of 10k and 100k.
import { compile } from '../../dist/engine/index.js';

const QUICK = !!process.env.BENCH_QUICK;
const SIZES = QUICK ? [1_000, 10_000] : [10_000, 100_000];
const CHANGES = QUICK ? 2_000 : 10_000;
const AGGS = {
  'COUNT(*)': 'COUNT(*)',
  ARG_MAX: 'ARG_MAX(s, v)',
  ARRAY_AGG: 'ARRAY_AGG(v)',
  'ARRAY_AGG ORDER BY': 'ARRAY_AGG(s ORDER BY v)',
  BIT_OR: 'BIT_OR(v)',
  STDDEV_SAMP: 'STDDEV_SAMP(v)',
  COVAR_POP: 'COVAR_POP(x, v)',
  MODE: 'MODE(v)',
  COUNTIF: 'COUNTIF(v > 500)',
};

let seed = 7;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const row = (id) => ({ id, g: id % 2, v: Math.floor(rnd() * 1000), x: rnd(), s: 's' + Math.floor(rnd() * 100) });

function measure(expr, n) {
  const r = compile(`CREATE TABLE t (id INT NOT NULL PRIMARY KEY, g INT, v INT, x DOUBLE, s VARCHAR); CREATE VIEW a AS SELECT g, ${expr} AS r FROM t GROUP BY g;`);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const c = r.program.newCircuit();
  const rows = [];
  for (let i = 0; i < 2 * n; i += 10_000) {
    const batch = [];
    for (let j = i; j < Math.min(2 * n, i + 10_000); j++) {
      rows.push(row(j));
      batch.push({ table: 't', op: 'insert', row: rows[j] });
    }
    c.step(batch);
  }
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < CHANGES / 3; k++) {
      const id = Math.floor(rnd() * 2 * n);
      const fresh = { ...row(id), g: rows[id].g };
      c.step([{ table: 't', op: 'upsert', row: fresh }]);
      rows[id] = fresh;
    }
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e3 / (CHANGES / 3));
  }
  return best;
}

console.log(`retractable aggregates: one row replaced in a group of n rows (best of 3 rounds of ${Math.floor(CHANGES / 3)}), us per change`);
// warm-up (JIT) at every size, so that the COUNT(*) baseline measured first is not penalised
for (const n of SIZES) for (const expr of Object.values(AGGS)) measure(expr, Math.min(n, 2_000));
const base = {};
for (const [name, expr] of Object.entries(AGGS)) {
  const us = SIZES.map((n) => measure(expr, n));
  if (name === 'COUNT(*)') SIZES.forEach((n, i) => (base[n] = us[i]));
  const cells = SIZES.map((n, i) => `${us[i].toFixed(1).padStart(7)} us (${(us[i] / base[n]).toFixed(1)}x COUNT) at ${n}`);
  console.log(`  ${name.padEnd(20)} ${cells.join('   ')}   growth ${(us[1] / us[0]).toFixed(2)}x for ${SIZES[1] / SIZES[0]}x rows`);
}
