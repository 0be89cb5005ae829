/**
 * Band conditions of inner joins (bind/join-bands.ts, ops/join.ts release, plan/retention.ts): a condition
 * `x >= y + c` with y's side fed by a LATENESS lineage releases the rows of x's side that no future change
 * can meet, as Feldera's JoinFilterMap GC does. Nexmark q7 (bids joined with their window's highest price on
 * `b.date_time BETWEEN top.date_time - 10 s AND top.date_time`) becomes bounded: the same changes as the
 * program with every table materialized (which keeps everything), across a checkpoint, while the state held
 * (counted rows) stops growing with the input; a join of two tables releases its operator's rows of both sides.
 */
import { deserialize, serialize } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, type Circuit, type CircuitStatePart, type CompiledProgram, type InputChange } from '../../src/engine/index.js';
import { bindProgram } from '../../src/engine/bind/program.js';
import type { JoinNode, PlanNode } from '../../src/engine/plan/nodes.js';

const T0 = Date.UTC(2024, 0, 1);
const ts = (ms: number): string => new Date(T0 + ms).toISOString().slice(0, 23).replace('T', ' ');
const m = (materialized: boolean): string => (materialized ? " WITH ('materialized' = 'true')" : '');

const Q7 = (materialized: boolean): string => `
CREATE TABLE bid (auction BIGINT, price BIGINT, date_time TIMESTAMP(3) NOT NULL LATENESS INTERVAL 4 SECONDS)${m(materialized)};
CREATE VIEW q7 AS
SELECT b.auction, b.price, b.date_time
FROM bid AS b
JOIN (SELECT MAX(price) AS maxprice, TUMBLE_END(date_time, INTERVAL '10' SECOND) AS date_time FROM bid GROUP BY TUMBLE(date_time, INTERVAL '10' SECOND)) AS top
ON b.price = top.maxprice
WHERE b.date_time BETWEEN top.date_time - INTERVAL '10' SECOND AND top.date_time;`;

/**
 * q4's join alone, with bids from up to 10 seconds before an auction counted (auction.expires has no LATENESS:
 * only the operator releases auctions).
 */
const WITHIN = (materialized: boolean): string => `
CREATE TABLE auction (id BIGINT, date_time TIMESTAMP(3) NOT NULL LATENESS INTERVAL 4 SECONDS, expires TIMESTAMP(3))${m(materialized)};
CREATE TABLE bid (auction BIGINT, price BIGINT, date_time TIMESTAMP(3) NOT NULL LATENESS INTERVAL 4 SECONDS)${m(materialized)};
CREATE VIEW within AS SELECT A.id, B.price, B.date_time FROM auction A JOIN bid B ON A.id = B.auction
WHERE B.date_time BETWEEN A.date_time - INTERVAL 10 SECONDS AND A.expires;`;

