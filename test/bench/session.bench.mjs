// SESSION windows (src/engine/ops/session.ts): the cost of one change (a row inserted, then deleted, in one key
// of n rows) in us, at two sizes, as a ratio against TUMBLE over the same table and changes measured the same
// way in this run (TUMBLE is linear: the figure is the step's own overhead). A change recomputes only the
// sessions within `size` of it, so the ratio stays near 1 and flat as n grows; recomputing the key's sessions
// would grow with n.
// BENCH_QUICK=1: 2k and 20k rows instead of 20k and 200k.
import { compile } from '../../dist/engine/index.js';

const QUICK = !!process.env.BENCH_QUICK;
const SIZES = QUICK ? [2_000, 20_000] : [20_000, 200_000];
const CHANGES = QUICK ? 1_000 : 5_000;
const T0 = Date.UTC(2024, 0, 1);
const ts = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
// rows 45 s apart with a 3-minute gap every 7th row: sessions of 7 rows under a 1-minute size
const at = (i) => T0 + i * 45_000 + Math.floor(i / 7) * 180_000;

function measure(fn, n) {
  const r = compile(`CREATE TABLE t (id INT, at TIMESTAMP); CREATE VIEW v AS SELECT * FROM TABLE(${fn}(TABLE t, DESCRIPTOR(at), INTERVAL '1' MINUTE));`);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const c = r.program.newCircuit();
  for (let i = 0; i < n; i += 10_000) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + 10_000); j++) batch.push({ table: 't', op: 'insert', row: { id: j, at: ts(at(j)) } });
    c.step(batch);
  }
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < CHANGES / 3; k++) {
      const row = { id: -k, at: ts(at(Math.floor((k * 7919) % n)) + 20_000) };
      c.step([{ table: 't', op: 'insert', row }]);
      c.step([{ table: 't', op: 'delete', row }]);
    }
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e3 / ((2 * CHANGES) / 3));
  }
  return best;
}

console.log(`SESSION vs TUMBLE: one row inserted or deleted in a key of n rows (best of 3 rounds of ${Math.floor((2 * CHANGES) / 3)} changes), us per change`);
for (const n of SIZES) for (const fn of ['TUMBLE', 'SESSION']) measure(fn, Math.min(n, 2_000)); // warm-up
for (const n of SIZES) {
  const base = measure('TUMBLE', n);
  const session = measure('SESSION', n);
  console.log(`  n=${n}: TUMBLE ${base.toFixed(1)} us, SESSION ${session.toFixed(1)} us, ratio ${(session / base).toFixed(2)}`);
}
