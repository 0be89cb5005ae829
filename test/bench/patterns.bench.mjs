// Pattern matching in views (RE2 through re2js, src/engine/bind/fns/regex.ts). Every figure is a ratio against
// a baseline measured in this run:
//  1. rows/s of a filter view with LIKE (plain-string shapes and a general pattern), ILIKE and RLIKE, each
//     against the same view filtering by equality (the cost of the pattern itself);
//  2. the catastrophic pattern '(a+)+$' against a text of N letters and '!' vs a linear pattern ('a+$') on the
//     same text (target: near 1x: RE2 is linear whatever the pattern; JavaScript's RegExp took minutes at 31).
// BENCH_QUICK=1: fewer rows.
import { compile } from '../../dist/engine/index.js';

const QUICK = !!process.env.BENCH_QUICK;
const ROWS = QUICK ? 50_000 : 200_000;
const fmt = (x, d = 1) => x.toFixed(d);

function rate(where) {
  const r = compile(`CREATE TABLE t (id INT, name VARCHAR); CREATE VIEW v AS SELECT id FROM t WHERE ${where};`);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const batch = [];
  for (let i = 0; i < ROWS; i++) batch.push({ table: 'T', op: 'insert', row: { ID: i, NAME: `customer-${i}-${(i * 7919) % 1000}-name` } });
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const circuit = r.program.newCircuit();
    const t0 = process.hrtime.bigint();
    circuit.step(batch);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return ROWS / best;
}

const VIEWS = [
  ['LIKE prefix', "name LIKE 'customer-1999%'"],
  ['LIKE infix', "name LIKE '%-99-%'"],
  ['LIKE general', "name LIKE 'c%-9_-%e'"],
  ['ILIKE', "name ILIKE '%CUSTOMER-9%'"],
  ['RLIKE', "name RLIKE '-9[0-9]-'"],
];
for (const [, where] of [['', "name = 'x'"], ...VIEWS]) rate(where); // warm-up: every code path compiled by V8 first
console.log(`patterns: a filter view over ${ROWS} rows, best of 5 steps (after a warm-up of every view)`);
const base = rate("name = 'customer-1-7919-name'");
console.log(`  baseline  name = '...'            ${fmt(base / 1e6, 2)} M rows/s`);
for (const [label, where] of VIEWS) {
  const r = rate(where);
  console.log(`  ${label.padEnd(13)} ${where.padEnd(28)} ${fmt(r / 1e6, 2)} M rows/s = ${fmt(base / r, 2)}x the baseline's time`);
}

const N = QUICK ? 100_000 : 1_000_000;
function timeOf(pattern) {
  const r = compile(`CREATE TABLE t (s VARCHAR); CREATE VIEW v AS SELECT REGEXP_REPLACE(s, '${pattern}', 'b') AS r FROM t;`);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const row = { S: 'a'.repeat(N) + '!' };
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = process.hrtime.bigint();
    r.program.newCircuit().step([{ table: 'T', op: 'insert', row }]);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return best;
}
const linear = timeOf('a+$');
const evil = timeOf('(a+)+$');
console.log(`  '(a+)+$' over ${N} letters and '!': ${fmt(evil, 1)} ms vs 'a+$' ${fmt(linear, 1)} ms = ${fmt(evil / linear, 2)}x (target near 1x: ${evil / linear < 4 ? 'met' : 'NOT met'})`);
