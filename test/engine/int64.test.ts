/**
 * Exact 64-bit integers (types/int64.ts): every integer operation is exact over its type's whole range and an
 * overflow (or an integer division by zero) is an EngineStepError naming the view, the expression and the
 * type, after which the circuit is exactly as before the step. Table-driven per type and operation (the
 * limits, one past them, mixed types, NULLs), then the refused step's rollback on state-heavy views.
 */
/* eslint-disable no-loss-of-precision -- on purpose: DOUBLE results and JSON numbers near 2^63 are written as the literals they round to */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compile, EngineStepError, JsonNumberText, jsonText, parseJsonText, type Circuit, type InputChange, type JsonValue } from '../../src/engine/index.js';

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

/** Columns: ti TINYINT, si SMALLINT, i INTEGER, b BIGINT, n INTEGER (always NULL). */
function evalWith(expr: string, row: Record<string, JsonValue>): JsonValue {
  const r = compile(`CREATE TABLE t (ti TINYINT, si SMALLINT, i INTEGER, b BIGINT, n INTEGER); CREATE VIEW v AS SELECT ${expr} AS r FROM t;`);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  const out = r.program.newCircuit().step([{ table: 't', op: 'insert', row }]);
  return out.changes.get('V')![0]!.row.R!;
}

function stepError(fn: () => unknown): EngineStepError {
  try {
    fn();
  } catch (e) {
    if (e instanceof EngineStepError) return e;
    throw e;
  }
  throw new Error('expected an EngineStepError');
}

// [expression, row, result] or [expression, row, 'overflow' | 'division by zero', type]
type Case = [string, Record<string, JsonValue>, JsonValue, string?];