function program(sql: string): CompiledProgram {
  const r = compile(sql);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

function roundTrip(c: Circuit): CircuitStatePart[] {
  const parts: Buffer[] = [];
  c.exportState((p) => parts.push(serialize(p)));
  return parts.map((b) => deserialize(b) as CircuitStatePart);
}

function viewChanges(c: Circuit, step: InputChange[], view: string): string[] {
  return (c.step(step).changes.get(view) ?? []).map((r) => JSON.stringify(r)).sort();
}

/** A random-number source for a seed (a linear congruential generator: the same stream for the same seed). */
function random(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** Bids in time order with jitter (some later than the LATENESS), prices in a small range (ties at the top), now and then a delete. */
function bidSteps(n: number, seed: number): InputChange[][] {
  const rnd = random(seed);
  const steps: InputChange[][] = [];
  const inserted: Array<Record<string, string | number>> = [];
  let clock = 0;
  for (let i = 0; i < n; i++) {
    const step: InputChange[] = [];
    for (let j = 0; j < 10; j++) {
      clock += Math.floor(rnd() * 300);
      if (inserted.length && rnd() < 0.05) {
        step.push({ table: 'bid', op: 'delete', row: inserted.splice(Math.floor(rnd() * inserted.length), 1)[0]! });
        continue;
      }
      const row = { auction: Math.floor(rnd() * 30), price: 100 + Math.floor(rnd() * 20), date_time: ts(clock - Math.floor(rnd() * 6000)) };
      inserted.push(row);
      if (inserted.length > 50) inserted.shift();
      step.push({ table: 'bid', op: 'insert', row });
    }
    steps.push(step);
  }
  return steps;
}

function joinsOf(root: PlanNode): JoinNode[] {
  const out: JoinNode[] = [];
  const visit = (n: PlanNode): void => {
    if (n.kind === 'join') out.push(n);
    n.inputs.forEach(visit);
  };
  visit(root);
  return out;
}

function bandsOf(sql: string): JoinNode['bands'] {
  const { program } = bindProgram(sql, 'upper');
  if (!program) throw new Error('does not bind');
  return joinsOf(program.views[program.views.length - 1]!.node)[0]!.bands;
}

describe('band conditions of inner joins', () => {
  it("Nexmark q7 is bounded: the materialized program's changes across a checkpoint, its state stops growing with the input", () => {
    const bounded = program(Q7(false));
    const reference = program(Q7(true));
    expect(bounded.relation('bid')!.materialized).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.nat(), (seed, cutAt) => {
        const steps = bidSteps(1600, seed);
        let b = bounded.newCircuit();
        const r = reference.newCircuit();
        const cut = cutAt % steps.length;
        const held: number[] = [];
        steps.forEach((s, i) => {
          if (i === cut) b = bounded.restoreCircuit(roundTrip(b));
          const got = viewChanges(b, s, 'Q7');
          const want = viewChanges(r, s, 'Q7');
          if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`step ${i} (restored at ${cut}): ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
          // the state beside the view's own contents (which grow by a row or so a window, as promised)
          if ((i + 1) % 400 === 0) held.push(b.stateSize() - b.contents('q7').length);
        });
        expect(b.contents('q7')).toEqual(r.contents('q7'));
        // 16,000 bids over about 40 minutes of event time: the bounded program holds the last half minute's or so
        // (the table forgets once it holds twice what it kept: circuit.ts forgetBehindWaterlines, from 4,096 rows)
        expect(Math.max(...held)).toBeLessThan(5000);
        expect(r.stateSize() - r.contents('q7').length).toBeGreaterThan(14_000);
        expect(b.contents('bid').length).toBeLessThan(r.contents('bid').length / 4);
      }),
      { numRuns: 2 },
    );
  }, 90_000);

  it('a join of two tables within a time band releases the rows of both sides in its operator, and the table of the side with LATENESS', () => {
    const bounded = program(WITHIN(false));
    const reference = program(WITHIN(true));
    expect(bounded.relation('bid')!.materialized).toBe(false);
    // auctions are released by expires, a column with no LATENESS: the table keeps its rows for a rebuild
    expect(bounded.relation('auction')!.materialized).toBe(true);
    const rnd = random(7);
    let b = bounded.newCircuit();
    const r = reference.newCircuit();
    const unbounded = program(WITHIN(false).replace(/LATENESS INTERVAL 4 SECONDS/g, '')).newCircuit();
    let clock = 0;
    for (let i = 0; i < 3000; i++) {
      const step: InputChange[] = [];
      clock += 100;
      if (i % 10 === 0) step.push({ table: 'auction', op: 'insert', row: { id: i / 10, date_time: ts(clock), expires: ts(clock + 5000 + Math.floor(rnd() * 5000)) } });
      // (some bids come before their auction; a checkpoint is restored every 10 steps around the first time the bid table forgets (4,096 rows): a rebuild from rows forgotten
      // too early would miss them)
      for (let j = 0; j < 3; j++)
        step.push({ table: 'bid', op: 'insert', row: { auction: Math.floor(i / 10) + 2 - Math.floor(rnd() * 5), price: i, date_time: ts(clock - Math.floor(rnd() * 3000)) } });
      if (i % 10 === 5 && i > 1300 && i < 1500) b = bounded.restoreCircuit(roundTrip(b));
      const want = viewChanges(r, step, 'WITHIN');
      expect(viewChanges(b, step, 'WITHIN')).toEqual(want);
      expect(viewChanges(unbounded, step, 'WITHIN')).toEqual(want);
    }
    const operatorRows = (c: Circuit): number => c.stateSize() - c.contents('within').length - c.contents('bid').length - c.contents('auction').length;
    // 300 auctions and 9,000 bids went in; the join holds what the last 10 seconds or so can still meet (without
    // LATENESS, which drops no row of this input, it holds them all)
    expect(operatorRows(unbounded)).toBeGreaterThan(9000);
    expect(operatorRows(b)).toBeLessThan(600);
    expect(b.contents('bid').length).toBeLessThan(r.contents('bid').length / 4);
  }, 90_000);

  it('reads BETWEEN, both orders of a comparison and a constant on either side; not outer joins, expressions or columns without lineage', () => {
    const T = `CREATE TABLE a (k INT, t TIMESTAMP NOT NULL LATENESS INTERVAL 1 SECOND, u TIMESTAMP);
CREATE TABLE b (k INT, t TIMESTAMP NOT NULL LATENESS INTERVAL 1 SECOND, u TIMESTAMP);\n`;
    const view = (join: string, cond: string): string => `${T}CREATE VIEW v AS SELECT a.k FROM a ${join} b ON a.k = b.k AND ${cond};`;
    const W = (table: string, col: number): object => expect.objectContaining({ table, col, slack: 1 });
    expect(bandsOf(view('JOIN', 'a.t BETWEEN b.t - INTERVAL 5 SECONDS AND b.t'))).toEqual([
      { side: 'left', col: 1, other: W('B', 1), offset: -5000 },
      { side: 'right', col: 1, other: W('A', 1), offset: 0 },
    ]);
    expect(bandsOf(view('JOIN', 'b.t + INTERVAL 2 SECONDS < a.u'))).toEqual([{ side: 'left', col: 2, other: W('B', 1), offset: 2000 }]);
    expect(bandsOf(view('JOIN', 'a.u <= b.t - INTERVAL 1 SECOND'))).toBeUndefined(); // b.t's side would be bounded by a.u, which has no lineage
    expect(bandsOf(view('LEFT JOIN', 'a.t >= b.t'))).toBeUndefined();
    expect(bandsOf(view('JOIN', 'a.t >= b.t + (b.u - b.u)'))).toBeUndefined();
  });
});
