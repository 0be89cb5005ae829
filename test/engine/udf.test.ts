/**
 * SQL user-defined functions (bind/udf.ts): Feldera's documented example, Nexmark's q14 and q22 functions and
 * others against the same functions in PGlite (Postgres SQL functions are not strict either, so NULL arguments
 * compare too), over random rows; Feldera's rules: exact parameter types, a NULL for a NOT NULL parameter
 * failing the step, the return type's cast or error; refusals (Rust UDFs, built-in names, bad bodies) with positions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { compile, EngineStepError, type CompiledProgram, type JsonRow } from '../../src/engine/index.js';
import { newPglite } from './pglite.js';
import { norm } from './oracle.js';

function prog(sql: string): CompiledProgram {
  const r = compile(sql, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; '));
  return r.program;
}

function errorsOf(sql: string): Array<{ line: number; column: number; message: string }> {
  const r = compile(sql, { outputCase: 'lower' });
  return r.ok ? [] : r.errors.map(({ line, column, message }) => ({ line, column, message }));
}

describe('SQL functions against PGlite', () => {
  let pg: PGlite;
  const FUNCTIONS = {
    // Nexmark q14's and q22's functions, and others reading NULLs
    engine: `
CREATE FUNCTION count_char(s VARCHAR, c CHAR) RETURNS INT AS LENGTH(s) - LENGTH(REPLACE(s, c, ''));
CREATE FUNCTION split_index(s VARCHAR, sep CHAR, idx INT) RETURNS VARCHAR AS SPLIT(s, CAST(sep AS VARCHAR))[idx + 1];
CREATE FUNCTION or_zero(x INT) RETURNS INT AS COALESCE(x, 0);
CREATE FUNCTION scaled(x INT, y INT) RETURNS BIGINT AS CAST(or_zero(x) AS BIGINT) * 10 + CASE WHEN y IS NULL THEN -1 ELSE y END;
CREATE FUNCTION label(s VARCHAR, x INT) RETURNS VARCHAR AS CASE WHEN x > 2 THEN UPPER(s) ELSE s || '!' END;`,
    pg: `
CREATE FUNCTION count_char(s VARCHAR, c CHAR) RETURNS INT AS $$ SELECT LENGTH(s) - LENGTH(REPLACE(s, c, '')) $$ LANGUAGE SQL;
CREATE FUNCTION split_index(s VARCHAR, sep CHAR, idx INT) RETURNS VARCHAR AS $$ SELECT (STRING_TO_ARRAY(s, CAST(sep AS VARCHAR)))[idx + 1] $$ LANGUAGE SQL;
CREATE FUNCTION or_zero(x INT) RETURNS INT AS $$ SELECT COALESCE(x, 0) $$ LANGUAGE SQL;
CREATE FUNCTION scaled(x INT, y INT) RETURNS BIGINT AS $$ SELECT CAST(or_zero(x) AS BIGINT) * 10 + CASE WHEN y IS NULL THEN -1 ELSE y END $$ LANGUAGE SQL;
CREATE FUNCTION label(s VARCHAR, x INT) RETURNS VARCHAR AS $$ SELECT CASE WHEN x > 2 THEN UPPER(s) ELSE s || '!' END $$ LANGUAGE SQL;`,
  };
  const TABLE = 'CREATE TABLE t (id INT, s VARCHAR, x INT, y INT);';
  const SELECT = "SELECT id, count_char(s, 'a') AS n, split_index(s, '/', x) AS part, or_zero(x) AS z, scaled(x, y) AS sc, label(s, y) AS l FROM t";

  beforeAll(async () => {
    pg = await newPglite();
    await pg.exec(TABLE + FUNCTIONS.pg);
  }, 60_000);
  afterAll(async () => {
    await pg.close();
  });

  it('each view row is what Postgres computes with the same functions', async () => {
    const p = prog(`${TABLE}${FUNCTIONS.engine}\nCREATE VIEW v AS ${SELECT} WHERE or_zero(y) < 4;`);
    const c = p.newCircuit();
    const words = ['a/b/c', 'banana', '', '//a', 'x/aa/', null, 'ab/ba/ca/da'];
    const rows: JsonRow[] = [];
    for (let i = 0; i < 200; i++) rows.push({ id: i, s: words[i % words.length]!, x: i % 5 === 0 ? null : i % 4, y: i % 6 === 0 ? null : i % 7 });
    c.step(rows.map((row) => ({ table: 't', op: 'insert', row })));
    await pg.query(`INSERT INTO t SELECT * FROM json_populate_recordset(NULL::t, $1)`, [JSON.stringify(rows)]);
    const cols = ['id', 'n', 'part', 'z', 'sc', 'l'];
    const res = await pg.query<Record<string, unknown>>(`${SELECT} WHERE or_zero(y) < 4`);
    const expected = res.rows.map((r) => cols.map((k) => norm(r[k])).join(' | ')).sort();
    const got = c
      .contents('v')
      .map(({ row }) => cols.map((k) => norm(row[k])).join(' | '))
      .sort();
    expect(got).toEqual(expected);
    expect(got.length).toBeGreaterThan(50);
  });
});

describe('SQL functions', () => {
  it("Feldera's documented example", () => {
    const c = prog(`
CREATE FUNCTION contains_number(str VARCHAR NOT NULL, value INTEGER)
RETURNS BOOLEAN NOT NULL
AS (str LIKE ('%' || CAST(value AS VARCHAR) || '%'));
CREATE VIEW v0 AS SELECT contains_number(CAST('YES: 10 NO:5' AS VARCHAR), 5) AS a, contains_number('x', 5) AS b;`).newCircuit();
    expect(c.contents('v0')).toEqual([{ row: { a: true, b: false }, weight: 1 }]);
  });

  it('the result has the declared type: nullability and width from the declaration, a string cast to it', () => {
    const p = prog(`
CREATE TABLE t (x INT NOT NULL, d DECIMAL(10, 3));
CREATE FUNCTION plus1(x INT NOT NULL) RETURNS INT NOT NULL AS x + 1;
CREATE FUNCTION maybe(x INT NOT NULL) RETURNS INT AS x + 1;
CREATE FUNCTION money(d DECIMAL(10, 3)) RETURNS DECIMAL(8, 1) AS d * 2;
CREATE FUNCTION text_of(x INT) RETURNS VARCHAR AS x * 2;
CREATE FUNCTION nothing(x INT) RETURNS INT AS NULL;
CREATE FUNCTION seven() RETURNS INT AS 7;
CREATE VIEW v AS SELECT plus1(x) AS a, maybe(x) AS b, money(d) AS m, text_of(x) AS s, nothing(x) AS n, seven() AS k FROM t;`);
    expect(p.relation('v')!.columns.map((c) => `${c.name} ${c.type}${c.nullable ? '' : ' NOT NULL'}`)).toEqual([
      'a INTEGER NOT NULL',
      'b INTEGER',
      'm DECIMAL(8, 1)',
      's VARCHAR',
      'n INTEGER',
      'k INTEGER',
    ]);
    const c = p.newCircuit();
    c.step([{ table: 't', op: 'insert', row: { x: 4, d: '1.255' } }]);
    expect(c.contents('v')).toEqual([{ row: { a: 5, b: 5, m: '2.5', s: '8', n: null, k: 7 }, weight: 1 }]);
  });

  it("a TIMESTAMP WITH TIME ZONE constant written with UTC (as Feldera's tests declare d_tz())", () => {
    const p = prog(`
CREATE FUNCTION d_tz() RETURNS TIMESTAMP WITH TIME ZONE NOT NULL AS CAST('1970-01-01 00:00:00 UTC' AS TIMESTAMP WITH TIME ZONE);
CREATE TABLE t (c TIMESTAMP WITH TIME ZONE);
CREATE VIEW v AS SELECT TIMESTAMPDIFF(SECOND, d_tz(), c) AS s FROM t;`);
    const c = p.newCircuit();
    c.step([{ table: 't', op: 'insert', row: { c: '1970-01-01 01:00:05' } }]);
    expect(c.contents('v')).toEqual([{ row: { s: 3605 }, weight: 1 }]);
  });

  it('a NULL given to a NOT NULL parameter refuses the step (Feldera panics); nothing is applied', () => {
    const c = prog(`
CREATE TABLE t (x INT);
CREATE FUNCTION plus1(x INT NOT NULL) RETURNS INT NOT NULL AS x + 1;
CREATE MATERIALIZED VIEW v AS SELECT plus1(x) AS a FROM t;`).newCircuit();
    c.step([{ table: 't', op: 'insert', row: { x: 1 } }]);
    let err: unknown;
    try {
      c.step([
        { table: 't', op: 'insert', row: { x: 2 } },
        { table: 't', op: 'insert', row: { x: null } },
      ]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineStepError);
    expect((err as Error).message).toContain('NULL argument for the NOT NULL parameter x of function PLUS1');
    expect(c.contents('v')).toEqual([{ row: { a: 2 }, weight: 1 }]);
  });

  it('a NULL from the body of a NOT NULL function refuses the step', () => {
    const c = prog(`
CREATE TABLE t (x INT);
CREATE FUNCTION half(x INT) RETURNS INT NOT NULL AS CASE WHEN x > 0 THEN x / 2 END;
CREATE MATERIALIZED VIEW v AS SELECT half(x) AS h FROM t;`).newCircuit();
    c.step([{ table: 't', op: 'insert', row: { x: 4 } }]);
    expect(() => c.step([{ table: 't', op: 'insert', row: { x: -4 } }])).toThrow('function HALF returned NULL, which its type INTEGER NOT NULL does not hold');
    expect(c.contents('v')).toEqual([{ row: { h: 2 }, weight: 1 }]);
  });

  it('arguments must have the parameter types (as Feldera: no implicit casts between type names)', () => {
    const pre = 'CREATE TABLE t (b BIGINT, i INT, s VARCHAR);\nCREATE FUNCTION f(x INT, c CHAR) RETURNS INT AS x;\n';
    expect(errorsOf(`${pre}CREATE VIEW v AS SELECT f(b, 'a') AS r FROM t;`)).toEqual([
      { line: 3, column: 25, message: "Cannot apply 'F' to arguments of type 'F(<BIGINT>, <VARCHAR>)'. Supported form(s): 'F(<INTEGER>, <CHAR(1)>)'" },
    ]);
    expect(errorsOf(`${pre}CREATE VIEW v AS SELECT f(i) AS r FROM t;`)[0]!.message).toBe("Cannot apply 'F' to arguments of type 'F(<INTEGER>)'. Supported form(s): 'F(<INTEGER>, <CHAR(1)>)'");
    expect(errorsOf(`${pre}CREATE VIEW v AS SELECT f(i, s) AS r, f(NULL, NULL) AS n FROM t;`)).toEqual([]);
  });

  it('refuses a body of another type, a built-in name, a duplicate, a column in the body, and Rust functions', () => {
    expect(errorsOf('CREATE FUNCTION f(x INT) RETURNS BOOLEAN AS x + 1;')).toEqual([{ line: 1, column: 45, message: "Function 'F' should return 'BOOLEAN' but returns 'INTEGER'" }]);
    expect(errorsOf('CREATE FUNCTION f(x INT) RETURNS DATE NOT NULL AS x + 1;')).toEqual([{ line: 1, column: 51, message: "Function 'F' should return 'DATE NOT NULL' but returns 'INTEGER'" }]);
    expect(errorsOf('CREATE FUNCTION length(x INT) RETURNS INT AS x;')[0]!.message).toBe("A function named 'LENGTH' already exists (a built-in function)");
    expect(errorsOf('CREATE FUNCTION f(x INT) RETURNS INT AS x;\nCREATE FUNCTION F(y INT) RETURNS INT AS y;')).toEqual([{ line: 2, column: 17, message: "Duplicate declaration of function 'F'" }]);
    expect(errorsOf('CREATE TABLE t (c INT);\nCREATE FUNCTION f(x INT) RETURNS INT AS x + c;')).toEqual([{ line: 2, column: 45, message: "Column 'c' not found in any table" }]);
    expect(errorsOf('CREATE FUNCTION f(x INT, x INT) RETURNS INT AS x;')[0]!.message).toBe("Duplicate parameter 'x'");
    expect(errorsOf('CREATE FUNCTION f(x INT) RETURNS INT AS;')[0]!.message).toMatch(/^CREATE FUNCTION must be/);
    const rust = errorsOf("CREATE TABLE t (s VARCHAR);\nCREATE FUNCTION re_extract(s VARCHAR, p VARCHAR, grp INTEGER) RETURNS VARCHAR;\nCREATE VIEW v AS SELECT re_extract(s, 'a', 1) AS r FROM t;");
    expect(rust).toEqual([
      {
        line: 2,
        column: 17,
        message:
          "Function 'RE_EXTRACT' has no SQL body (AS expression): user-defined functions implemented in Rust are not supported; only SQL functions (CREATE FUNCTION ... RETURNS type AS expression) are",
      },
      { line: 3, column: 25, message: "Function 'RE_EXTRACT' cannot be called: it is declared without a SQL body (a Rust UDF, not supported)" },
    ]);
  });

  it('a function may call the functions declared before it, and be called anywhere an expression is', () => {
    const c = prog(`
CREATE TABLE t (x INT, g INT);
CREATE FUNCTION double_it(x INT) RETURNS INT AS x * 2;
CREATE OR REPLACE FUNCTION quad(x INT) RETURNS INT AS double_it(double_it(x));
CREATE VIEW v AS SELECT quad(g) AS k, SUM(quad(x)) AS s FROM t WHERE double_it(x) > 2 GROUP BY quad(g) HAVING COUNT(*) > quad(0);`).newCircuit();
    c.step([1, 2, 3, 4].map((x) => ({ table: 't', op: 'insert' as const, row: { x, g: x % 2 } })));
    expect(c.contents('v').sort((a, b) => (a.row.k as number) - (b.row.k as number))).toEqual([
      { row: { k: 0, s: 24 }, weight: 1 },
      { row: { k: 4, s: 12 }, weight: 1 },
    ]);
  });
});