const CASES: Case[] = [
  // TINYINT
  ['ti + 1', { ti: 126 }, 127],
  ['ti + CAST(1 AS TINYINT)', { ti: 127 }, 'overflow', 'TINYINT'],
  ['ti - CAST(1 AS TINYINT)', { ti: -128 }, 'overflow', 'TINYINT'],
  ['ti * CAST(2 AS TINYINT)', { ti: 64 }, 'overflow', 'TINYINT'],
  ['ti * CAST(2 AS TINYINT)', { ti: 63 }, 126],
  ['ti / CAST(-1 AS TINYINT)', { ti: -128 }, 'overflow', 'TINYINT'],
  ['ti % CAST(-1 AS TINYINT)', { ti: -128 }, 0],
  ['-ti', { ti: -128 }, 'overflow', 'TINYINT'],
  ['-ti', { ti: -127 }, 127],
  ['ABS(ti)', { ti: -128 }, 'overflow', 'TINYINT'],
  ['ti + 1', { ti: 127 }, 128], // TINYINT + INTEGER is INTEGER
  // SMALLINT
  ['si + CAST(1 AS SMALLINT)', { si: 32767 }, 'overflow', 'SMALLINT'],
  ['si * si', { si: 181 }, 32761],
  ['si * si', { si: 182 }, 'overflow', 'SMALLINT'],
  ['-si', { si: -32768 }, 'overflow', 'SMALLINT'],
  // INTEGER
  ['i + 1', { i: 2147483646 }, 2147483647],
  ['i + 1', { i: 2147483647 }, 'overflow', 'INTEGER'],
  ['i - 1', { i: -2147483648 }, 'overflow', 'INTEGER'],
  ['i * i', { i: 46340 }, 2147395600],
  ['i * i', { i: 2147483647 }, 'overflow', 'INTEGER'],
  ['i / -1', { i: -2147483648 }, 'overflow', 'INTEGER'],
  ['i / 2', { i: -7 }, -3],
  ['i % 3', { i: -7 }, -1],
  ['i % -3', { i: 7 }, 1],
  ['ABS(i)', { i: -2147483648 }, 'overflow', 'INTEGER'],
  ['i / 0', { i: 1 }, 'division by zero', 'INTEGER'],
  ['i % 0', { i: 1 }, 'division by zero', 'INTEGER'],
  ['MOD(i, 0)', { i: 7 }, 'division by zero', 'INTEGER'],
  ['MOD(i, 3)', { i: 7 }, 1],
  ['i * b', { i: 2147483647, b: 2147483647 }, 4611686014132420609n], // INTEGER * BIGINT is BIGINT, exact
  // BIGINT: the whole range, exact beyond 2^53
  ['b + 1', { b: 9007199254740992n }, 9007199254740993n],
  ['b + 1', { b: String(MAX - 1n) }, MAX],
  ['b + 1', { b: String(MAX) }, 'overflow', 'BIGINT'],
  ['b - 1', { b: String(MIN) }, 'overflow', 'BIGINT'],
  ['b + b', { b: String(MIN / 2n) }, MIN],
  ['b * b', { b: 3037000499 }, 9223372030926249001n],
  ['b * b', { b: 3037000500 }, 'overflow', 'BIGINT'],
  ['b * -1', { b: String(MIN) }, 'overflow', 'BIGINT'],
  ['b / -1', { b: String(MIN) }, 'overflow', 'BIGINT'],
  ['b / 3', { b: String(MAX) }, 3074457345618258602n],
  ['b / 10000', { b: String(MAX) }, 922337203685477], // back within the safe range: a number again
  ['b % 10', { b: String(MIN) }, -8],
  ['-b', { b: String(MIN) }, 'overflow', 'BIGINT'],
  ['-b', { b: String(MAX) }, MIN + 1n],
  ['ABS(b)', { b: String(MIN) }, 'overflow', 'BIGINT'],
  ['ABS(b)', { b: String(MIN + 1n) }, MAX],
  ['b - b', { b: String(MAX) }, 0],
  ['b / 0', { b: String(MAX) }, 'division by zero', 'BIGINT'],
  // functions over bigints
  ['SIGN(b)', { b: String(MIN) }, -1],
  ['CEIL(b) - FLOOR(b) + ROUND(b)', { b: String(MAX) }, MAX],
  ['POWER(b, 1)', { b: String(MAX) }, 9223372036854775807],
  // literals that fit BIGINT are BIGINT (-9223372036854775808 is the negation of a DECIMAL literal, as in Calcite)
  ['b + 9007199254740993', { b: 0 }, 9007199254740993n],
  ['9223372036854775807 - b', { b: 1 }, MAX - 1n],
  ['9223372036854775807 + b', { b: 1 }, 'overflow', 'BIGINT'],
  // comparisons across the number/bigint boundary
  ['b > 9007199254740991', { b: 9007199254740992n }, true],
  ['b = 9223372036854775807', { b: String(MAX) }, true],
  ['b < i', { b: String(MIN), i: 0 }, true],
  // NULLs
  ['ti + n', { ti: 127 }, null],
  ['b * n', { b: String(MAX) }, null],
  ['n / 0', {}, null],
  // casts: narrowing checks, exact widening, strings and floats
  ['CAST(b AS INTEGER)', { b: 2147483647 }, 2147483647],
  ['CAST(b AS INTEGER)', { b: 2147483648 }, 'overflow', 'INTEGER'],
  ['CAST(i AS TINYINT)', { i: 128 }, 'overflow', 'TINYINT'],
  ['CAST(i AS SMALLINT)', { i: -32768 }, -32768],
  ["CAST('9223372036854775807' AS BIGINT)", {}, MAX],
  ["CAST('-9223372036854775809' AS BIGINT)", {}, 'overflow', 'BIGINT'],
  ['CAST(CAST(9.2e18 AS DOUBLE) AS BIGINT)', {}, 9200000000000000000n],
  ['CAST(CAST(1e19 AS DOUBLE) AS BIGINT)', {}, 'overflow', 'BIGINT'],
  ['CAST(b AS DECIMAL(19, 0))', { b: String(MAX) }, '9223372036854775807'],
  ['CAST(CAST(b AS DECIMAL(19, 0)) AS BIGINT)', { b: String(MIN) }, MIN],
  ['CAST(b AS VARCHAR)', { b: String(MIN) }, '-9223372036854775808'],
  ['CAST(b AS DOUBLE)', { b: String(MAX) }, 9223372036854775807],
];

