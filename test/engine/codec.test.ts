/** CompiledProgram.inputCodec / valueCodec: the engine's own per-column input rules (JSON and CSV) for the pipeline ingress. */
import { describe, expect, it } from 'vitest';
import { compile, EngineValueError, type ColumnCodec, type JsonValue } from '../../src/engine/index.js';

const r = compile(`CREATE TABLE t (id INT NOT NULL, d DECIMAL(6, 2), ts TIMESTAMP, tags VARCHAR ARRAY, m MAP<VARCHAR, INT>, v VARIANT, b VARBINARY, ok BOOLEAN);
  CREATE VIEW w AS SELECT * FROM t;`);
if (!r.ok) throw new Error(JSON.stringify(r.errors));
const program = r.program;

describe('inputCodec', () => {
  it('describes the columns and normalises JSON values to the output form', () => {
    const c = program.inputCodec('T')!;
    expect(c.columns.map((x) => [x.name, x.type, x.nullable])).toEqual([
      ['ID', 'INTEGER', false],
      ['D', 'DECIMAL(6, 2)', true],
      ['TS', 'TIMESTAMP', true],
      ['TAGS', 'VARCHAR ARRAY', true],
      ['M', 'MAP<VARCHAR, INTEGER>', true],
      ['V', 'VARIANT', true],
      ['B', 'VARBINARY', true],
      ['OK', 'BOOLEAN', true],
    ]);
    const [id, d, ts, tags, m, v, b] = c.columns;
    expect(id!.fromJson(7)).toBe(7);
    expect(d!.fromJson(1.5)).toBe('1.50');
    expect(d!.fromJson('3')).toBe('3.00');
    expect(ts!.fromJson('2024-01-02T03:04:05Z')).toBe('2024-01-02 03:04:05');
    expect(tags!.fromJson(['a', null])).toEqual(['a', null]);
    expect(m!.fromJson({ b: 2, a: 1 })).toEqual({ a: 1, b: 2 });
    expect(v!.fromJson({ z: [1, { y: null }] })).toEqual({ z: [1, { y: null }] });
    expect(b!.fromJson('0AFF')).toEqual([10, 255]);
    expect(d!.fromJson(null)).toBeNull();
  });

  it('reads CSV fields, an empty field being NULL', () => {
    const [id, d, ts, tags, m, v, , ok] = program.inputCodec('t')!.columns;
    expect(id!.fromCsv('42')).toBe(42);
    expect(d!.fromCsv('2.5')).toBe('2.50');
    expect(ts!.fromCsv('2024-01-02 03:04:05')).toBe('2024-01-02 03:04:05');
    expect(tags!.fromCsv('["x"]')).toEqual(['x']);
    expect(m!.fromCsv('{"k": 1}')).toEqual({ k: 1 });
    expect(v!.fromCsv('[true]')).toEqual([true]);
    expect(ok!.fromCsv('true')).toBe(true);
    expect(d!.fromCsv('')).toBeNull();
  });

  it('refuses values that do not fit, with serde-like messages', () => {
    const [id, d, , tags, m, , b, ok] = program.inputCodec('t')!.columns;
    expect(() => id!.fromJson('x')).toThrow(EngineValueError);
    expect(() => id!.fromJson('x')).toThrow('invalid type: string "x", expected i32');
    expect(() => id!.fromJson(null)).toThrow('invalid type: null, expected i32');
    expect(() => id!.fromCsv('')).toThrow('empty field for a NOT NULL column, expected i32');
    expect(() => id!.fromJson(2 ** 31)).toThrow(/invalid value: integer `2147483648`, expected i32/);
    expect(() => d!.fromJson(12345.6)).toThrow('decimal number 12345.6 is outside the value range -9999.99 to 9999.99 (inclusive)');
    expect(() => tags!.fromJson('a')).toThrow('invalid type: string "a", expected a sequence');
    expect(() => m!.fromJson([1])).toThrow('invalid type: sequence, expected a map');
    expect(() => b!.fromJson('xyz')).toThrow(/expected an array of bytes or a hex string/);
    expect(() => ok!.fromCsv('yes')).toThrow(/`true` or `false`/);
    expect(() => id!.fromCsv('1.5')).toThrow(/invalid digit/);
    expect(() => id!.fromCsv('3000000000')).toThrow('number too large to fit in target type');
    expect(() => tags!.fromCsv('[x')).toThrow('expected a sequence written as JSON');
  });

  it('words its messages as serde does (Feldera): the JSON type of the value, what was expected', () => {
    const r2 = compile(`CREATE TABLE m (i TINYINT, s VARCHAR, dt DATE, t TIME, ts TIMESTAMP, f DOUBLE, r REAL, dec DECIMAL(5, 2), big BIGINT)`);
    if (!r2.ok) throw new Error(JSON.stringify(r2.errors));
    const [i, s, dt, t, ts, f, , dec, big] = r2.program.inputCodec('m')!.columns;
    const cases: Array<[ColumnCodec, JsonValue, string]> = [
      [i!, 1.5, 'invalid type: floating point `1.5`, expected i8'],
      [i!, 200, 'invalid value: integer `200`, expected i8'],
      [i!, true, 'invalid type: boolean `true`, expected i8'],
      [s!, 5, 'invalid type: integer `5`, expected a string'],
      [s!, { a: 1 }, 'invalid type: map, expected a string'],
      [dt!, '2021-02-30', 'invalid value: string "2021-02-30", expected a date (YYYY-MM-DD)'],
      [dt!, 7, 'invalid type: integer `7`, expected a date (YYYY-MM-DD)'],
      [t!, '25:00:00', 'invalid value: string "25:00:00", expected a time (HH:MM:SS[.fffffffff])'],
      [ts!, 'yesterday', 'invalid value: string "yesterday", expected a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])'],
      [f!, '1', 'invalid type: string "1", expected f64'],
      [dec!, 'abc', 'invalid type: string "abc", expected a decimal number'],
      [dec!, 1000, 'decimal number 1000 is outside the value range -999.99 to 999.99 (inclusive)'],
      // eslint-disable-next-line no-loss-of-precision -- on purpose: the literal is read as 9007199254740992, as JSON.parse reads it
      [big!, 9007199254740993, 'invalid value: integer `9007199254740992` is beyond ±9007199254740991'],
    ];
    for (const [codec, value, message] of cases) expect(() => codec.fromJson(value), `${codec.name} ${JSON.stringify(value)}`).toThrow(message);
    // BIGINT is exact over 64 bits: a CSV field, a bigint (parseJsonText) or a string of digits beyond 2^53
    expect(big!.fromCsv('9007199254740993')).toBe(9007199254740993n);
    expect(big!.fromJson(9223372036854775807n)).toBe(9223372036854775807n);
    expect(big!.fromJson('-9223372036854775808')).toBe(-9223372036854775808n);
    expect(() => big!.fromJson(9223372036854775808n)).toThrow('invalid value: integer `9223372036854775808`, expected i64');
    expect(() => big!.fromCsv('99999999999999999999')).toThrow('number too large to fit in target type');
    expect(big!.fromCsv('-9007199254740991')).toBe(-9007199254740991);
  });

  it('CSV: a quoted empty field is the empty string for a string column, NULL for the others; VARIANT fields are JSON', () => {
    const r2 = compile(`CREATE TABLE q (s VARCHAR, c CHAR(3), n INT, a VARCHAR ARRAY, v VARIANT, sn VARCHAR NOT NULL)`);
    if (!r2.ok) throw new Error(JSON.stringify(r2.errors));
    const [s, c, n, a, v, sn] = r2.program.inputCodec('q')!.columns;
    expect(s!.fromCsv('', true)).toBe('');
    expect(s!.fromCsv('')).toBeNull();
    expect(s!.fromCsv(' x ')).toBe(' x ');
    expect(c!.fromCsv('', true)).toBe('   ');
    expect(n!.fromCsv('', true)).toBeNull();
    expect(a!.fromCsv('', true)).toBeNull();
    expect(v!.fromCsv('null')).toBeNull();
    expect(v!.fromCsv('"null"')).toBe('null');
    expect(v!.fromCsv('{"b":1,"a":[2]}')).toEqual({ a: [2], b: 1 });
    expect(sn!.fromCsv('', true)).toBe('');
    expect(() => sn!.fromCsv('')).toThrow('empty field for a NOT NULL column, expected a string');
  });

  it('TIMESTAMP from JSON also takes milliseconds since the epoch; dates and times come back in their output form', () => {
    const r2 = compile(`CREATE TABLE e (ts TIMESTAMP, dt DATE, t TIME)`);
    if (!r2.ok) throw new Error(JSON.stringify(r2.errors));
    const [ts, dt, t] = r2.program.inputCodec('e')!.columns;
    expect(ts!.fromJson(1_700_000_000_123)).toBe('2023-11-14 22:13:20.123');
    expect(ts!.fromJson(' 2024-02-25 12:12:33 ')).toBe('2024-02-25 12:12:33');
    expect(dt!.fromJson('2024-2-5')).toBe('2024-02-05');
    expect(t!.fromJson('9:05')).toBe('09:05:00');
  });

  it('gives every spelling of a DATE, TIME, TIMESTAMP or DECIMAL in its one output form (JSON and CSV alike)', () => {
    const r2 = compile(`CREATE TABLE o (dt DATE, t TIME, ts TIMESTAMP, d DECIMAL(8, 2), d0 DECIMAL(6, 0))`);
    if (!r2.ok) throw new Error(JSON.stringify(r2.errors));
    const [dt, t, ts, d, d0] = r2.program.inputCodec('o')!.columns;
    const cases: Array<[ColumnCodec, string, string]> = [
      [dt!, '2024-02-29', '2024-02-29'],
      [dt!, '2024-2-9', '2024-02-09'],
      [dt!, ' 2024-02-09 ', '2024-02-09'],
      [t!, '10:11:12', '10:11:12'],
      [t!, '10:11:12.120', '10:11:12.12'],
      [t!, '10:11:12.000000001', '10:11:12.000000001'],
      [t!, '1:02', '01:02:00'],
      [ts!, '2024-02-29 10:11:12', '2024-02-29 10:11:12'],
      [ts!, '2024-02-29 10:11:12.5', '2024-02-29 10:11:12.5'],
      [ts!, '2024-02-29 10:11:12.500', '2024-02-29 10:11:12.5'],
      [ts!, '2024-02-29T10:11:12', '2024-02-29 10:11:12'],
      [ts!, '2024-02-29 10:11:12+01:00', '2024-02-29 09:11:12'],
      [ts!, '2024-02-29', '2024-02-29 00:00:00'],
      [d!, '12.50', '12.50'],
      [d!, '12.5', '12.50'],
      [d!, '-0.00', '0.00'],
      [d!, '-0.50', '-0.50'],
      [d!, '007.25', '7.25'],
      [d!, '+1.00', '1.00'],
      [d!, '1e2', '100.00'],
      [d0!, '42', '42'],
      [d0!, '-0', '0'],
      [d0!, '42.5', '42'], // digits beyond the scale are dropped (toward zero), as Feldera reads a DECIMAL
      [d0!, '-42.9', '-42'],
      [d!, '9999.999', '9999.99'],
    ];
    for (const [codec, text, out] of cases) {
      expect(codec.fromJson(text), `${codec.name} ${text}`).toBe(out);
      expect(codec.fromCsv(text), `${codec.name} CSV ${text}`).toBe(out);
    }
    for (const bad of ['2024-02-30', '2024-13-01', '24-02-01x']) expect(() => dt!.fromJson(bad)).toThrow('expected a date');
    expect(() => t!.fromCsv('24:00:00')).toThrow('expected a time');
    expect(() => ts!.fromJson('2024-02-29 24:00:00')).toThrow('expected a timestamp');
    expect(() => d!.fromCsv('1000000.00')).toThrow('decimal number 1000000 is outside the value range -999999.99 to 999999.99 (inclusive)');
  });

  it('valueCodec reads the values of a view as well; NULL is refused only in a NOT NULL column', () => {
    const v = program.valueCodec('w')!;
    expect(v.columns.map((c) => c.name)).toEqual(['ID', 'D', 'TS', 'TAGS', 'M', 'V', 'B', 'OK']);
    expect(v.columns[1]!.fromJson('2')).toBe('2.00');
    expect(() => v.columns[0]!.fromJson(null)).toThrow('expected i32');
    expect(program.valueCodec('t')!.columns[0]!.name).toBe('ID');
    expect(program.valueCodec('nope')).toBeUndefined();
  });

  it('says which JSON values it keeps as they are (keeps), and fromJson gives exactly those back', () => {
    const k = compile(`CREATE TABLE k (t TINYINT, s SMALLINT, i INT, b BIGINT, d DOUBLE, v VARCHAR, c VARCHAR(3), ok BOOLEAN NOT NULL, dec DECIMAL(5, 1), r REAL, ts TIMESTAMP);`);
    if (!k.ok) throw new Error(JSON.stringify(k.errors));
    const cols = k.program.inputCodec('k')!.columns;
    expect(cols.map((c) => c.keeps)).toEqual([
      { kind: 'int', lo: -128, hi: 127 },
      { kind: 'int', lo: -32768, hi: 32767 },
      { kind: 'int', lo: -2147483648, hi: 2147483647 },
      { kind: 'int', lo: Number.MIN_SAFE_INTEGER, hi: Number.MAX_SAFE_INTEGER },
      { kind: 'number' },
      { kind: 'string' },
      { kind: 'string' },
      { kind: 'boolean' },
      null,
      null,
      null,
    ]);
    const kept = (c: ColumnCodec, v: JsonValue): boolean => {
      const keeps = c.keeps;
      if (keeps === null) return false;
      if (keeps.kind === 'int') return typeof v === 'number' && Number.isInteger(v) && v >= keeps.lo && v <= keeps.hi;
      return typeof v === keeps.kind;
    };
    const samples: JsonValue[] = [0, -0, 1, -1, 127, 128, -129, 40000, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, 1.5, -2.25, 1e300, 'x', '', '12', 'é😀', true, false];
    let checked = 0;
    for (const c of cols)
      for (const v of samples) {
        if (!kept(c, v)) continue;
        expect(Object.is(c.fromJson(v), v)).toBe(true);
        checked++;
      }
    expect(checked).toBeGreaterThan(40);
    // what a column does not keep still goes through fromJson: refused or put in its output form
    expect(() => cols[0]!.fromJson(128)).toThrow(EngineValueError);
    expect(() => cols[2]!.fromJson(1.5)).toThrow(EngineValueError);
    expect(cols[8]!.fromJson(2)).toBe('2.0');
  });

  it('is undefined for views and unknown tables; values it returns are accepted by a circuit', () => {
    expect(program.inputCodec('w')).toBeUndefined();
    expect(program.inputCodec('nope')).toBeUndefined();
    const cols = program.inputCodec('t')!.columns;
    const raw = [1, 2, '2024-01-02T03:04:05Z', ['a'], { b: 2, a: 1 }, { k: 'v' }, [1, 2], false];
    const row = Object.fromEntries(cols.map((c, i) => [c.name, c.fromJson(raw[i] as never)]));
    const c = program.newCircuit();
    c.step([{ table: 't', op: 'insert', row }]);
    expect(c.contents('w')[0]!.row).toEqual(row);
  });
});

