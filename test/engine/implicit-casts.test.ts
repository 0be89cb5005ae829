/**
 * Arguments Feldera (Calcite) converts implicitly, and the byte forms of the string functions: a string
 * function takes a number, BOOLEAN, date/time or UUID as its VARCHAR text; a numeric function takes a string as
 * DECIMAL(38, 19) (an integer one as INTEGER); SUBSTRING, LEFT, RIGHT, POSITION, OVERLAY, OCTET_LENGTH, MD5 and
 * || work on bytes (docs/sql/binary.md); REAL meets an exact number as REAL; a DOUBLE or REAL is written as
 * Rust's ryu writes it. Cases are our own, over a one-row table.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/index.js';
import { formatFloatText } from '../../src/engine/types/float-text.js';

const TABLE = `CREATE TABLE t (i INT, dec DECIMAL(6, 2), r REAL, b BOOLEAN, s VARCHAR, bin VARBINARY, ts TIMESTAMP, u UUID, roww ROW(a INT), m MAP<VARCHAR, INT>);`;
const ROW = { i: -12, dec: '-1111.52', r: -57681.18, b: true, s: '-0.14', bin: [11, 22, 32], ts: '2020-06-21 14:23:44.123654', u: '42b8fec7-c7a3-4531-9611-4bde80f9cb4c', roww: { a: 1 }, m: {} };

function evalExpr(expr: string): unknown {
  const r = compile(`${TABLE}\nCREATE VIEW v AS SELECT ${expr} AS x FROM t;`, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  const out = r.program.newCircuit().step([{ table: 't', op: 'insert', row: ROW }]);
  return out.changes.get('v')![0]!.row.x;
}

function refusal(expr: string): string {
  const r = compile(`${TABLE}\nCREATE VIEW v AS SELECT ${expr} AS x FROM t;`, { outputCase: 'lower' });
  return r.ok ? 'accepted' : r.errors.map((e) => e.message).join('; ');
}

describe('string functions take scalars as their text', () => {
  it.each([
    ['ASCII(i)', 45],
    ['LOWER(b)', 'true'],
    ['LEN(u)', 36],
    ['UPPER(u)', '42B8FEC7-C7A3-4531-9611-4BDE80F9CB4C'],
    ["POSITION('576' IN r)", 2],
    ["REGEXP_REPLACE(dec, '[0-9]+', 'n')", '-n.n'],
    ['SUBSTRING(ts FROM 2 FOR 3)', '020'],
    ["TRIM(TRAILING '2' FROM i)", '-1'],
    ["SPLIT(dec, '.')", ['-1111', '52']],
    ["RLIKE(b, '[0-9]+')", false],
    ["PARSE_DATE('%Y-%m', b)", null],
    // FORMAT_DATE takes a TIMESTAMP or a string as their DATE
    ["FORMAT_DATE('%Y-%m', ts)", '2020-06'],
    ["FORMAT_DATE('%Y-%m', '2021-01-20')", '2021-01'],
    // CONCAT_WS takes bytes as their hex text; TIMESTAMP_TRUNC of a DATE is a TIMESTAMP (DATE_TRUNC's a DATE)
    ["CONCAT_WS('@', bin, 55)", '0b1620@55'],
    ["TIMESTAMP_TRUNC(DATE '2020-06-21', MONTH)", '2020-06-01 00:00:00'],
    ["DATE_TRUNC(DATE '2020-06-21', MONTH)", '2020-06-01'],
    // a string constant against bytes is hex digits; COALESCE of a string and a number is a VARCHAR
    ["CASE bin WHEN '0b1620' THEN 1 ELSE 0 END", 1],
    ["bin = 'zz'", null],
    ['COALESCE(NULL, s, -1)', '-0.14'],
    ['COALESCE(NULL, CAST(NULL AS VARCHAR), -1)', '-1'],
  ])('%s', (expr, want) => {
    expect(evalExpr(expr)).toEqual(want);
  });

  it.each([
    ['UPPER(roww)', "Cannot apply 'UPPER' to arguments of type"],
    ["TRIM(LEADING x'0b' FROM bin)", "Cannot apply 'TRIM' to arguments of type"],
    ['OCTET_LENGTH(r)', "Cannot apply 'OCTET_LENGTH' to arguments of type"],
    ["POSITION('a' IN roww)", 'Parameters must be of the same type'],
    ['roww || roww', "Cannot apply '||' to arguments of type"],
    ["CHR('a')", "Cannot apply 'CHR'"],
  ])('%s is refused', (expr, message) => {
    expect(refusal(expr)).toContain(message);
  });
});

describe('numeric functions take strings as numbers', () => {
  it.each([
    ['CAST(ABS(s) AS VARCHAR)', '0.1400000000000000000'],
    ['CAST(ROUND(s) AS VARCHAR)', '0'],
    ["CAST(MOD('14', 3) AS INT)", 2],
    ["SEQUENCE('2', 4)", [2, 3, 4]],
    ['CAST(BROUND(i, 1) AS VARCHAR)', '-12'],
    ['CAST(MOD(dec, 3) AS VARCHAR)', '-1.52'],
    ["CAST(CEIL('-0.52') AS INT)", 0],
    // the inverse hyperbolic functions to Rust's last digit
    ['CAST(ACOSH(14) AS VARCHAR)', '3.3309265526412517'],
    ['CAST(ATANH(0.5) AS VARCHAR)', '0.5493061443340548'],
    ['CAST(ASINH(-2) AS VARCHAR)', '-1.4436354751788103'],
    // an empty delimiter does not split
    ["SPLIT_PART(i, '', 1)", '-12'],
    ["SPLIT_PART('abc', '', 2)", ''],
    // TRIM works by characters, not UTF-16 units
    ["TRIM(TRAILING '🐍' FROM '🐍🐍')", ''],
    ["TRIM(BOTH '√ ' FROM 'h@pP√ ')", 'h@pP'],
  ])('%s', (expr, want) => {
    expect(evalExpr(expr)).toEqual(want);
  });
});

describe('set operations unify a string with a scalar as VARCHAR', () => {
  it('INTERSECT ALL of VARCHAR and BOOLEAN', () => {
    const r = compile(`${TABLE}\nCREATE VIEW v AS SELECT s FROM t INTERSECT ALL SELECT b FROM t;\nCREATE VIEW w AS SELECT s FROM t UNION ALL SELECT b FROM t;`, { outputCase: 'lower' });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
    const out = r.program.newCircuit().step([{ table: 't', op: 'insert', row: { ...ROW, s: 'TRUE' } }]);
    expect(out.changes.get('v')!.map((x) => x.row)).toEqual([{ s: 'TRUE' }]);
    expect(r.program.relation('w')!.columns[0]!.type).toBe('VARCHAR');
  });
});

describe('byte forms of the string functions', () => {
  it.each([
    ['TO_HEX(SUBSTRING(bin FROM 2 FOR 3))', '1620'],
    ['TO_HEX(SUBSTRING(bin, 3))', '20'],
    ['TO_HEX(SUBSTRING(bin FROM 0 FOR 2))', '0b16'],
    ['TO_HEX(SUBSTR(bin, 2, -1))', ''],
    ['TO_HEX(LEFT(bin, 2))', '0b16'],
    ['TO_HEX(RIGHT(bin, 2))', '1620'],
    ["POSITION(x'16' IN bin)", 2],
    ["POSITION(x'ff' IN bin)", 0],
    ["TO_HEX(OVERLAY(x'1234567890' PLACING x'0203' FROM 2 FOR 3))", '12020390'],
    ["TO_HEX(OVERLAY(bin PLACING x'ff' FROM 9))", '0b1620ff'],
    ['OCTET_LENGTH(bin)', 3],
    ["MD5(x'0123456789ABCDEF')", 'a1cd1d1fc6491068d91007283ed84489'],
    ['TO_HEX(bin || bin)', '0b16200b1620'],
    ["GUNZIP(x'1f8b08000000000000ff4b4bcd49492d4a0400218115ac07000000')", 'feldera'],
  ])('%s', (expr, want) => {
    expect(evalExpr(expr)).toEqual(want);
  });
});

describe('REAL with an exact number compares as REAL', () => {
  it.each([
    ['r = -57681.18', true],
    ['r IN (-57681.18)', true],
    ['CASE r WHEN -57681.18 THEN 1 ELSE 0 END', 1],
    ['r < -57681.18', false],
  ])('%s', (expr, want) => {
    expect(evalExpr(expr)).toEqual(want);
  });
});

describe('float text as ryu writes it', () => {
  it.each([
    [1, false, '1.0'],
    [-2.088852331899055e16, false, '-2.088852331899055e16'],
    [1234567890123456, false, '1234567890123456.0'],
    [1e16, false, '1e16'],
    [0.00001, false, '0.00001'],
    [0.000001, false, '1e-6'],
    [-38.2711234601246, false, '-38.2711234601246'],
    [0, false, '0.0'],
    [1e13, true, '1e13'],
    [1234567890123, true, '1234567890123.0'],
    [0.000001, true, '0.000001'],
    [1e-7, true, '1e-7'],
  ])('%d (REAL: %s)', (n, real, text) => {
    expect(formatFloatText(n, real)).toBe(text);
  });

  it('CAST of a DOUBLE to VARCHAR uses it', () => {
    expect(evalExpr('CAST(SINH(CAST(-38.2711234601246 AS DOUBLE)) AS VARCHAR)')).toBe('-2.088852331899055e16');
  });
});

describe('CAST between numbers, TIMESTAMP, BOOLEAN and bytes (Feldera sqllib)', () => {
  it.each([
    ['CAST(i AS TIMESTAMP)', '1970-01-01 00:00:00'], // -12 ms, cut to whole seconds toward zero
    ['CAST(dec AS TIMESTAMP)', '1969-12-31 23:59:59'],
    ['CAST(r AS TIMESTAMP)', '1969-12-31 23:59:03'],
    ['CAST(CAST(86400000 AS BIGINT) AS TIMESTAMP)', '1970-01-02 00:00:00'],
    ['CAST(ts AS BIGINT)', 1592749424123],
    ['CAST(CAST(ts AS DECIMAL(15, 0)) AS VARCHAR)', '1592749424123'],
    ['CAST(CAST(ts AS DOUBLE) AS VARCHAR)', '1592749424123.0'],
    ["CAST(CAST(TIME '14:23:44.456' AS TIMESTAMP) AS VARCHAR)", '1970-01-01 14:23:44.456000'], // Feldera's Display: six fraction digits
    ["CAST(TIME '14:23:44.456' AS VARCHAR)", '14:23:44.456000000'], // nine for a TIME
    ["TO_HEX(CAST('hello' AS BINARY))", '68'], // BINARY is BINARY(1)
    ["TO_HEX(CAST(x'0c1620' AS BINARY(4)))", '0c162000'], // BINARY(n) pads with zeros
    ["TO_HEX(CAST(CAST(x'0c1620' AS VARIANT) AS BINARY(4)))", '0c162000'],
    ["CAST(CAST('hi friend!' AS VARIANT) AS CHAR(2))", 'hi'], // a VARIANT cast to CHAR(n) takes its length
    ["CAST(CAST('hi friend!' AS VARIANT) AS CHAR)", 'h'],
    ['CAST(CAST(CAST(ts AS BIGINT) AS REAL) AS VARCHAR)', '1592749500000.0'], // a REAL's shortest digits
    ['CAST(dec AS BOOLEAN)', true],
    ['CAST(CAST(0 AS DOUBLE) AS BOOLEAN)', false],
    ['CAST(r AS BOOLEAN)', true],
    ['TO_HEX(CAST(i AS VARBINARY))', 'f4ffffff'],
    ['TO_HEX(CAST(i AS BINARY))', 'f4'],
    ['SAFE_CAST(ts AS INT)', null],
  ])('%s', (expr, want) => {
    expect(evalExpr(expr)).toEqual(want);
  });

  it('CAST(ts AS INT) past INTEGER is an overflow of the step', () => {
    const r = compile(`${TABLE}\nCREATE VIEW v AS SELECT CAST(ts AS INT) AS x FROM t;`, { outputCase: 'lower' });
    if (!r.ok) throw new Error('not compiled');
    expect(() => r.program.newCircuit().step([{ table: 't', op: 'insert', row: ROW }])).toThrow(/overflow/);
  });

  it.each([
    ['CAST(s AS VARCHAR ARRAY)', 'CAST cannot be used to convert VARCHAR to VARCHAR ARRAY'],
    ['SAFE_CAST(bin AS TIME)', 'SAFE_CAST cannot be used to convert VARBINARY to TIME'],
    ['CAST(m AS ROW(a INT))', 'Cast function cannot convert value of type MAP<VARCHAR, INTEGER> to type ROW'],
    ['SAFE_CAST(i AS ROW(a INT))', 'Cast function cannot convert value of type INTEGER to type ROW'],
    ['SAFE_CAST(m AS MAP<VARCHAR, INT ARRAY>)', 'Cast function cannot convert value of type INTEGER to type INTEGER ARRAY'],
    ["CAST(DATE '2020-01-01' AS INT)", 'Cast function cannot convert value of type DATE to type INTEGER'],
  ])('%s is refused', (expr, message) => {
    expect(refusal(expr)).toContain(message);
  });

  it('<=> and SUBSTR are named as written in refusals', () => {
    expect(refusal('m <=> ARRAY[1]')).toContain("Cannot apply '<=>' to arguments of type");
    expect(refusal('SUBSTR(roww, 2, 3)')).toContain("Cannot apply 'SUBSTR' to arguments of type");
  });
});

describe('a SQL NULL cast to VARIANT (Feldera sqllib: Variant::SqlNull), TYPEOF of a SQL NULL', () => {
  it('the cast is a VARIANT that is never a SQL NULL; TYPEOF of a SQL NULL is the text NULL', () => {
    const r = compile('CREATE TABLE n (i INT, v VARIANT); CREATE VIEW w AS SELECT CAST(i AS VARIANT) AS vi, CAST(NULL AS VARIANT) AS vn, TYPEOF(v) AS tv, v IS NULL AS sql_null FROM n;', {
      outputCase: 'lower',
    });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
    expect(r.program.relation('w')!.columns.map((c) => c.nullable)).toEqual([false, false, false, false]);
    const out = r.program.newCircuit().step([{ table: 'n', op: 'insert', row: { i: null, v: null } }]);
    expect(out.changes.get('w')!.map(({ row }) => row)).toEqual([{ vi: null, vn: null, tv: 'NULL', sql_null: true }]);
  });
});
