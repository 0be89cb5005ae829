/**
 * Exact JSON numbers (json-text.ts, JsonNumberText in api.ts): parseJsonText keeps a literal that a JS number
 * would change (an integer beyond 2^53 as a bigint, another one as a JsonNumberText), each column type reads
 * it as Feldera does (DECIMAL every digit then truncated to its scale, DOUBLE/REAL the nearest value, VARIANT the
 * same digits), and jsonText prints it back. A property test compares DECIMAL(38, 10) input with BigInt arithmetic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, JsonNumberText, jsonText, parseJsonText, type ColumnCodec, type JsonValue } from '../../src/engine/index.js';

const LONG = '1234567890123456789012345678.1234567890';

function codecs(sql: string, table: string): Record<string, ColumnCodec> {
  const r = compile(sql);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return Object.fromEntries(r.program.inputCodec(table)!.columns.map((c) => [c.name, c]));
}

const c = codecs(
  `CREATE TABLE t (d DECIMAL(38, 10), d2 DECIMAL(5, 2), f DOUBLE, r REAL, v VARIANT, s VARCHAR, i INT, b BIGINT,
     a DECIMAL(38, 10) ARRAY, m MAP<VARCHAR, DECIMAL(38, 10)>, w ROW(x DECIMAL(38, 10)))`,
  't',
);

describe('parseJsonText and jsonText', () => {
  it('keeps a long non-integer literal as its text and prints it back bare; short and round-tripping numbers stay numbers', () => {
    const text = `{"d":${LONG},"n":[-0.1000000000000000055511151231257827,1.5,1.50,0.1234567890123456,123456789012345678e-5],"s":"${LONG}","i":12345678901234567890}`;
    const v = parseJsonText(text) as Record<string, JsonValue>;
    expect(v.d).toEqual(new JsonNumberText(LONG));
    expect(v.n).toEqual([new JsonNumberText('-0.1000000000000000055511151231257827'), 1.5, 1.5, 0.1234567890123456, new JsonNumberText('123456789012345678e-5')]);
    expect(v.s).toBe(LONG); // inside a string: untouched
    expect(v.i).toBe(12345678901234567890n);
    expect(jsonText(v)).toBe(text.replace('1.50', '1.5'));
    expect(() => JSON.stringify(v.d)).toThrow(TypeError); // never printed rounded by mistake
    for (const bad of ['1.', '.5', '01.5', 'NaN', '1e', '1,2', '"1"']) expect(() => new JsonNumberText(bad)).toThrow(TypeError);
  });

  it('finds long numbers with points anywhere (not only runs of 16 digits), and leaves malformed text to JSON.parse', () => {
    for (const lit of ['1.234567890123456789', '123456789.0123456789', '12345678.1234567891e3', '-9.99999999999999999']) {
      expect(parseJsonText(`[0,${lit}]`)).toEqual([0, new JsonNumberText(lit)]);
      expect(parseJsonText(` {"k" : ${lit} }`)).toEqual({ k: new JsonNumberText(lit) });
    }
    // trailing and leading zeros are not significant digits
    expect(parseJsonText('[1.50000000000000000000,-100000000000000000000.0,1.2345678901234567000e-3]')).toEqual([1.5, -1e20, 0.0012345678901234567]);
    expect(parseJsonText('[0.000000000000000000012345678901234567891]')).toEqual([new JsonNumberText('0.000000000000000000012345678901234567891')]);
    expect(() => parseJsonText('[1.234567890123456789.5]')).toThrow(SyntaxError);
    expect(() => parseJsonText('{"a":01234567890123456789.5}')).toThrow(SyntaxError);
  });
});

describe('a long JSON number into each column type', () => {
  const read = (name: string, literal: string) => c[name.toUpperCase()]!.fromJson(parseJsonText(literal) as JsonValue);

  it('DECIMAL gets every digit; digits beyond the scale are dropped toward zero; beyond the precision it is refused as Feldera words it', () => {
    expect(read('d', LONG)).toBe(LONG);
    expect(read('d', '-' + LONG)).toBe('-' + LONG);
    expect(read('d', '1234567890123456789012345678.12345678909')).toBe(LONG);
    expect(read('d', '-1234567890123456789012345678.12345678909')).toBe('-' + LONG);
    expect(read('d', '0.00000000001234567890123')).toBe('0.0000000000');
    expect(read('d', '12345678901234567.89e3')).toBe('12345678901234567890.0000000000');
    expect(read('d2', '999.99999999999999999')).toBe('999.99');
    expect(() => read('d2', '1000.0000000000000001')).toThrow('decimal number 1000.0000000000000001 is outside the value range -999.99 to 999.99 (inclusive)');
    expect(() => read('d', '12345678901234567890123456789.123456789')).toThrow('outside the value range -9999999999999999999999999999.9999999999 to 9999999999999999999999999999.9999999999');
    expect(() => read('d', '1.2345678901234567e400')).toThrow('is outside the value range');
    expect(read('d', '1.2345678901234567e-400')).toBe('0.0000000000');
  });

  it("DOUBLE and REAL get the value Feldera's serde_json reads (types/serde-float.ts); VARCHAR and INT refuse it as a floating point number", () => {
    // 20 significant digits rounded to a double, times 10^8: not the double nearest to LONG
    expect(read('f', LONG)).toBe(Number(12345678901234567890n) * 1e8);
    expect(read('f', LONG)).not.toBe(Number(LONG));
    expect(read('f', '0.1000000000000000055511151231257827')).toBe(0.1);
    expect(read('r', '0.1000000000000000055511151231257827')).toBe(0.1); // REAL prints its shortest f32 form
    expect(() => read('s', LONG)).toThrow(`invalid type: floating point \`${LONG}\`, expected a string`);
    expect(() => read('i', LONG)).toThrow(`invalid type: floating point \`${LONG}\`, expected i32`);
    expect(() => read('b', '1.0000000000000000001')).toThrow('expected i64');
  });

  it('VARIANT keeps the digits (trailing fraction zeros dropped: one value, one text) and prints them back', () => {
    const v = read('v', `{"z":${LONG},"a":[1.5,-0.12345678901234567890123]}`);
    expect(jsonText(v)).toBe('{"a":[1.5,-0.12345678901234567890123],"z":1234567890123456789012345678.123456789}');
    expect(jsonText(read('v', LONG))).toBe('1234567890123456789012345678.123456789');
  });

  it('ARRAY, MAP and ROW elements of DECIMAL read every digit; a long number is not a map or a row', () => {
    expect(read('a', `[${LONG}, 1.5, "2"]`)).toEqual([LONG, '1.5000000000', '2.0000000000']);
    expect(read('m', `{"k":${LONG}}`)).toEqual({ k: LONG });
    expect(read('w', `{"x":${LONG}}`)).toEqual({ X: LONG });
    expect(read('w', `[${LONG}]`)).toEqual({ X: LONG });
    expect(() => read('m', LONG)).toThrow(`invalid type: floating point \`${LONG}\`, expected a map`);
    expect(() => read('w', LONG)).toThrow('expected a row');
  });

  it('CSV: a long DECIMAL field and long numbers inside ARRAY/VARIANT fields keep their digits', () => {
    expect(c.D!.fromCsv(LONG)).toBe(LONG);
    expect(c.D!.fromCsv('1234567890123456789012345678.12345678909')).toBe(LONG);
    expect(c.A!.fromCsv(`[${LONG}]`)).toEqual([LONG]);
    expect(jsonText(c.V!.fromCsv(`[${LONG}]`))).toBe(`[${LONG.replace(/0$/, '')}]`);
    expect(c.F!.fromCsv(LONG)).toBe(Number(LONG));
  });
});

describe('long numbers inside VARIANT values in SQL', () => {
  it('TYPEOF, keys, indexing and CASTs see a number (not an object) and keep its digits', () => {
    const r = compile(`CREATE TABLE j (v VARIANT, d DECIMAL(38, 10));
      CREATE VIEW o AS SELECT TYPEOF(v['x']) AS tx, JSON_KEYS(v) AS ks, v['x'] AS x, CAST(v['x'] AS DECIMAL(38, 10)) AS dx,
        CAST(v['x'] AS DOUBLE) AS fx, CAST(d AS VARIANT) AS vd, TO_JSON(v) AS txt, v['x']['text'] AS nothing FROM j;`);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const circuit = r.program.newCircuit();
    const row = parseJsonText(`{"v":{"x":${LONG}1,"y":{"z":1}},"d":${LONG}}`) as Record<string, JsonValue>;
    const out = circuit.step([{ table: 'j', op: 'insert', row }]).changes.get('O')!;
    expect(out).toHaveLength(1);
    expect(jsonText(out[0]!.row)).toBe(
      `{"TX":"DECIMAL","KS":["x","y","y.z"],"X":${LONG}1,"DX":"${LONG}","FX":${Number(LONG)},"VD":${LONG},"TXT":"{\\"x\\":${LONG}1,\\"y\\":{\\"z\\":1}}","NOTHING":null}`,
    );
  });
});

describe('DECIMAL(38, 10) from random JSON number literals, against BigInt arithmetic', () => {
  /** The expected output: the literal's digits truncated toward zero to scale 10, or undefined beyond 28 integer digits. */
  function expected(negative: boolean, digits: string, scale: number): string | undefined {
    const exact = BigInt(digits);
    const atTen = scale <= 10 ? exact * 10n ** BigInt(10 - scale) : exact / 10n ** BigInt(scale - 10);
    if (atTen >= 10n ** 38n) return undefined;
    const text = atTen.toString().padStart(11, '0');
    const out = `${text.slice(0, -10)}.${text.slice(-10)}`;
    return negative && atTen !== 0n ? '-' + out : out;
  }

  it('reads every literal of 1-38 digits with 0-12 fraction digits exactly (as a JSON number and as a string)', () => {
    const literal = fc
      .record({
        negative: fc.boolean(),
        digits: fc.integer({ min: 1, max: 38 }).chain((n) => fc.stringMatching(new RegExp(`^[1-9][0-9]{${n - 1}}$`))),
        scale: fc.integer({ min: 0, max: 12 }),
      })
      .filter(({ digits, scale }) => scale <= digits.length);
    fc.assert(
      fc.property(literal, ({ negative, digits, scale }) => {
        const intPart = digits.slice(0, digits.length - scale) || '0';
        const text = (negative ? '-' : '') + intPart + (scale > 0 ? '.' + digits.slice(digits.length - scale) : '');
        const want = expected(negative, digits, scale);
        for (const input of [parseJsonText(`{"d":${text}}`) as Record<string, JsonValue>, { d: text }]) {
          if (want === undefined) expect(() => c.D!.fromJson(input.d)).toThrow('is outside the value range');
          else expect(c.D!.fromJson(input.d), text).toBe(want);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