describe('MAP keys of a JSON object', () => {
  const m = compile(`CREATE TABLE k (mi MAP<INT, VARCHAR>, mb MAP<BIGINT, INT>, md MAP<DOUBLE, INT>, ms MAP<VARCHAR, INT>);
    CREATE VIEW kv AS SELECT mi[1] AS one, mb[9007199254740993] AS big, md[1.5] AS half, ms['1'] AS s FROM k;`);
  if (!m.ok) throw new Error(JSON.stringify(m.errors));
  const [mi, mb, md, ms] = m.program.inputCodec('k')!.columns;

  it('an integer or floating-point key is read from its text, as serde_json reads map keys (Feldera: {"1": "a"} is a MAP<INT, VARCHAR>)', () => {
    expect(mi!.fromJson({ '2': 'b', '10': 'a', '-3': 'c', '+4': 'd' })).toEqual({ '-3': 'c', '2': 'b', '4': 'd', '10': 'a' });
    expect(mb!.fromJson({ '9007199254740993': 1 })).toEqual({ '9007199254740993': 1 });
    expect(md!.fromJson({ '1.5': 1, '-2e3': 2 })).toEqual({ '1.5': 1, '-2000': 2 }); // read as numbers: -2e3 is -2000
    // a VARCHAR key is the string as it is
    expect(ms!.fromJson({ '1': 7 })).toEqual({ '1': 7 });
  });

  it('a key that is not a number of the type is refused with the type it expected', () => {
    expect(() => mi!.fromJson({ x: 'a' })).toThrow(EngineValueError);
    expect(() => mi!.fromJson({ '1.5': 'a' })).toThrow(/i32/);
    expect(() => mi!.fromJson({ '4294967296': 'a' })).toThrow(/i32/);
    expect(() => md!.fromJson({ NaN: 1 })).toThrow(EngineValueError);
  });
});
