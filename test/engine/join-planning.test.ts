/**
 * Join planning of comma lists and explicit INNER/CROSS JOIN chains (bind/from.ts, bind/join-order.ts):
 * single-table conditions filter below the joins, tables are joined along equalities (no cross product
 * while a join key exists), the row keeps FROM order, nothing moves across an outer join in a way that
 * changes rows; read through the EXPLAIN-like text of plan/explain.ts. Results are checked against a full
 * evaluation (and against Postgres in the differential corpus, test/engine/corpus-joins.ts).
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/index.js';
import { inputsOf, planLines, planOf } from '../helpers/plan.js';

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

const C5 = Array.from({ length: 5 }, (_, i) => `CREATE TABLE c${i} (k INT, nxt INT, v INT);`).join('\n');
/** A chain c0 - c1 - c2 - c3 - c4 (c_i.nxt = c_{i+1}.k) written with the ends first: as written, two cross products. */
const BAD_CHAIN = 'FROM c0 JOIN c2 ON c2.v >= 0 JOIN c4 ON c4.v >= 0 JOIN c1 ON c0.nxt = c1.k AND c1.nxt = c2.k JOIN c3 ON c2.nxt = c3.k AND c3.nxt = c4.k';

describe('join planning of explicit JOIN chains', () => {
  it('joins a chain written with its cross products first along its ON keys, single-table ON conditions below', () => {
    const plan = planOf(`${C5}\nCREATE VIEW v AS SELECT * ${BAD_CHAIN};`, 'V');
    expect(plan).not.toMatch(/CROSS/);
    expect(plan.match(/join INNER on 1 key \[/g)).toHaveLength(4);
    const nodes = planLines(plan);
    // c2.v >= 0 and c4.v >= 0 filter their tables directly
    const filtered = nodes.filter((n) => n.kind === 'filter').map((n) => inputsOf(nodes, nodes.indexOf(n)).map((i) => i.detail));
    expect(filtered.sort()).toEqual([['C2'], ['C4']]);
    // the row is back in written order: c0, c2, c4, c1, c3
    expect(plan.split('\n')[0]).toMatch(/\[K, NXT, V, K, NXT, V, K, NXT, V, K, NXT, V, K, NXT, V\]$/);
  });

  it('takes join keys from WHERE as well as from ON', () => {
    const plan = planOf(T3 + 'CREATE VIEW v AS SELECT * FROM t1 CROSS JOIN t2 JOIN t3 ON b3 > 0 WHERE a1 = b3 AND a3 = b2 AND b1 = 4;', 'V');
    expect(plan).not.toMatch(/CROSS/);
    expect(plan.match(/join INNER on 1 key \[/g)).toHaveLength(2);
    expect(planLines(plan).filter((n) => n.kind === 'filter')).toHaveLength(2); // b3 > 0 over t3, b1 = 4 over t1
  });

  it('pushes WHERE conditions below inner joins, never below an outer join', () => {
    const plan = planOf(T3 + 'CREATE VIEW v AS SELECT * FROM t1 LEFT JOIN t2 ON a1 = a2 JOIN t3 ON a3 = b1 WHERE b2 = 7 AND b3 = 1;', 'V');
    const nodes = planLines(plan);
    const left = nodes.findIndex((n) => n.kind === 'join' && n.detail.startsWith('LEFT'));
    // b2 = 7 reads the optional side of the LEFT join: it filters the join's rows, not t2
    const above = nodes.findIndex((n, i) => i < left && n.kind === 'filter' && inputsOf(nodes, i).some((x) => x.id === nodes[left]!.id));
    expect(above).toBeGreaterThanOrEqual(0);
    expect(inputsOf(nodes, left).map((n) => n.kind)).toEqual(['table', 'table']);
    // b3 = 1 filters t3
    const t3 = nodes.find((n) => n.kind === 'filter' && inputsOf(nodes, nodes.indexOf(n))[0]?.detail === 'T3');
    expect(t3).toBeDefined();
  });

  it('pushes a WHERE condition on the kept side of an outer join below it', () => {
    const plan = planOf(T3 + 'CREATE VIEW v AS SELECT * FROM t1 LEFT JOIN t2 ON a1 = a2 JOIN t3 ON a3 = b1 WHERE b1 = 7 AND b2 IS NULL;', 'V');
    const nodes = planLines(plan);
    const left = nodes.findIndex((n) => n.kind === 'join' && n.detail.startsWith('LEFT'));
    // b1 = 7 reads the kept side: it filters t1 below the LEFT join; b2 IS NULL stays above it
    expect(inputsOf(nodes, left).map((n) => n.kind)).toEqual(['filter', 'table']);
    expect(inputsOf(nodes, left + 1).map((n) => n.detail)).toEqual(['T1']);
    expect(nodes.findIndex((n, i) => n.kind === 'filter' && inputsOf(nodes, i).some((x) => x.id === nodes[left]!.id))).toBeGreaterThanOrEqual(0);
  });

  it('pushes an ON condition of the optional side of an outer join below it, keeps one of the other side in the join', () => {
    const plan = planOf(T3 + 'CREATE VIEW v AS SELECT * FROM t1 LEFT JOIN t2 ON a1 = a2 AND b2 > 0 AND b1 > 0;', 'V');
    const nodes = planLines(plan);
    const left = nodes.findIndex((n) => n.kind === 'join');
    expect(nodes[left]!.detail).toBe('LEFT on 1 key + condition');
    expect(inputsOf(nodes, left).map((n) => n.kind)).toEqual(['table', 'filter']);
  });

  it('plans an inner chain inside an outer join', () => {
    const plan = planOf(T3 + 'CREATE VIEW v AS SELECT * FROM t1 LEFT JOIN (t2 CROSS JOIN t3) ON a1 = a2 AND b2 = a3;', 'V');
    expect(plan).not.toMatch(/CROSS/);
    expect(plan).toMatch(/join LEFT on 1 key \[/);
    expect(plan).toMatch(/join INNER on 1 key \[/);
  });

  it('resolves ON names among the tables of their own join, wherever the planner puts it', () => {
    const sql = T3 + 'CREATE VIEW v AS SELECT q.x, t3.a3, r.x AS rx FROM (SELECT a1 AS x FROM t1) AS q JOIN t3 ON x = b3 CROSS JOIN (SELECT a2 AS x FROM t2) AS r WHERE r.x = t3.a3;';
    expect(planOf(sql, 'V')).not.toMatch(/CROSS/);
    const r = compile(sql);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    c.step([
      { table: 't1', op: 'insert', row: { a1: 1, b1: 0 } },
      { table: 't3', op: 'insert', row: { a3: 5, b3: 1 } },
      { table: 't3', op: 'insert', row: { a3: 6, b3: 2 } },
      { table: 't2', op: 'insert', row: { a2: 5, b2: 0 } },
      { table: 't2', op: 'insert', row: { a2: 6, b2: 0 } },
    ]);
    expect(c.contents('v')).toEqual([{ row: { X: 1, A3: 5, RX: 5 }, weight: 1 }]);
  });

  it('gives the rows of the full evaluation for the bad chain under inserts and deletes', () => {
    const r = compile(`${C5}\nCREATE VIEW v AS SELECT c0.v AS v0, c1.v AS v1, c2.v AS v2, c3.v AS v3, c4.v AS v4 ${BAD_CHAIN};`);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    const rows: Array<Array<[number, number, number]>> = [[], [], [], [], []];
    let seed = 11;
    const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let step = 0; step < 50; step++) {
      const changes = [];
      for (let j = 0; j < 5; j++) {
        const t = rnd(5);
        const list = rows[t]!;
        if (list.length && rnd(3) === 0) {
          const [row] = list.splice(rnd(list.length), 1);
          changes.push({ table: `c${t}`, op: 'delete' as const, row: { k: row![0], nxt: row![1], v: row![2] } });
        } else {
          const row: [number, number, number] = [rnd(3), rnd(3), rnd(5) - 1];
          list.push(row);
          changes.push({ table: `c${t}`, op: 'insert' as const, row: { k: row[0], nxt: row[1], v: row[2] } });
        }
      }
      c.step(changes);
      const want: string[] = [];
      for (const r0 of rows[0]!)
        for (const r2 of rows[2]!)
          for (const r4 of rows[4]!)
            for (const r1 of rows[1]!)
              for (const r3 of rows[3]!) {
                if (r2[2] >= 0 && r4[2] >= 0 && r0[1] === r1[0] && r1[1] === r2[0] && r2[1] === r3[0] && r3[1] === r4[0]) want.push(JSON.stringify([r0[2], r1[2], r2[2], r3[2], r4[2]]));
              }
      const got = c.contents('v').flatMap(({ row, weight }) => Array.from({ length: weight }, () => JSON.stringify([row.V0, row.V1, row.V2, row.V3, row.V4])));
      expect(got.sort()).toEqual(want.sort());
    }
  });
});

describe('the typed plan', () => {
  const sql =
    T3 +
    `CREATE VIEW v AS SELECT a1, COUNT(*) AS n FROM t1 WHERE a1 IN (SELECT a2 FROM t2) GROUP BY a1;
     CREATE VIEW w AS SELECT * FROM (SELECT a3, ROW_NUMBER() OVER (PARTITION BY b3 ORDER BY a3) AS rn FROM t3) q WHERE rn <= 2;
     CREATE VIEW x AS SELECT a1 FROM t1 EXCEPT ALL SELECT a2 FROM t2 ORDER BY a1 LIMIT 3;`;

  it('numbers nodes from 1 in each compile, inputs before their readers', () => {
    const first = ['V', 'W', 'X'].map((v) => planOf(sql, v));
    expect(['V', 'W', 'X'].map((v) => planOf(sql, v))).toEqual(first);
    for (const plan of first) {
      const nodes = planLines(plan);
      nodes.forEach((n, i) => inputsOf(nodes, i).forEach((input) => expect(input.id).toBeLessThan(n.id)));
    }
    expect(Math.min(...first.flatMap((p) => planLines(p).map((n) => n.id)))).toBe(1);
  });

  it("shows each kind's own fields", () => {
    expect(planOf(sql, 'V')).toMatch(/aggregate by 1 key[\s\S]*semijoin semi/);
    expect(planOf(sql, 'W')).toMatch(/window top 2/);
    expect(planOf(sql, 'X')).toMatch(/topk limit 3[\s\S]*except all/);
  });
});