describe('integer operations per type: limits, one past, mixed types, NULLs', () => {
  it.each(CASES)('%s (case %#)', (expr, row, want, type) => {
    if (want === 'overflow' || want === 'division by zero') {
      const e = stepError(() => evalWith(expr, row));
      expect(e.message).toContain(want === 'overflow' ? 'integer overflow' : 'division by zero');
      expect(e.view).toBe('V');
      expect(e.type).toBe(type);
      expect(e.expression.length).toBeGreaterThan(0);
      return;
    }
    expect(evalWith(expr, row)).toEqual(want);
  });

  it('names the view, the expression as SQL text and the type', () => {
    const r = compile('CREATE TABLE t (a INTEGER); CREATE LOCAL VIEW sq AS SELECT a * a AS aa FROM t; CREATE VIEW out AS SELECT aa + 1 AS x FROM sq;');
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const e = stepError(() => r.program.newCircuit().step([{ table: 't', op: 'insert', row: { a: 2147483647 } }]));
    expect(e).toMatchObject({ view: 'SQ', type: 'INTEGER' });
    expect(e.expression).toMatch(/^a \* a \(line 1, column \d+\)$/);
    expect(e.message).toContain('4611686014132420609');
  });

  it('a constant view that overflows fails the creation of the circuit naming the view; an overflowing DEFAULT is a compile error', () => {
    const r = compile('CREATE VIEW c AS SELECT 2147483647 + 1 AS x;');
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(() => r.program.newCircuit()).toThrow(EngineStepError);
    expect(() => r.program.newCircuit()).toThrow(/'2147483647 \+ 1' causes overflow for type INTEGER .*does not fit INTEGER\), in view C/);
    const d = compile('CREATE TABLE t (a INT DEFAULT 2147483647 + 1);');
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.errors[0]).toMatchObject({ kind: 'type', message: expect.stringMatching(/does not fit INTEGER/) });
  });

  it('a value has one form: a bigint only beyond 2^53, so keys, DISTINCT, GROUP BY and joins match across forms', () => {
    const r = compile(`CREATE TABLE t (b BIGINT, k INT);
CREATE VIEW g AS SELECT b, COUNT(*) AS n FROM t GROUP BY b;
CREATE VIEW d AS SELECT DISTINCT b / 2 AS h FROM t;
CREATE VIEW j AS SELECT x.k AS xk, y.k AS yk FROM t x JOIN t y ON x.b = y.b + 1 WHERE x.k <> y.k;`);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    c.step([
      { table: 't', op: 'insert', row: { b: '9007199254740993', k: 1 } },
      { table: 't', op: 'csv', fields: ['9007199254740993', '2'] },
      { table: 't', op: 'insert', row: { b: 9007199254740992n, k: 3 } }, // 2^53: a bigint (not a safe integer)
      { table: 't', op: 'insert', row: { b: 18014398509481984n, k: 4 } }, // h = 2^53
      { table: 't', op: 'insert', row: { b: 18014398509481982n, k: 5 } }, // h = 2^53 - 1: a number
    ]);
    const sorted = (rows: Array<{ row: Record<string, JsonValue> }>) => rows.map((x) => x.row).sort((a, b) => (jsonText(a) < jsonText(b) ? -1 : 1));
    expect(sorted(c.contents('g'))).toEqual(
      sorted([{ row: { B: 18014398509481982n, N: 1 } }, { row: { B: 18014398509481984n, N: 1 } }, { row: { B: 9007199254740992n, N: 1 } }, { row: { B: 9007199254740993n, N: 2 } }]),
    );
    expect(
      c
        .contents('d')
        .map((x) => x.row.H)
        .sort(),
    ).toEqual([9007199254740991, 9007199254740992n, 4503599627370496].sort());
    expect(sorted(c.contents('j'))).toEqual(sorted([{ row: { XK: 1, YK: 3 } }, { row: { XK: 2, YK: 3 } }]));
    // deleting through the other form of input removes the same row
    c.step([{ table: 't', op: 'delete', row: { b: 9007199254740993n, k: 1 } }]);
    expect(c.contents('g').find((x) => x.row.B === 9007199254740993n)?.row.N).toBe(1);
  });

  it('a JS number beyond 2^53 as input is refused (its digits are gone); bigints and digit strings are exact', () => {
    const r = compile('CREATE TABLE t (b BIGINT, i INTEGER);');
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    expect(() => c.step([{ table: 't', op: 'insert', row: { b: 2 ** 60 } }])).toThrow(/lost|beyond/);
    expect(() => c.step([{ table: 't', op: 'insert', row: { b: String(MAX + 1n) } }])).toThrow(/expected i64/);
    expect(() => c.step([{ table: 't', op: 'insert', row: { i: 2147483648n } }])).toThrow(/expected i32/);
    expect(() => c.step([{ table: 't', op: 'insert', row: { i: '5' } }])).toThrow(/invalid type: string "5", expected i32/); // digits as a string: BIGINT only
    expect(() => c.step([{ table: 't', op: 'csv', fields: ['9223372036854775808', ''] }])).toThrow(/too large to fit/);
    c.step([
      { table: 't', op: 'insert', row: { b: MIN, i: -2147483648 } },
      { table: 't', op: 'csv', fields: [String(MAX), '2147483647'] },
    ]);
    expect(
      c
        .contents('t')
        .map((x) => x.row)
        .sort((a, b) => Number(a.I) - Number(b.I)),
    ).toEqual([
      { B: MIN, I: -2147483648 },
      { B: MAX, I: 2147483647 },
    ]);
    const arr = compile('CREATE TABLE a (xs BIGINT ARRAY, v VARIANT);');
    if (!arr.ok) throw new Error(JSON.stringify(arr.errors));
    const ca = arr.program.newCircuit();
    ca.step([{ table: 'a', op: 'csv', fields: [`[${MAX}, 1]`, `{"n": ${MIN}}`] }]);
    expect(jsonText(ca.contents('a')[0]!.row)).toBe(`{"XS":[${MAX},1],"V":{"n":${MIN}}}`);
    // the codec gives the same forms
    const codec = r.program.inputCodec('t')!;
    expect(codec.columns[0]!.fromJson('9223372036854775807')).toBe(MAX);
    expect(codec.columns[0]!.fromCsv('-9007199254740993')).toBe(-9007199254740993n);
    expect(codec.columns[0]!.fromJson(12)).toBe(12);
  });
});

