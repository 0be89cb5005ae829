/**
 * Programs Feldera refuses, refused here with Feldera's message text (the part its runtime_aggtest negative
 * tests check, contained in ours): ROW equality (ROW values are ordered, but = and <> are refused), IS TRUE/UNKNOWN on non-booleans, BETWEEN and IN with
 * incompatible types, GREATEST/COALESCE types, subscripts, CARDINALITY, EVERY/SOME forms, nested aggregates,
 * LAG/LEAD amounts, IGNORE NULLS on SUM, qualified unknown columns, GROUPING, TUMBLE/HOP time columns, and the
 * runtime errors of integer division and remainder by zero. Also what made some of them reachable: a ROW
 * subscript reads the n-th field, `(x, y)` is ROW(x, y), MINUS is EXCEPT.
 */
import { describe, expect, it } from 'vitest';
import { compile, EngineStepError } from '../../src/engine/index.js';

const TABLE = `CREATE TYPE user_def AS (i1 INT, v1 VARCHAR);
CREATE TABLE t (id INT, intt INT, str VARCHAR, bin VARBINARY, arr VARCHAR ARRAY, mapp MAP<VARCHAR, INT>, roww ROW(i1 INT, v1 VARCHAR), udt user_def, ts TIMESTAMP, dbl DOUBLE);`;

function refusal(view: string): string {
  const r = compile(`${TABLE}\nCREATE MATERIALIZED VIEW v AS ${view};`, { outputCase: 'lower' });
  if (r.ok) throw new Error(`accepted: ${view}`);
  return r.errors.map((e) => e.message).join(' | ');
}

