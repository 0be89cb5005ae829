// NOW() (src/engine/bind/now.ts): the cost of one clock step (NOW() moves one second) over a table of n events
// one second apart, for a last-hour window `ts >= NOW() - INTERVAL 1 HOUR` (in WHERE, and as a COUNT(*) FILTER
// beside an unfiltered COUNT(*), bind/now-aggregates.ts) maintained by the temporal filter
// (ops/temporal-filter.ts: only the rows crossing the window's edge are touched) against the same condition
// OR-ed with FALSE, which the planner leaves to the generic cross join with the clock (every row re-evaluated),
// measured the same way in this run; and the cost of inserting one event into each. The temporal filter's
// tick stays flat as n grows; the join's grows with n.
// BENCH_QUICK=1: 10k and 50k rows instead of 50k and 250k.
import { compile } from '../../dist/engine/index.js';

const QUICK = !!process.env.BENCH_QUICK;
const SIZES = QUICK ? [10_000, 50_000] : [50_000, 250_000];
const T0 = Date.UTC(2024, 0, 1);
const ts = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

function setup(condition, n) {
  const view = condition.startsWith('SELECT') ? condition : `SELECT id FROM e WHERE ${condition}`;
  const r = compile(`CREATE TABLE e (id INT, ts TIMESTAMP); CREATE VIEW v AS ${view};`);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const clock = { now: T0 + n * 1000 };
  const c = r.program.newCircuit({ clock: () => clock.now });
  for (let i = 0; i < n; i += 10_000) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + 10_000); j++) batch.push({ table: 'e', op: 'insert', row: { id: j, ts: ts(T0 + j * 1000) } });
    c.step(batch);
  }
  return { c, clock };
}

/** us per clock step (best of 3 rounds), and us per inserted event. */
function measure(condition, n, ticks) {
  const { c, clock } = setup(condition, n);
  let tick = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < ticks; k++) {
      clock.now += 1000;
      c.step([]);
    }
    tick = Math.min(tick, Number(process.hrtime.bigint() - t0) / 1e3 / ticks);
  }
  const inserts = 2_000;
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < inserts; k++) c.step([{ table: 'e', op: 'insert', row: { id: -k, ts: ts(clock.now - (k % 3600) * 1000) } }]);
  const insert = Number(process.hrtime.bigint() - t0) / 1e3 / inserts;
  return { tick, insert };
}

const CASES = [
  ['WHERE', `ts >= NOW() - INTERVAL 1 HOUR`, `(ts >= NOW() - INTERVAL 1 HOUR) OR FALSE`],
  [
    'COUNT(*) FILTER',
    `SELECT COUNT(*) FILTER (WHERE ts >= NOW() - INTERVAL 1 HOUR) AS c, COUNT(*) AS n FROM e`,
    `SELECT COUNT(*) FILTER (WHERE (ts >= NOW() - INTERVAL 1 HOUR) OR FALSE) AS c, COUNT(*) AS n FROM e`,
  ],
];
console.log('NOW(): a last-hour window over n events 1 s apart; one clock step (+1 s: one event leaves the window), us (best of 3 rounds); one insert, us');
for (const [, temporal, joined] of CASES) {
  measure(temporal, 2_000, 50); // warm-up
  measure(joined, 2_000, 50);
}
for (const [name, temporalSql, joinedSql] of CASES) {
  for (const n of SIZES) {
    const ticks = Math.max(5, Math.floor(2_000_000 / n));
    const base = measure(joinedSql, n, ticks);
    const temporal = measure(temporalSql, n, ticks);
    console.log(
      `  ${name} n=${n}: clock step: generic join ${base.tick.toFixed(1)} us, temporal filter ${temporal.tick.toFixed(1)} us, ratio ${(temporal.tick / base.tick).toPrecision(2)}; insert: join ${base.insert.toFixed(1)} us, temporal ${temporal.insert.toFixed(1)} us, ratio ${(temporal.insert / base.insert).toFixed(2)}`,
    );
  }
}