describe('aggregates over integers', () => {
  const prog = compile(`CREATE TABLE t (g INT, i INTEGER, b BIGINT);
CREATE VIEW s AS SELECT g, SUM(i) AS si, SUM(b) AS sb, AVG(b) AS ab, MIN(b) AS mn, MAX(b) AS mx, COUNT(b) AS c FROM t GROUP BY g;`);
  if (!prog.ok) throw new Error(JSON.stringify(prog.errors));
  const row = (g: number, i: JsonValue, b: JsonValue): InputChange => ({ table: 't', op: 'insert', row: { g, i, b } });

  it('SUM, AVG, MIN, MAX are exact over the whole BIGINT range', () => {
    const c = prog.program.newCircuit();
    c.step([row(1, 1, String(MAX)), row(1, 2, String(MAX - 2n)), row(1, 3, String(-MAX))]);
    expect(c.contents('s')[0]!.row).toEqual({ G: 1, SI: 6, SB: MAX - 2n, AB: (MAX - 2n) / 3n, MN: -MAX, MX: MAX, C: 3 });
    expect(stepError(() => c.step([row(2, 5, String(MAX)), row(2, 5, String(MAX))])).message).toContain('SUM(b)');
    expect(c.contents('s').find((x) => x.row.G === 2)).toBeUndefined();
  });

  it('a SUM beyond its type (the argument type, as Feldera) refuses the step; partial sums may pass the limit', () => {
    const c = prog.program.newCircuit();
    const e = stepError(() => c.step([row(1, 2147483647, 1), row(1, 1, 1)]));
    expect(e).toMatchObject({ view: 'S', type: 'INTEGER' });
    expect(e.expression).toMatch(/^SUM\(i\)/);
    expect(c.contents('s')).toEqual([]);
    // MAX + 1 - 1 in one step: the result fits, whatever the order
    c.step([row(1, 0, String(MAX)), row(1, 0, 1), row(1, 0, -1)]);
    expect(c.contents('s')[0]!.row.SB).toBe(MAX);
    const e2 = stepError(() => c.step([row(1, 0, 1)]));
    expect(e2).toMatchObject({ view: 'S', type: 'BIGINT' });
    expect(c.contents('s')[0]!.row.SB).toBe(MAX);
    // deleting brings it back in range
    c.step([{ table: 't', op: 'delete', row: { g: 1, i: 0, b: 1 } }, row(1, 0, 1)]);
    expect(c.contents('s')[0]!.row.SB).toBe(MAX);
  });
});