describe("refusals with Feldera's message text", () => {
  it.each([
    ["SELECT roww = ROW(4, 'cat') AS x FROM t", "ROW values cannot be compared using '='"],
    ["SELECT udt = (4, 'cat') AS x FROM t", "ROW values cannot be compared using '='"],
    ["SELECT roww != ROW(4, 'cat') AS x FROM t", "ROW values cannot be compared using '<>'"],
    ["SELECT roww IN (ROW(4, 'cat')) AS x FROM t", "ROW values cannot be compared using '='"],
    ["SELECT CASE roww WHEN ROW(4, 'cat') THEN 0 END AS x FROM t", "ROW values cannot be compared using '='"],
    ['SELECT a.id FROM t a JOIN t b ON a.roww = b.roww', "ROW values cannot be compared using '='"],
    ['SELECT a.id FROM t a JOIN t b USING (roww)', "ROW values cannot be compared using '='"],
    ["SELECT NULLIF(roww, ROW(4, 'cat')) AS x FROM t", "'NULLIF' compares ROW values for equality"],
    ["SELECT NULLIF(mapp, ARRAY['apple']) AS x FROM t", "Cannot apply 'NULLIF' to arguments of type"],
    ['SELECT intt IS TRUE AS x FROM t', "Cannot apply 'IS TRUE' to arguments of type"],
    ['SELECT intt IS NOT FALSE AS x FROM t', "Cannot apply 'IS NOT FALSE' to arguments of type"],
    ['SELECT udt IS UNKNOWN AS x FROM t', "Cannot apply 'IS UNKNOWN' to arguments of type"],
    ["SELECT mapp = ARRAY['a'] AS x FROM t", "Cannot apply '=' to arguments of type"],
    ['SELECT arr < mapp AS x FROM t', "Cannot apply '<' to arguments of type"],
    ['SELECT dbl IS NOT DISTINCT FROM bin AS x FROM t', "Cannot apply 'IS NOT DISTINCT FROM' to arguments of type"],
    ["SELECT mapp BETWEEN ARRAY['a'] AND ARRAY['b'] AS x FROM t", "Cannot apply 'BETWEEN ASYMMETRIC' to arguments of type"],
    ['SELECT dbl NOT BETWEEN SYMMETRIC bin AND bin AS x FROM t', "Cannot apply 'NOT BETWEEN SYMMETRIC' to arguments of type"],
    ['SELECT intt IN (bin) AS x FROM t', 'Values passed to IN operator must have compatible types'],
    ['SELECT intt NOT IN (bin) AS x FROM t', 'Values passed to NOT IN operator must have compatible types'],
    ['SELECT GREATEST(intt, bin) AS x FROM t', 'Parameters must be of the same type'],
    ['SELECT COALESCE(intt, bin) AS x FROM t', 'Parameters must be of the same type'],
    ['SELECT bin[2] AS x FROM t', 'Cannot apply indexing to arguments of type'],
    ['SELECT CARDINALITY(intt) AS x FROM t', "Cannot apply 'CARDINALITY' to arguments of type"],
    ['SELECT EVERY(intt) AS x FROM t', "Cannot apply 'EVERY' to arguments of type 'EVERY(<INTEGER>)'. Supported form(s): 'EVERY(<BOOLEAN>)'"],
    ['SELECT SOME(intt) AS x FROM t', "Cannot apply 'SOME' to arguments of type 'SOME(<INTEGER>)'. Supported form(s): 'SOME(<BOOLEAN>)'"],
    ['SELECT SUM(MAX(intt)) AS x FROM t', 'Aggregate expressions cannot be nested'],
    ['SELECT LAG(intt, intt) OVER (ORDER BY id) AS x FROM t', 'Currently LAG/LEAD amount must be a compile-time constant'],
    ['SELECT SUM(intt) IGNORE NULLS AS x FROM t', "Cannot specify IGNORE NULLS or RESPECT NULLS following 'SUM'"],
    ['SELECT t.foo AS x FROM t', "Column 'foo' not found in table 't'"],
    ['SELECT id, GROUPING(intt) AS g FROM t GROUP BY ROLLUP(id)', 'Argument to GROUPING operator must be a grouped expression'],
    ["SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(intt), INTERVAL '1' HOUR))", "Cannot apply 'TUMBLE' to arguments of type"],
    ['SELECT -CAST(intt AS INT UNSIGNED) AS x FROM t', 'Unary minus cannot be applied to unsigned values'],
    ['SELECT udt[3] AS x FROM t', 'ROW subscript 3 is out of range'],
    ['SELECT TIME_TRUNC(ts, HOUR) AS x FROM t', "Cannot apply 'TIME_TRUNC' to arguments of type"],
    ["SELECT TIMESTAMP_TRUNC(CAST('10:00:00' AS TIME), HOUR) AS x FROM t", "Cannot apply 'TIMESTAMP_TRUNC' to arguments of type"],
    ['SELECT ARRAY_REPEAT(str, FALSE) AS x FROM t', "Cannot apply 'ARRAY_REPEAT' to arguments of type 'ARRAY_REPEAT(<VARCHAR>, <BOOLEAN>)'"],
    ['SELECT GREATEST(str, FALSE) AS x FROM t', 'Cannot infer return type for GREATEST; operand types: [VARCHAR, BOOLEAN]'],
    ['SELECT ARRAY_APPEND(arr, intt) AS x FROM t', 'VARCHAR is not comparable to INTEGER'],
    ['SELECT ARRAY_INSERT(arr, 8, 4) AS x FROM t', 'VARCHAR is not comparable to INTEGER'],
    ['SELECT ARRAY_CONTAINS(arr, intt) AS x FROM t', 'VARCHAR is not comparable to INTEGER'],
    ['SELECT ARRAY(arr, ts) AS x FROM t', 'Parameters must be of the same type'],
    ["SELECT CONCAT_WS('@', roww, 55) AS x FROM t", "Cannot apply 'CONCAT_WS' to arguments of type"],
    ['SELECT CONCAT(roww, str) AS x FROM t', "Cannot apply 'CONCAT' to arguments of type"],
    ['SELECT CONCAT(bin, bin) AS x FROM t', 'CONCAT of VARBINARY values'],
    ["SELECT ARRAY_JOIN(ARRAY[udt], ',', '*') AS x FROM t", "Cannot apply 'ARRAY_JOIN' to arguments of type"],
    ['SELECT BROUND(str, 1) AS x FROM t', "Cannot apply 'BROUND' to arguments of type"],
    ['SELECT * FROM (VALUES (1), (1, 2)) AS v(a)', 'Values passed to VALUES operator must have compatible types'],
    ["SELECT (ts) OVERLAPS (TIMESTAMP '2020-06-21 00:00:00') AS x FROM t", "Cannot apply 'OVERLAPS' to arguments of type"],
    ['SELECT COUNT(*) OVER (ORDER BY arr) AS x FROM t', "OVER currently cannot sort on columns with type 'VARCHAR ARRAY'"],
    ['SELECT COUNT(NULL) OVER () AS x FROM t', 'Argument of aggregate has NULL type'],
    ['SELECT str, COUNT(*) AS c FROM t GROUP BY CUBE (CUBE(str))', 'No match found for function signature CUBE(<CHARACTER>)'],
    ['SELECT str, COUNT(*) AS c FROM t GROUP BY ROLLUP (ROLLUP(str))', "Incorrect syntax near the keyword 'ROLLUP'"],
    ["SELECT FORMAT_DATE('%Y-%m', CAST(ts AS TIME)) AS x FROM t", "Cannot apply 'FORMAT_DATE' to arguments of type"],
    ["SELECT CAST(CONNECTOR_METADATA('check')['check'] AS VARCHAR) AS x FROM t", "Invalid number of arguments to function 'CONNECTOR_METADATA'. Was expecting 0 arguments"],
  ])('%s', (view, message) => {
    expect(refusal(view).toLowerCase()).toContain(message.toLowerCase());
  });
});

