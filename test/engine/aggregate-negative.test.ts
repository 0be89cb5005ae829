/**
 * A table's Z-set may hold a row with a negative weight (a delete of a row that never came). An aggregate's
 * group whose count falls to 0 so, while its rows do not cancel, keeps its sums: after every step each group's
 * COUNT, SUM (INTEGER, DECIMAL), AVG and MAX equal what the table's rows give, weights counted, and a group
 * whose rows all cancelled is gone (its state too: the aggregate does not grow with groups that came and went).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, type InputChange } from '../../src/engine/index.js';
import { AggregateOp, CountAcc } from '../../src/engine/ops/aggregate.js';
import { SumIntAcc } from '../../src/engine/ops/accs/int-sum.js';

const SQL = `CREATE TABLE t (k INT, v INT, d DECIMAL(10, 2));
CREATE VIEW g AS SELECT k, COUNT(*) AS n, SUM(v) AS s, SUM(d) AS sd, MAX(v) AS mx FROM t GROUP BY k;`;

function program() {
  const r = compile(SQL);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

/** The view as the table's rows give it: groups whose count is positive. */
function expected(rows: Array<{ row: Record<string, unknown>; weight: number }>): string[] {
  const groups = new Map<number, { n: number; s: number; sd: number; vals: Map<number, number> }>();
  for (const { row, weight } of rows) {
    const k = row.K as number;
    const g = groups.get(k) ?? { n: 0, s: 0, sd: 0, vals: new Map() };
    g.n += weight;
    g.s += (row.V as number) * weight;
    g.sd += Math.round(Number(row.D) * 100) * weight;
    g.vals.set(row.V as number, (g.vals.get(row.V as number) ?? 0) + weight);
    groups.set(k, g);
  }
  const out: string[] = [];
  for (const [k, g] of groups) {
    if (g.n <= 0) continue;
    const live = [...g.vals].filter(([, c]) => c > 0).map(([v]) => v);
    out.push(JSON.stringify({ K: k, N: g.n, S: g.s, SD: (g.sd / 100).toFixed(2), MX: live.length ? Math.max(...live) : null }));
  }
  return out.sort();
}

const view = (rows: Array<{ row: Record<string, unknown> }>): string[] => rows.map(({ row }) => JSON.stringify({ K: row.K, N: row.N, S: row.S, SD: Number(row.SD).toFixed(2), MX: row.MX })).sort();

describe('aggregates over rows with negative weights', () => {
  it('a group whose count falls to 0 through a row deleted before it came keeps its sums', () => {
    const c = program().newCircuit();
    c.step([
      { table: 't', op: 'delete', row: { k: 1, v: 360, d: '1.00' } },
      { table: 't', op: 'insert', row: { k: 1, v: 571, d: '2.50' } },
    ]);
    expect(c.contents('g')).toEqual([]); // count 0: no row
    c.step([{ table: 't', op: 'insert', row: { k: 1, v: 10, d: '0.25' } }]);
    expect(view(c.contents('g'))).toEqual(expected(c.contents('t')));
    expect(c.contents('g')[0]!.row).toMatchObject({ N: 1, S: 221 });
  });

  it('after every step of random inserts and deletes (of rows that may never have come) the view is what the rows give', () => {
    const change = fc.record({ k: fc.integer({ min: 0, max: 3 }), v: fc.integer({ min: 0, max: 9 }), c: fc.integer({ min: 0, max: 3 }), del: fc.boolean() });
    fc.assert(
      fc.property(fc.array(fc.array(change, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 20 }), (steps) => {
        const c = program().newCircuit();
        for (const s of steps) {
          c.step(s.map(({ k, v, c: cents, del }): InputChange => ({ table: 't', op: del ? 'delete' : 'insert', row: { k, v, d: `${v}.${cents}0` } })));
          expect(view(c.contents('g'))).toEqual(expected(c.contents('t')));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('groups whose rows all cancelled leave no state behind; a group whose count is 0 but whose sum is not stays', () => {
    const op = new AggregateOp(
      [(row) => row[0]!],
      [
        { make: () => new CountAcc(), distinct: false, ignoreNulls: false },
        { make: () => new SumIntAcc('INTEGER', { expression: 'SUM(v)', type: 'INTEGER' } as never), arg: (row) => row[1]!, distinct: false, ignoreNulls: true },
      ],
      false,
    );
    for (let k = 0; k < 500; k++) {
      op.step([[[[k, k], 1]]]);
      op.step([[[[k, k], -1]]]);
    }
    expect(op.stateSize()).toBe(0);
    op.step([
      [
        [[1, 360], -1],
        [[1, 571], 1],
      ],
    ]);
    expect(op.stateSize()).toBe(1);
    expect(op.step([[[[1, 10], 1]]])).toEqual([[[1, 1, 221], 1]]);
  });
});
