/**
 * Join planning of comma lists (bind/from.ts): single-table conditions filter below the joins, tables are
 * joined along equalities (no cross product while a join key exists), the row keeps FROM order; read
 * through the EXPLAIN-like text of plan/explain.ts. Results are checked against a full evaluation.
 */
import { describe, expect, it } from 'vitest';
import { bindProgram } from '../../src/engine/bind/program.js';
import { explain } from '../../src/engine/plan/explain.js';
import { compile } from '../../src/engine/index.js';

function planOf(sql: string, view: string): string {
  const { program, errors } = bindProgram(sql, 'upper');
  if (!program) throw new Error(JSON.stringify(errors));
  return explain(program.views.find((v) => v.name === view)!.node);
}

const T3 = 'CREATE TABLE t1 (a1 INT, b1 INT); CREATE TABLE t2 (a2 INT, b2 INT); CREATE TABLE t3 (a3 INT, b3 INT);';

describe('join planning', () => {
  it('joins along the equalities whatever the FROM order (no cross product)', () => {
    const plan = planOf(T3 + 'CREATE VIEW v AS SELECT * FROM t1, t2, t3 WHERE a1 = b3 AND a3 = b2;', 'V');
    expect(plan).not.toMatch(/CROSS/);
    expect(plan.match(/join INNER on 1 key/g)).toHaveLength(2);
    // the row is back in FROM order
    expect(plan.split('\n')[0]).toMatch(/\[A1, B1, A2, B2, A3, B3\]$/);
  });

  it('pushes single-table conditions below the join', () => {
    const plan = planOf(T3 + 'CREATE VIEW v AS SELECT * FROM t1, t2 WHERE a1 = 5 AND b2 = 7;', 'V');
    const lines = plan.split('\n');
    const join = lines.findIndex((l) => /join CROSS/.test(l));
    expect(join).toBeGreaterThanOrEqual(0);
    // both inputs of the cross join are filters over the tables
    const indent = (l: string): number => l.length - l.trimStart().length;
    const inputs = lines.slice(join + 1).filter((l) => indent(l) === indent(lines[join]!) + 2);
    expect(inputs.map((l) => l.trim().split(' ')[1])).toEqual(['filter', 'filter']);
    expect(lines.some((l, i) => i < join && /filter/.test(l))).toBe(false);
  });

  it('gives the rows of the full evaluation under inserts, deletes and re-inserts', () => {
    const r = compile(T3 + 'CREATE VIEW v AS SELECT a1, b1, a2, b2, a3, b3 FROM t1, t2, t3 WHERE a1 = b3 AND a3 = b2 AND b1 > 0;');
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    const rows: Record<string, Array<[number, number]>> = { t1: [], t2: [], t3: [] };
    let seed = 7;
    const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let step = 0; step < 60; step++) {
      const changes = [];
      for (let j = 0; j < 4; j++) {
        const t = ['t1', 't2', 't3'][rnd(3)]!;
        const list = rows[t]!;
        if (list.length && rnd(3) === 0) {
          const [row] = list.splice(rnd(list.length), 1);
          changes.push({ table: t, op: 'delete' as const, row: row! as never });
        } else {
          const row: [number, number] = [rnd(4), rnd(4) - 1];
          list.push(row);
          changes.push({ table: t, op: 'insert' as const, row: row as never });
        }
      }
      c.step(changes);
      const want: string[] = [];
      for (const [a1, b1] of rows.t1!) for (const [a2, b2] of rows.t2!) for (const [a3, b3] of rows.t3!) if (a1 === b3 && a3 === b2 && b1 > 0) want.push(JSON.stringify([a1, b1, a2, b2, a3, b3]));
      const got = c.contents('v').flatMap(({ row, weight }) => Array.from({ length: weight }, () => JSON.stringify([row.A1, row.B1, row.A2, row.B2, row.A3, row.B3])));
      expect(got.sort()).toEqual(want.sort());
    }
  });

  it('compiles and runs a 12-table comma join along a chain of keys', () => {
    const n = 12;
    const tables = Array.from({ length: n }, (_, i) => `CREATE TABLE c${i} (k INT, nxt INT, v INT);`).join('\n');
    // FROM with the even tables first (no two neighbours adjacent), conditions scrambled: the plan still follows the keys
    const from = [...Array.from({ length: n / 2 }, (_, i) => `c${2 * i}`), ...Array.from({ length: n / 2 }, (_, i) => `c${2 * i + 1}`)].join(', ');
    const where = Array.from({ length: n - 1 }, (_, i) => `c${(i * 5) % (n - 1)}.nxt = c${((i * 5) % (n - 1)) + 1}.k`).join(' AND ');
    const sql = `${tables}\nCREATE VIEW v AS SELECT c0.v AS first, c${n - 1}.v AS last FROM ${from} WHERE ${where};`;
    const plan = planOf(sql, 'V');
    expect(plan).not.toMatch(/CROSS/);
    const r = compile(sql);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    // 200 rows per table, one chain through key 7 from c0 to c11
    const changes = [];
    for (let i = 0; i < n; i++) for (let k = 0; k < 200; k++) changes.push({ table: `c${i}`, op: 'insert' as const, row: { k, nxt: k === 7 ? 7 : k + 1000, v: i * 1000 + k } });
    c.step(changes);
    expect(c.contents('v')).toEqual([{ row: { FIRST: 7, LAST: 11007 }, weight: 1 }]);
    const r2 = c.step([{ table: 'c5', op: 'delete', row: { k: 7, nxt: 7, v: 5007 } }]);
    expect(r2.changes.get('V')).toEqual([{ row: { FIRST: 7, LAST: 11007 }, weight: -1 }]);
  });
});