describe('JSON text of 64-bit integers', () => {
  it('parseJsonText keeps the digits of big integer literals; jsonText prints them back exactly', () => {
    const text = '{"a":9223372036854775807,"b":[-9223372036854775808,1.5e+300,12345678901234567.5],"s":"99999999999999999999","c":9007199254740991}';
    const v = parseJsonText(text) as Record<string, JsonValue>;
    expect(v.a).toBe(MAX);
    // a long non-integer literal keeps its text too (json-text.test.ts)
    expect(v.b).toEqual([MIN, 1.5e300, new JsonNumberText('12345678901234567.5')]);
    expect(v.s).toBe('99999999999999999999');
    expect(v.c).toBe(9007199254740991);
    expect(jsonText(v)).toBe(text);
    expect(jsonText({ x: 1, y: 'z' })).toBe('{"x":1,"y":"z"}');
    expect(() => parseJsonText('{"a":99999999999999999999')).toThrow(SyntaxError);
  });
});

/* ---------- the refused step: exactly as if it never came ---------- */

const ROLLBACK_SQL = `
CREATE TABLE t (k INT NOT NULL PRIMARY KEY, g INT, v INTEGER, ts TIMESTAMP NOT NULL LATENESS INTERVAL '2' HOUR);
CREATE TABLE u (g INT, w BIGINT);
CREATE VIEW sums AS SELECT g, SUM(v) AS s, COUNT(*) AS n FROM t GROUP BY g;
CREATE VIEW joined AS SELECT t.k, u.w, t.v * u.w AS p FROM t JOIN u ON t.g = u.g;
CREATE VIEW dist AS SELECT DISTINCT g, v / 1000 AS bucket FROM t;
CREATE VIEW top2 AS SELECT k, g, v FROM (SELECT k, g, v, ROW_NUMBER() OVER (PARTITION BY g ORDER BY v DESC, k) AS rn FROM t) x WHERE rn <= 2;
CREATE VIEW daily WITH ('emit_final' = 'day') AS SELECT TIMESTAMP_TRUNC(ts, DAY) AS day, SUM(v) AS s FROM t GROUP BY TIMESTAMP_TRUNC(ts, DAY);
CREATE VIEW total AS SELECT SUM(w) AS sw FROM u;
`;
const VIEWS = ['t', 'u', 'sums', 'joined', 'dist', 'top2', 'daily', 'total'];

function rollbackProgram() {
  const r = compile(ROLLBACK_SQL);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

function state(c: Circuit): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const v of VIEWS)
    out[v] = c
      .contents(v)
      .map((x) => jsonText(x))
      .sort();
  return out;
}

