/**
 * MIN/MAX over ARRAY values (ordered lexicographically, as Feldera and Postgres order them: checked against
 * PGlite), TO_HEX/TO_INT on strings (their UTF-8 bytes; TO_HEX against Postgres's encode), subscripts on ROW
 * values taken from arrays, MAP<INT, VARCHAR> read from JSON objects (whose keys are strings), and CAST between
 * MAP types (keys and values converted, the keys in their new type's order).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { compile, type CompiledProgram, type JsonRow } from '../../src/engine/index.js';
import { newPglite } from './pglite.js';

function prog(sql: string): CompiledProgram {
  const r = compile(sql, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program;
}

function rows(sql: string, table: string, input: JsonRow[], view: string): JsonRow[] {
  const c = prog(sql).newCircuit();
  c.step(input.map((row) => ({ table, op: 'insert' as const, row })));
  return c.contents(view).map(({ row }) => row);
}

const ARRAYS = [[1, 2, 3], [1, 3], [1, 2], [0, 9, 9, 9], [2], []];
const TEXTS = ['hello ', 'bye', 'héllo', '', 'abcdefgh'];

describe('against PGlite', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = await newPglite();
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  });

  it('MIN and MAX of INTEGER ARRAY values, overall and per group', async () => {
    const input = ARRAYS.map((a, i) => ({ g: i % 2, a }));
    const ours = rows('CREATE TABLE t (g INT, a INT ARRAY); CREATE MATERIALIZED VIEW v AS SELECT g, MIN(a) AS mn, MAX(a) AS mx FROM t GROUP BY g;', 't', input, 'v');
    await pg.exec('CREATE TABLE t (g INT, a INT[])');
    for (const r of input) await pg.query('INSERT INTO t VALUES ($1, $2)', [r.g, r.a]);
    const want = await pg.query<{ g: number; mn: number[]; mx: number[] }>('SELECT g, MIN(a) AS mn, MAX(a) AS mx FROM t GROUP BY g');
    expect(ours.sort((x, y) => (x.g as number) - (y.g as number))).toEqual(want.rows.sort((x, y) => x.g - y.g));
  });

  it.each(TEXTS)('TO_HEX(%j) is the hex of its UTF-8 bytes; TO_INT its first 4 bytes', async (s) => {
    const [ours] = rows('CREATE TABLE t (s VARCHAR); CREATE MATERIALIZED VIEW v AS SELECT TO_HEX(s) AS h, TO_INT(s) AS i FROM t;', 't', [{ s }], 'v');
    const want = await pg.query<{ h: string }>("SELECT encode(convert_to($1, 'UTF8'), 'hex') AS h", [s]);
    expect(ours!.h).toBe(want.rows[0]!.h);
    const bytes = Buffer.from(s, 'utf8').subarray(0, 4);
    expect(ours!.i).toBe(Buffer.concat([Buffer.alloc(4 - bytes.length), bytes]).readInt32BE(0));
  });
});

describe('ROW subscripts and integer MAP keys', () => {
  it('a subscript on a ROW element of an array reads its n-th field; a user type too', () => {
    const out = rows(
      `CREATE TYPE pt AS (x INT, label VARCHAR);
       CREATE TABLE t (id INT, pts pt ARRAY, r ROW(a INT, b VARCHAR) ARRAY);
       CREATE MATERIALIZED VIEW v AS SELECT id, pts[1][2] AS first_label, r[2][1] AS second_a, pts[2].x AS second_x FROM t;`,
      't',
      [
        {
          id: 1,
          pts: [
            { x: 1, label: 'one' },
            { x: 2, label: 'two' },
          ],
          r: [
            { a: 5, b: 'p' },
            { a: 6, b: 'q' },
          ],
        },
      ],
      'v',
    );
    expect(out).toEqual([{ id: 1, first_label: 'one', second_a: 6, second_x: 2 }]);
  });

  it('UNNEST of an array field of a ROW column named through its table (t.c1.arr)', () => {
    const out = rows(
      'CREATE TABLE tb (id INT, c1 ROW(i1 INT ARRAY, v1 VARCHAR)); CREATE MATERIALIZED VIEW v AS SELECT id, x, idx FROM tb, UNNEST(tb.c1.i1) WITH ORDINALITY AS u (x, idx);',
      'tb',
      [{ id: 1, c1: { i1: [4, 5], v1: 'a' } }],
      'v',
    );
    expect(out.sort((a, b) => (a.idx as number) - (b.idx as number))).toEqual([
      { id: 1, x: 4, idx: 1 },
      { id: 1, x: 5, idx: 2 },
    ]);
  });

  it('reads MAP<INT, VARCHAR> from a JSON object, its keys as integers (ordered as numbers), and refuses a key that is not one', () => {
    const p = prog('CREATE TABLE t (id INT, m MAP<INT, VARCHAR>, b MAP<BIGINT, INT>); CREATE MATERIALIZED VIEW v AS SELECT id, m, m[10] AS ten, b FROM t;');
    const c = p.newCircuit();
    c.step([{ table: 't', op: 'insert', row: { id: 1, m: { '10': 'ten', '-5': 'minus five', '9': 'nine' }, b: { '9007199254740993': 1 } } }]);
    const [row] = c.contents('v').map(({ row }) => row);
    expect(row).toEqual({ id: 1, m: { '-5': 'minus five', '9': 'nine', '10': 'ten' }, ten: 'ten', b: { '9007199254740993': 1 } });
    expect(() => c.step([{ table: 't', op: 'insert', row: { id: 2, m: { one: 'x' } } }])).toThrow(/invalid type: string "one", expected i32/);
    expect(() => c.step([{ table: 't', op: 'insert', row: { id: 2, m: { '3000000000': 'x' } } }])).toThrow(/expected i32/);
  });
});

describe('CAST between MAP types converts keys and values', () => {
  const sql = (to: string) => `CREATE TABLE t (m MAP<INT, INT>); CREATE MATERIALIZED VIEW v AS SELECT CAST(m AS ${to}) AS c, SAFE_CAST(m AS ${to}) AS s FROM t;`;

  it('values: MAP<INT, INT> to MAP<INT, VARCHAR> gives strings (it gave the numbers unchanged)', () => {
    const [r] = rows(sql('MAP<INT, VARCHAR>'), 't', [{ m: { 1: 10, 2: null } }], 'v');
    expect(r).toEqual({ c: { 1: '10', 2: null }, s: { 1: '10', 2: null } });
  });

  it("keys: MAP<INT, INT> to MAP<VARCHAR, INT> takes the new key type's order ('10' before '9')", () => {
    const keys = 'CREATE TABLE t (m MAP<INT, INT>); CREATE MATERIALIZED VIEW v AS SELECT MAP_KEYS(m) AS before, MAP_KEYS(CAST(m AS MAP<VARCHAR, INT>)) AS after FROM t;';
    expect(rows(keys, 't', [{ m: { 9: 1, 10: 2 } }], 'v')).toEqual([{ before: [9, 10], after: ['10', '9'] }]);
  });
});
