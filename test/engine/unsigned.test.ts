/**
 * TINYINT/SMALLINT/INTEGER/BIGINT UNSIGNED (types.ts UTINYINT..UBIGINT, int64.ts): the schema's type names, JSON
 * and CSV input over the whole range (u64 beyond 2^53 exact), Feldera's typing of mixed signed/unsigned
 * arithmetic (the wider type; the unsigned one of equal widths), its overflow and conversion messages, the
 * refused unary minus, casts, comparisons and aggregates. Postgres has no unsigned types: results are computed
 * by hand.
 */
import { describe, expect, it } from 'vitest';
import { compile, EngineStepError, type CompiledProgram, type JsonRow } from '../../src/engine/index.js';

function prog(sql: string): CompiledProgram {
  const r = compile(sql, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program;
}

function compileError(sql: string): string {
  const r = compile(sql, { outputCase: 'lower' });
  if (r.ok) throw new Error('compiled');
  return r.errors.map((e) => e.message).join('; ');
}

const TABLE = 'CREATE TABLE t (id INT, a TINYINT UNSIGNED, b SMALLINT UNSIGNED, c INT UNSIGNED, d BIGINT UNSIGNED NOT NULL);';
const U64_MAX = 18446744073709551615n;

/** The rows of a view after one step inserting `rows` into t. */
function run(views: string, rows: JsonRow[], view = 'v'): Record<string, unknown>[] {
  const c = prog(TABLE + views).newCircuit();
  c.step(rows.map((row) => ({ table: 't', op: 'insert' as const, row })));
  return c.contents(view).map(({ row }) => row);
}

/** The message of the step refused when `rows` go in. */
function stepError(views: string, rows: JsonRow[]): string {
  const c = prog(TABLE + views).newCircuit();
  try {
    c.step(rows.map((row) => ({ table: 't', op: 'insert' as const, row })));
  } catch (e) {
    expect(e).toBeInstanceOf(EngineStepError);
    return (e as Error).message;
  }
  throw new Error('the step was accepted');
}

describe('UNSIGNED integer types', () => {
  it("names the columns as Feldera's schema does (UTINYINT ...); UNSIGNED alone and INT UNSIGNED are INTEGER UNSIGNED", () => {
    const p = prog('CREATE TABLE s (a TINYINT UNSIGNED, b SMALLINT UNSIGNED NOT NULL, c INTEGER UNSIGNED, d INT UNSIGNED, e UNSIGNED, f BIGINT UNSIGNED);');
    expect(p.tables[0]!.columns.map((c) => [c.name, c.type, c.nullable])).toEqual([
      ['a', 'UTINYINT', true],
      ['b', 'USMALLINT', false],
      ['c', 'UINTEGER', true],
      ['d', 'UINTEGER', true],
      ['e', 'UINTEGER', true],
      ['f', 'UBIGINT', true],
    ]);
  });

  it('reads JSON over the whole range (u64 exact beyond 2^53, as a number or a string) and refuses what is out of range, as serde says', () => {
    const rows = run('CREATE MATERIALIZED VIEW v AS SELECT * FROM t;', [
      { id: 1, a: 255, b: 65535, c: 4294967295, d: U64_MAX },
      { id: 2, a: 0, b: 0, c: 0, d: '9007199254740993' },
    ]);
    expect(rows.sort((x, y) => (x.id as number) - (y.id as number))).toEqual([
      { id: 1, a: 255, b: 65535, c: 4294967295, d: U64_MAX },
      { id: 2, a: 0, b: 0, c: 0, d: 9007199254740993n },
    ]);
    const c = prog(TABLE).newCircuit();
    expect(() => c.step([{ table: 't', op: 'insert', row: { id: 1, a: 256, d: 0 } }])).toThrow(/invalid value: integer `256`, expected u8/);
    expect(() => c.step([{ table: 't', op: 'insert', row: { id: 1, a: -1, d: 0 } }])).toThrow(/expected u8/);
    expect(() => c.step([{ table: 't', op: 'insert', row: { id: 1, c: 4294967296, d: 0 } }])).toThrow(/expected u32/);
    expect(() => c.step([{ table: 't', op: 'insert', row: { id: 1, d: U64_MAX + 1n } }])).toThrow(/expected u64/);
    expect(() => c.step([{ table: 't', op: 'csv', fields: ['1', '-1', '', '', '0'] }])).toThrow(/number too large to fit in target type/);
    c.step([{ table: 't', op: 'csv', fields: ['1', '200', '', '', '18446744073709551615'] }]);
  });

  it('types mixed arithmetic as Feldera (the wider type; the unsigned one of equal widths) and computes it exactly', () => {
    const p = prog(
      TABLE +
        `CREATE MATERIALIZED VIEW v AS SELECT a + a AS aa, a + 1 AS a_int, b * CAST(2 AS SMALLINT) AS b_small, c + 1 AS c_int, d - 1 AS d_big,
         CAST(a AS BIGINT) + d AS mixed64, d / 3 AS d_div, d % 10 AS d_mod, c / 7 AS c_div FROM t;`,
    );
    expect(Object.fromEntries(p.views[0]!.columns.map((c) => [c.name, c.type]))).toEqual({
      aa: 'UTINYINT',
      a_int: 'INTEGER',
      b_small: 'USMALLINT',
      c_int: 'UINTEGER',
      d_big: 'UBIGINT',
      mixed64: 'UBIGINT',
      d_div: 'UBIGINT',
      d_mod: 'UBIGINT',
      c_div: 'UINTEGER',
    });
    const c = p.newCircuit();
    c.step([{ table: 't', op: 'insert', row: { id: 1, a: 100, b: 30000, c: 4294967290, d: U64_MAX - 200n } }]);
    expect(c.contents('v').map(({ row }) => row)).toEqual([
      {
        aa: 200,
        a_int: 101,
        b_small: 60000,
        c_int: 4294967291,
        d_big: U64_MAX - 201n,
        mixed64: U64_MAX - 100n,
        d_div: (U64_MAX - 200n) / 3n,
        d_mod: Number((U64_MAX - 200n) % 10n),
        c_div: Math.trunc(4294967290 / 7),
      },
    ]);
  });

  it("refuses an overflowing step with Feldera's text: '250 + 200' causes overflow for type TINYINT UNSIGNED", () => {
    const V = 'CREATE MATERIALIZED VIEW v AS SELECT a + a AS x, b * b AS y, c + c AS z, d + d AS w FROM t;';
    expect(stepError(V, [{ id: 1, a: 250, d: 0 }])).toContain("'250 + 250' causes overflow for type TINYINT UNSIGNED");
    expect(stepError(V, [{ id: 1, b: 65430, d: 0 }])).toContain("'65430 * 65430' causes overflow for type SMALLINT UNSIGNED");
    expect(stepError(V, [{ id: 1, c: 4294966290, d: 0 }])).toContain("'4294966290 + 4294966290' causes overflow for type INTEGER UNSIGNED");
    expect(stepError(V, [{ id: 1, d: 12446742073709541615n }])).toContain("'12446742073709541615 + 12446742073709541615' causes overflow for type BIGINT UNSIGNED");
    // below zero is an overflow too
    expect(stepError('CREATE MATERIALIZED VIEW v AS SELECT a - CAST(1 AS TINYINT UNSIGNED) AS x FROM t;', [{ id: 1, a: 0, d: 0 }])).toContain("'0 - 1' causes overflow for type TINYINT UNSIGNED");
    // a signed operand is converted to the unsigned result type first: -3 + 5 is an error, not 2
    expect(stepError('CREATE MATERIALIZED VIEW v AS SELECT c + CAST(-3 AS INT) AS x FROM t;', [{ id: 1, c: 5, d: 0 }])).toContain(
      'Error converting -3 to INTEGER UNSIGNED: out of range integral type conversion attempted',
    );
  });

  it("casts: in range both ways; out of range is Feldera's conversion error", () => {
    const rows = run(
      `CREATE MATERIALIZED VIEW v AS SELECT CAST(a AS TINYINT) AS small_a, CAST(d AS VARCHAR) AS d_text, CAST('255' AS TINYINT UNSIGNED) AS from_text,
       CAST(d AS DOUBLE) AS d_double, CAST(d AS DECIMAL(20, 0)) AS d_dec, CAST(c AS BIGINT UNSIGNED) AS c_wide FROM t;`,
      [{ id: 1, a: 100, c: 7, d: U64_MAX }],
    );
    expect(rows).toEqual([{ small_a: 100, d_text: '18446744073709551615', from_text: 255, d_double: 2 ** 64, d_dec: '18446744073709551615', c_wide: 7 }]);
    expect(stepError('CREATE MATERIALIZED VIEW v AS SELECT CAST(a AS TINYINT) AS x FROM t;', [{ id: 1, a: 200, d: 0 }])).toContain(
      'Error converting 200 to TINYINT: out of range integral type conversion attempted',
    );
    expect(stepError('CREATE MATERIALIZED VIEW v AS SELECT CAST(id AS SMALLINT UNSIGNED) AS x FROM t;', [{ id: -1, d: 0 }])).toContain(
      'Error converting -1 to SMALLINT UNSIGNED: out of range integral type conversion attempted',
    );
  });

  it('compares exactly across the u64 range and with signed values', () => {
    const rows = run('CREATE MATERIALIZED VIEW v AS SELECT id, d > CAST(9223372036854775807 AS BIGINT UNSIGNED) AS above_i64, a < 300 AS below_300, c = 4294967295 AS c_max FROM t;', [
      { id: 1, a: 255, c: 4294967295, d: U64_MAX },
      { id: 2, a: 0, c: 1, d: 5 },
    ]);
    expect(rows.sort((x, y) => (x.id as number) - (y.id as number))).toEqual([
      { id: 1, above_i64: true, below_300: true, c_max: true },
      { id: 2, above_i64: false, below_300: true, c_max: false },
    ]);
  });

  it('refuses unary minus on an unsigned value, as Feldera', () => {
    expect(compileError(TABLE + 'CREATE VIEW v AS SELECT -a AS x FROM t;')).toContain('Unary minus cannot be applied to unsigned values');
    expect(compileError(TABLE + 'CREATE VIEW v AS SELECT -d AS x FROM t;')).toContain('Unary minus cannot be applied to unsigned values');
  });

  it("aggregates: SUM in the column's type (overflow is Feldera's conversion error), AVG truncated, MIN/MAX/BIT_OR over the u64 range", () => {
    const rows = run('CREATE MATERIALIZED VIEW v AS SELECT SUM(a) AS sa, SUM(c) AS sc, AVG(a) AS va, AVG(c) AS vc, MIN(d) AS mn, MAX(d) AS mx, BIT_OR(d) AS bo FROM t;', [
      { id: 1, a: 64, c: 4000000000, d: U64_MAX - 1n },
      { id: 2, a: 45, c: 1, d: 1 },
      { id: 3, a: 48, c: 2, d: 4 },
    ]);
    expect(rows).toEqual([{ sa: 157, sc: 4000000003, va: 52, vc: 1333333334, mn: 1, mx: U64_MAX - 1n, bo: U64_MAX }]);
    expect(
      stepError('CREATE MATERIALIZED VIEW v AS SELECT SUM(a) AS s FROM t;', [
        { id: 1, a: 255, d: 0 },
        { id: 2, a: 1, d: 0 },
      ]),
    ).toContain('Error converting 256 to TINYINT UNSIGNED: out of range integral type conversion attempted');
    expect(
      stepError('CREATE MATERIALIZED VIEW v AS SELECT SUM(d) AS s FROM t;', [
        { id: 1, d: U64_MAX },
        { id: 2, d: 1 },
      ]),
    ).toContain('Error converting 18446744073709551616 to BIGINT UNSIGNED');
  });
});