function changes(res: ReturnType<Circuit['step']>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, rows] of res.changes) out[name] = rows.map((x) => jsonText(x)).sort();
  return out;
}

const HOUR = 3_600_000;
const ts = (h: number) => new Date(Date.UTC(2024, 0, 1) + h * HOUR).toISOString().slice(0, 19).replace('T', ' ');

describe('a refused step leaves the circuit as if it never came', () => {
  it('refused and accepted steps interleaved: every later step and every view equal a fresh circuit fed only the accepted steps', () => {
    const program = rollbackProgram();
    const big = 2147483647;
    const change = fc.oneof(
      fc
        .record({
          k: fc.integer({ min: 1, max: 8 }),
          g: fc.integer({ min: 1, max: 3 }),
          v: fc.oneof(fc.integer({ min: -5000, max: 5000 }), fc.constantFrom(big, -big - 1, big - 1)),
          h: fc.integer({ min: 0, max: 80 }),
        })
        .map((r): InputChange => ({ table: 't', op: 'upsert', row: { k: r.k, g: r.g, v: r.v, ts: ts(r.h) } })),
      fc.integer({ min: 1, max: 8 }).map((k): InputChange => ({ table: 't', op: 'delete', row: { k } })),
      fc
        .record({ g: fc.integer({ min: 1, max: 3 }), w: fc.oneof(fc.integer({ min: -9, max: 9 }), fc.constantFrom(String(MAX), String(MIN), '4294967296')) })
        .map((r): InputChange => ({ table: 'u', op: 'insert', row: r })),
    );
    let refusedTotal = 0;
    fc.assert(
      fc.property(fc.array(fc.array(change, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }), (steps) => {
        const a = program.newCircuit();
        const fresh = program.newCircuit();
        for (const batch of steps) {
          const before = state(a);
          let got: ReturnType<Circuit['step']> | undefined;
          try {
            got = a.step(batch);
          } catch (e) {
            if (!(e instanceof EngineStepError)) throw e;
            refusedTotal++;
            expect(state(a)).toEqual(before);
            continue;
          }
          const want = fresh.step(batch);
          expect(changes(got)).toEqual(changes(want));
          expect(state(a)).toEqual(state(fresh));
        }
      }),
      { numRuns: 60, seed: 16 },
    );
    expect(refusedTotal).toBeGreaterThan(0); // the property did see refused steps
  });

  it('a refused step keeps the table, the watermark and the held emit_final rows as they were', () => {
    const c = rollbackProgram().newCircuit();
    c.step([{ table: 't', op: 'upsert', row: { k: 1, g: 1, v: 10, ts: ts(1) } }]);
    // would advance the watermark past day 1 and replace k = 1, but overflows SUM(v) of group 2
    const e = stepError(() =>
      c.step([
        { table: 't', op: 'upsert', row: { k: 1, g: 1, v: 20, ts: ts(30) } },
        { table: 't', op: 'upsert', row: { k: 2, g: 2, v: 2147483647, ts: ts(30) } },
        { table: 't', op: 'upsert', row: { k: 3, g: 2, v: 1, ts: ts(30) } },
      ]),
    );
    expect(e.view).toBe('SUMS');
    expect(c.contents('t').map((x) => x.row.V)).toEqual([10]);
    expect(c.contents('daily')).toEqual([]);
    // a row of day 1 is not late (the watermark did not move), and day 1 becomes final with it
    const r = c.step([
      { table: 't', op: 'upsert', row: { k: 4, g: 1, v: 5, ts: ts(2) } },
      { table: 't', op: 'upsert', row: { k: 5, g: 3, v: 1, ts: ts(30) } },
    ]);
    expect(r.changes.get('DAILY')).toEqual([{ row: { DAY: '2024-01-01 00:00:00', S: 15 }, weight: 1 }]);
  });
});
