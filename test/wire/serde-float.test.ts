/**
 * serdeF64 (types/serde-float.ts): a JSON literal read into a DOUBLE as Feldera's serde_json reads it (one
 * rounding of the u64 significand, then one multiplication or division by a power of ten), which is not the
 * nearest double for some long literals; and the JSON codec takes long DOUBLE and REAL literals that way.
 */
import { describe, expect, it } from 'vitest';
import { compile, JsonNumberText, parseJsonText } from '../../src/engine/index.js';
import { serdeF64 } from '../../src/wire/serde-float.js';

describe('serdeF64', () => {
  it('is the nearest double for short literals', () => {
    for (const t of ['0', '0.1', '-2.5', '123456.789', '1e10', '-3.25E-4', '42']) expect(serdeF64(t), t).toBe(Number(t));
  });

  it('rounds the significand once, then scales it once, as serde_json: not always the nearest double', () => {
    // 9876543210123457 is no double: it rounds (to even) before the division by 10^6
    expect(serdeF64('9876543210.123457')).toBe(Number(9876543210123456n) / 1e6);
    expect(serdeF64('9876543210.123457')).not.toBe(9876543210.123457);
    expect(serdeF64('-1.2345678901234567')).toBe(-(Number(12345678901234567n) / 1e16));
  });

  it('drops fraction digits beyond u64 and counts dropped integer digits in the exponent', () => {
    expect(serdeF64('0.123456789012345678901234')).toBe(Number(12345678901234567890n) / 1e20);
    expect(serdeF64('123456789012345678901234.5')).toBe(Number(12345678901234567890n) * 1e4);
    expect(serdeF64('1e400')).toBe(Infinity);
    expect(serdeF64('1e-400')).toBe(0);
    expect(serdeF64('5e-324')).toBe(5e-324);
  });

  it('JSON text keeps such a literal as its digits (a JsonNumberText), where JSON.parse would give the nearest double', () => {
    const v = parseJsonText('{"d":9876543210.123457,"e":0.5}') as Record<string, unknown>;
    expect(v.d).toEqual(new JsonNumberText('9876543210.123457'));
    expect(v.e).toBe(0.5);
  });

  it("is how a DOUBLE or REAL column's JSON input reads a long literal; CSV keeps the nearest double", () => {
    const r = compile('CREATE TABLE t (d DOUBLE, r REAL);', { outputCase: 'lower' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const [d, real] = r.program.inputCodec('t')!.columns;
    expect(d!.fromJson(new JsonNumberText('9876543210.123457'))).toBe(Number(9876543210123456n) / 1e6);
    expect(d!.fromJson(12.5)).toBe(12.5);
    expect(d!.fromCsv('9876543210.123457')).toBe(9876543210.123457);
    expect(real!.fromJson(new JsonNumberText('3.1415926535897932'))).toBe(real!.fromJson(Math.fround(Number(31415926535897932n) / 1e16)));
    // and a row stepped into the circuit directly
    const p = compile('CREATE TABLE t (d DOUBLE, r REAL);\nCREATE VIEW v AS SELECT d FROM t;', { outputCase: 'lower' });
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    const out = p.program
      .newCircuit()
      .step([{ table: 't', op: 'insert', row: { d: new JsonNumberText('9876543210.123457'), r: null } }])
      .changes.get('v');
    expect(out![0]!.row.d).toBe(Number(9876543210123456n) / 1e6);
  });
});