describe('runtime refusals', () => {
  const p = compile(
    'CREATE TABLE n (i INT, u TINYINT UNSIGNED); CREATE MATERIALIZED VIEW m AS SELECT i % 0 AS r FROM n; CREATE MATERIALIZED VIEW d AS SELECT u / CAST(0 AS TINYINT UNSIGNED) AS q FROM n;',
  );
  it.each([
    [{ i: 7, u: null }, 'attempt to calculate the remainder with a divisor of zero'],
    [{ i: null, u: 250 }, "'250 / 0' causes overflow for type TINYINT UNSIGNED"],
  ])('%j', (row, message) => {
    if (!p.ok) throw new Error('not compiled');
    const c = p.program.newCircuit();
    let err: unknown;
    try {
      c.step([{ table: 'n', op: 'insert', row }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineStepError);
    expect((err as Error).message).toContain(message);
  });
});

describe('the function form ARRAY(...)', () => {
  it('takes the common type of its arguments; numbers with strings are VARCHAR', () => {
    const r = compile(`${TABLE}\nCREATE MATERIALIZED VIEW v AS SELECT ARRAY(intt, dbl, str) AS a, ARRAY(ARRAY[id], ARRAY[intt]) AS n FROM t;`, { outputCase: 'lower' });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
    const out = r.program.newCircuit().step([{ table: 't', op: 'insert', row: { id: 1, intt: -12, dbl: -38.5, str: 'hi' } }]);
    expect(out.changes.get('v')![0]!.row).toEqual({ a: ['-12', '-38.5', 'hi'], n: [[1], [-12]] });
  });
});

describe('forms that made those reachable', () => {
  it('a ROW subscript reads the n-th field; (x, y) is ROW(x, y); MINUS is EXCEPT', () => {
    const r = compile(
      `${TABLE}
CREATE MATERIALIZED VIEW v AS SELECT udt[1] AS a, roww[2] AS b, (intt, str) AS pair FROM t;
CREATE MATERIALIZED VIEW m AS SELECT id FROM t MINUS SELECT intt FROM t;
CREATE MATERIALIZED VIEW ranked AS SELECT id, roww > ROW(5, 'zzz') AS above, roww BETWEEN ROW(6, 'a') AND ROW(6, 'z') AS within FROM t;`,
      { outputCase: 'lower' },
    );
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
    const c = r.program.newCircuit();
    c.step([
      { table: 't', op: 'insert', row: { id: 1, intt: 2, str: 's', udt: { i1: 5, v1: 'five' }, roww: { i1: 6, v1: 'six' } } },
      { table: 't', op: 'insert', row: { id: 2, intt: 1 } },
    ]);
    expect(
      c
        .contents('v')
        .map(({ row }) => row)
        .sort((x, y) => String(x.a).localeCompare(String(y.a))),
    ).toEqual([
      { a: 5, b: 'six', pair: { EXPR$0: 2, EXPR$1: 's' } },
      { a: null, b: null, pair: { EXPR$0: 1, EXPR$1: null } },
    ]);
    expect(c.contents('m').map(({ row }) => row)).toEqual([]);
    // ROW values are ordered field by field (Feldera refuses only = and <>)
    expect(
      c
        .contents('ranked')
        .map(({ row }) => row)
        .sort((x, y) => (x.id as number) - (y.id as number)),
    ).toEqual([
      { id: 1, above: true, within: true },
      { id: 2, above: null, within: null },
    ]);
  });
});
