/**
 * LEFT ASOF JOIN (bind/asof-join.ts, ops/asof-join.ts): a hand-computed example (ties, NULL keys and times,
 * no match), Feldera's own form (no parentheses, `key` as a column), random inserts and deletes on both sides
 * over several steps against PGlite (a LEFT JOIN LATERAL of the latest earlier row, ties to the greatest row),
 * and Feldera's refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { compile, type CompiledProgram, type InputChange, type JsonRow, type WeightedRow } from '../../src/engine/index.js';
import { newPglite } from './pglite.js';
import { norm } from './oracle.js';

const TABLES = 'CREATE TABLE l (id INT, k INT, ts INT);\nCREATE TABLE r (k INT, ts INT, v VARCHAR);\n';
const VIEW = 'CREATE VIEW j AS SELECT l.id, l.k, l.ts, r.ts AS rts, r.v FROM l LEFT ASOF JOIN r MATCH_CONDITION (l.ts >= r.ts) ON l.k = r.k;';

function prog(sql: string): CompiledProgram {
  const r = compile(sql, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; '));
  return r.program;
}

function errorsOf(sql: string): Array<{ line: number; column: number; message: string }> {
  const r = compile(sql, { outputCase: 'lower' });
  return r.ok ? [] : r.errors.map(({ line, column, message }) => ({ line, column, message }));
}

const COLS = ['id', 'k', 'ts', 'rts', 'v'];
function rowsOf(list: WeightedRow[]): string[] {
  const out: string[] = [];
  for (const { row, weight } of list) {
    expect(weight).toBeGreaterThan(0);
    for (let i = 0; i < weight; i++) out.push(COLS.map((c) => norm(row[c])).join(' | '));
  }
  return out.sort();
}

describe('LEFT ASOF JOIN', () => {
  it('matches each left row with the latest right row of its key at or before it; ties to the greatest row', () => {
    const c = prog(TABLES + VIEW).newCircuit();
    const ins = (table: string, row: JsonRow): InputChange => ({ table, op: 'insert', row });
    c.step([
      ins('r', { k: 1, ts: 10, v: 'a' }),
      ins('r', { k: 1, ts: 20, v: 'b' }),
      ins('r', { k: 1, ts: 20, v: 'c' }),
      ins('r', { k: 2, ts: 5, v: 'x' }),
      ins('r', { k: null, ts: 1, v: 'nullkey' }),
      ins('r', { k: 3, ts: null, v: 'nullts' }),
      ins('l', { id: 1, k: 1, ts: 15 }),
      ins('l', { id: 2, k: 1, ts: 25 }),
      ins('l', { id: 3, k: 1, ts: 9 }),
      ins('l', { id: 4, k: 2, ts: 5 }),
      ins('l', { id: 5, k: null, ts: 50 }),
      ins('l', { id: 6, k: 3, ts: 50 }),
      ins('l', { id: 7, k: 1, ts: null }),
    ]);
    expect(rowsOf(c.contents('j'))).toEqual(
      [
        '1 | 1 | 15 | 10 | "a"',
        '2 | 1 | 25 | 20 | "c"',
        '3 | 1 | 9 | NULL | NULL',
        '4 | 2 | 5 | 5 | "x"',
        '5 | NULL | 50 | NULL | NULL',
        '6 | 3 | 50 | NULL | NULL',
        '7 | 1 | NULL | NULL | NULL',
      ].sort(),
    );
    // a right row between moves the matches after it; deleting it moves them back
    const s1 = c.step([ins('r', { k: 1, ts: 12, v: 'm' })]);
    expect(s1.changes.get('j')).toEqual([
      { row: { id: 1, k: 1, ts: 15, rts: 10, v: 'a' }, weight: -1 },
      { row: { id: 1, k: 1, ts: 15, rts: 12, v: 'm' }, weight: 1 },
    ]);
    c.step([{ table: 'r', op: 'delete', row: { k: 1, ts: 20, v: 'c' } }]);
    expect(rowsOf(c.contents('j'))).toContain('2 | 1 | 25 | 20 | "b"');
    c.step([{ table: 'r', op: 'delete', row: { k: 2, ts: 5, v: 'x' } }]);
    expect(rowsOf(c.contents('j'))).toContain('4 | 2 | 5 | NULL | NULL');
  });

  it("takes Feldera's Nexmark q13 form: no parentheses, a column named key, a derived left side", () => {
    const c = prog(`
CREATE TABLE bid (auction BIGINT, price BIGINT, date_time TIMESTAMP);
CREATE TABLE side_input (date_time TIMESTAMP, key BIGINT, value VARCHAR);
CREATE VIEW q AS SELECT B.auction, B.price, S.value
FROM (SELECT *, date_time AS p_time, MOD(auction, 10) AS mod FROM bid) B
LEFT ASOF JOIN side_input AS S
MATCH_CONDITION B.p_time >= S.date_time
ON B.mod = S.key;`).newCircuit();
    c.step([
      { table: 'side_input', op: 'insert', row: { date_time: '2024-01-01 00:00:00', key: 3, value: 'three' } },
      { table: 'bid', op: 'insert', row: { auction: 13, price: 1, date_time: '2024-01-01 00:00:01' } },
      { table: 'bid', op: 'insert', row: { auction: 13, price: 2, date_time: '2023-12-31 23:59:59' } },
      { table: 'bid', op: 'insert', row: { auction: 14, price: 3, date_time: '2024-01-01 00:00:01' } },
    ]);
    expect(
      c
        .contents('q')
        .map((r) => JSON.stringify(r.row))
        .sort(),
    ).toEqual(
      [
        { auction: 13, price: 1, value: 'three' },
        { auction: 13, price: 2, value: null },
        { auction: 14, price: 3, value: null },
      ]
        .map((r) => JSON.stringify(r))
        .sort(),
    );
  });

  it('refuses what Feldera refuses', () => {
    const pre = TABLES;
    expect(errorsOf(`${pre}CREATE VIEW j AS SELECT * FROM l ASOF JOIN r MATCH_CONDITION (l.ts >= r.ts) ON l.k = r.k;`)).toEqual([
      { line: 3, column: 44, message: 'Currently only LEFT ASOF joins are supported.' },
    ]);
    expect(errorsOf(`${pre}CREATE VIEW j AS SELECT * FROM l LEFT ASOF JOIN r MATCH_CONDITION (l.ts <= r.ts) ON l.k = r.k;`)).toEqual([
      { line: 3, column: 68, message: "Currently the only MATCH_CONDITION comparison supported by ASOF joins is 'leftCol >= rightCol'" },
    ]);
    expect(errorsOf(`${pre}CREATE VIEW j AS SELECT * FROM l LEFT ASOF JOIN r MATCH_CONDITION (r.ts <= l.ts) ON l.k = r.k;`)).toEqual([]);
    expect(errorsOf(`${pre}CREATE VIEW j AS SELECT * FROM l LEFT ASOF JOIN r MATCH_CONDITION (l.ts >= r.ts) ON l.k < r.k;`)[0]!.message).toBe(
      'ASOF JOIN condition must be a conjunction of equality comparisons',
    );
    expect(errorsOf(`${pre}CREATE VIEW j AS SELECT * FROM l LEFT ASOF JOIN r MATCH_CONDITION (l.ts >= r.ts) ON l.k = r.k AND l.id <> r.k;`)[0]!.message).toBe(
      'ASOF JOIN condition must be a conjunction of equality comparisons',
    );
    expect(errorsOf(`${pre}CREATE VIEW j AS SELECT * FROM l LEFT ASOF JOIN r MATCH_CONDITION (l.ts >= r.ts) ON l.k = l.id;`)[0]!.message).toBe(
      'ASOF JOIN condition must be a conjunction of equality comparisons of columns from both sides',
    );
    expect(errorsOf(`${pre}CREATE VIEW j AS SELECT * FROM l LEFT ASOF JOIN r MATCH_CONDITION (l.ts = r.ts) ON l.k = r.k;`)[0]!.message).toBe(
      'ASOF JOIN MATCH_CONDITION must be a comparison between columns from the two inputs',
    );
  });

  it('checks as Feldera does, in its order: the match condition and ON first, LEFT only after', () => {
    const pre = TABLES;
    // an inner ASOF JOIN whose ON is not equalities: the validator's refusal comes first
    expect(errorsOf(`${pre}CREATE VIEW j AS SELECT * FROM l ASOF JOIN r MATCH_CONDITION (l.ts >= r.ts) ON l.k <> r.k;`)[0]!.message).toBe(
      'ASOF JOIN condition must be a conjunction of equality comparisons',
    );
    // the match condition's own errors first: a FROM-less subquery naming an unknown table
    expect(errorsOf(`${pre}CREATE VIEW j AS SELECT * FROM l LEFT ASOF JOIN r MATCH_CONDITION (r.ts = (SELECT sub.ts)) ON l.k = r.k;`)[0]!.message).toBe("Table 'sub' not found");
    // a match condition that is no comparison of the two sides is refused before the form of the join
    expect(errorsOf(`${pre}CREATE VIEW j AS SELECT * FROM l ASOF JOIN r MATCH_CONDITION (l.ts = r.ts) ON l.k = r.k;`)[0]!.message).toBe(
      'ASOF JOIN MATCH_CONDITION must be a comparison between columns from the two inputs',
    );
    expect(errorsOf(`${pre}CREATE VIEW j AS SELECT * FROM l LEFT ASOF JOIN r MATCH_CONDITION (l.ts >= l.id) ON l.k = r.k;`)[0]!.message).toBe(
      'ASOF JOIN MATCH_CONDITION must be a comparison between columns from the two inputs',
    );
  });
});

describe('LEFT ASOF JOIN against PGlite', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = await newPglite();
    await pg.exec(TABLES);
  }, 60_000);
  afterAll(async () => {
    await pg.close();
  });

  it('each step, the view holds the latest earlier right row of each left row', async () => {
    const c = prog(TABLES + VIEW).newCircuit();
    let seed = 11;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const live: Record<'l' | 'r', JsonRow[]> = { l: [], r: [] };
    for (let step = 0; step < 8; step++) {
      const changes: InputChange[] = [];
      for (let i = 0; i < 60; i++) {
        const table = next(2) === 0 ? 'l' : 'r';
        if (live[table].length > 5 && next(4) === 0) {
          const [row] = live[table].splice(next(live[table].length), 1);
          changes.push({ table, op: 'delete', row: row! });
          continue;
        }
        const k = next(10) === 0 ? null : next(4);
        const ts = next(15) === 0 ? null : next(40);
        const row: JsonRow = table === 'l' ? { id: next(1000), k, ts } : { k, ts, v: ['a', 'b', 'c', null][next(4)]! };
        live[table].push(row);
        changes.push({ table, op: 'insert', row });
      }
      c.step(changes);
      await pg.exec('DELETE FROM l; DELETE FROM r;');
      for (const t of ['l', 'r'] as const) if (live[t].length) await pg.query(`INSERT INTO ${t} SELECT * FROM json_populate_recordset(NULL::${t}, $1)`, [JSON.stringify(live[t])]);
      const res = await pg.query<Record<string, unknown>>(
        `SELECT l.id, l.k, l.ts, m.ts AS rts, m.v FROM l LEFT JOIN LATERAL
           (SELECT r.ts, r.v FROM r WHERE r.k = l.k AND r.ts <= l.ts ORDER BY r.ts DESC, r.v DESC NULLS LAST LIMIT 1) m ON TRUE`,
      );
      const expected = res.rows.map((r) => COLS.map((k) => norm(r[k])).join(' | ')).sort();
      expect(rowsOf(c.contents('j')), `after step ${step}`).toEqual(expected);
    }
  }, 60_000);
});

describe('LEFT ASOF JOIN, written otherwise', () => {
  it('a match condition that starts with a cast, in double parentheses, or a LEFT and an inner ASOF JOIN in one statement', () => {
    expect(errorsOf(`${TABLES}CREATE VIEW j AS SELECT l.id, r.v FROM l LEFT ASOF JOIN r MATCH_CONDITION CAST(l.ts AS BIGINT) >= r.ts ON l.k = r.k;`)).toEqual([]);
    expect(errorsOf(`${TABLES}CREATE VIEW j AS SELECT l.id, r.v FROM l LEFT ASOF JOIN r MATCH_CONDITION ((l.ts) >= r.ts) ON l.k = r.k;`)).toEqual([]);
    expect(
      errorsOf(`${TABLES}CREATE VIEW j AS SELECT l.id FROM l LEFT ASOF JOIN r MATCH_CONDITION (l.ts >= r.ts) ON l.k = r.k ASOF JOIN r AS r2 MATCH_CONDITION (l.ts >= r2.ts) ON l.k = r2.k;`),
    ).toEqual([{ line: 3, column: 108, message: 'Currently only LEFT ASOF joins are supported.' }]);
  });
});
