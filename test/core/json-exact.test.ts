/**
 * core/json-exact.ts: numbers a JS number would print with other digits read as JsonNumbers and printed back
 * with every digit; everything else read and printed as JSON.parse / JSON.stringify do.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonNumber, jsonText, mayHoldLongNumber, parseJsonExact } from '../../src/core/json-exact.js';

const BIG = '9007199254740993';
const MIN = '-9223372036854775808';
const DEC = '12345678901234567890.1234567890';

describe('parseJsonExact', () => {
  it('keeps integers beyond 2^53 and long decimals as the text the server wrote', () => {
    const v = parseJsonExact(`{"b":${BIG},"m":${MIN},"d":${DEC},"d8":12345678.1234567890,"list":[1,${BIG},"${BIG}"],"small":42}`) as Record<string, unknown>;
    expect(v.b).toBeInstanceOf(JsonNumber);
    expect((v.b as JsonNumber).text).toBe(BIG);
    expect((v.m as JsonNumber).text).toBe(MIN);
    expect((v.d as JsonNumber).text).toBe(DEC);
    expect(v.d8).toEqual(new JsonNumber('12345678.1234567890')); // 17 significant digits: a double cannot hold them
    expect(v.list).toEqual([1, new JsonNumber(BIG), BIG]);
    expect(v.small).toBe(42);
    expect(parseJsonExact(BIG)).toEqual(new JsonNumber(BIG));
    // any integer beyond 2^53 - 1 is kept, even one a double holds exactly: it prints as written (JS would say 1e+21)
    expect(parseJsonExact('[9007199254740992,1000000000000000000000]')).toEqual([new JsonNumber('9007199254740992'), new JsonNumber('1000000000000000000000')]);
  });

  it('reads what a JS number carries as JSON.parse does (safe integers, short and round-tripping decimals, exponents)', () => {
    for (const text of [
      '9007199254740991',
      '-9007199254740991',
      '1.50',
      '0.1',
      '1e21',
      '1.0000000000000000e21',
      '1234567.125000000',
      '{"a":"1234567890123456789","b":[1,2,3]}',
      '1234567890123456.5e-3',
      '0.1000000000000000',
      '-0',
    ]) {
      expect(parseJsonExact(text), text).toEqual(JSON.parse(text));
    }
  });

  it('refuses what JSON.parse refuses', () => {
    for (const text of ['{"a":', `{"a":${BIG}`, `[${BIG},]`, `{"a":0${BIG}}`, '', `${BIG}x`]) expect(() => parseJsonExact(text), text).toThrow(SyntaxError);
  });

  it('leaves digits inside strings alone, escaped quotes included', () => {
    const text = `{"s":"x\\"${BIG}\\"","n":${BIG}}`;
    expect(parseJsonExact(text)).toEqual({ s: `x"${BIG}"`, n: new JsonNumber(BIG) });
    // a run in a string that stands as a number would (after ", " or ":" and before "," or "]"): the full scan finds it is text
    for (const inner of [`a, ${BIG}, b`, `:${BIG}]`, `${BIG}`, ` ${BIG}`, `[${BIG}\\n`]) {
      const t = `{"s":${JSON.stringify(inner)},"n":[${MIN},1]}`;
      expect(parseJsonExact(t), t).toEqual({ s: JSON.parse(JSON.stringify(inner)), n: [new JsonNumber(MIN), 1] });
    }
  });

  it('keeps a long number with an exponent or a sign, and one standing first or last in the text', () => {
    expect(parseJsonExact('[1234567890123456789e5,-1.2345678901234567890E-5, 12345678901234567890e+2 ]')).toEqual([
      new JsonNumber('1234567890123456789e5'),
      new JsonNumber('-1.2345678901234567890E-5'),
      new JsonNumber('12345678901234567890e+2'),
    ]);
    expect(parseJsonExact(` ${MIN}\n`)).toEqual(new JsonNumber(MIN));
  });
});

describe('mayHoldLongNumber (the fast path: a look at every 16th character)', () => {
  /** The plain reading: some run of digits and points holds 16 or more digits. */
  const reference = (text: string) => (text.match(/[0-9.]+/g) ?? []).some((run) => run.replace(/\./g, '').length >= 16);

  it('finds every run of 16 digits wherever it falls, points between them allowed', () => {
    for (let pad = 0; pad < 40; pad++) {
      for (const run of ['1234567890123456', '123456789012345.6', '-0.1234567890123456', '1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6']) {
        expect(mayHoldLongNumber('x'.repeat(pad) + run + ',' + 'y'.repeat(pad % 7)), `${pad} ${run}`).toBe(true);
      }
      expect(mayHoldLongNumber('x'.repeat(pad) + '123456789012345' + ',' + '9'.repeat(15))).toBe(false);
      expect(mayHoldLongNumber('x'.repeat(pad) + '12345678.1234567')).toBe(false);
    }
  });

  it('agrees with the plain reading on any text of digits, points and other characters', () => {
    const text = fc.array(fc.constantFrom('0', '1', '9', '.', '.', ',', 'a', '"', ' '), { maxLength: 200 }).map((cs) => cs.join(''));
    const digity = fc.array(fc.constantFrom('0', '5', '9', '9', '.', ','), { maxLength: 200 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.oneof(text, digity), (t) => {
        expect(mayHoldLongNumber(t)).toBe(reference(t));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('jsonText', () => {
  it('prints JsonNumbers as bare numbers, compact and indented', () => {
    const row = { b: new JsonNumber(BIG), d: new JsonNumber(DEC), s: 'text', list: [new JsonNumber(MIN)] };
    expect(jsonText(row)).toBe(`{"b":${BIG},"d":${DEC},"s":"text","list":[${MIN}]}`);
    expect(jsonText(row, 2)).toBe(`{\n  "b": ${BIG},\n  "d": ${DEC},\n  "s": "text",\n  "list": [\n    ${MIN}\n  ]\n}`);
    expect(jsonText(new JsonNumber(BIG))).toBe(BIG);
  });

  it('is JSON.stringify for everything else', () => {
    const value = { a: 1.5, b: 'x\u0000y', c: [null, true], d: undefined, e: '\\u0000num' };
    expect(jsonText(value)).toBe(JSON.stringify(value));
    expect(jsonText(value, 2)).toBe(JSON.stringify(value, null, 2));
    expect(jsonText(undefined)).toBeUndefined();
  });

  it('a JsonNumber holds only a JSON number literal', () => {
    expect(() => new JsonNumber('1,"x":2')).toThrow(TypeError);
    expect(() => new JsonNumber('')).toThrow(TypeError);
  });

  it('round-trips any JSON text of integers of any size and decimals with the digits it was written with', () => {
    const integer = fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String);
    const decimal = fc.tuple(fc.bigInt({ min: -(10n ** 28n), max: 10n ** 28n }), fc.integer({ min: 1, max: 10 })).map(([unscaled, scale]) => {
      const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
      return `${unscaled < 0n ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    });
    const number = fc.oneof(integer, decimal);
    // strings with runs of digits standing as numbers would (", 1234...,"), quotes and backslashes
    const digity = fc.array(fc.constantFrom('1', '2', '9', '0', '.', ' ', ',', ':', '[', ']', '"', '\\', '-', 'e'), { maxLength: 60 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            number,
            fc.oneof(
              fc.string(),
              digity,
              integer.map((n) => `, ${n}${n}, `),
            ),
          ),
          { maxLength: 8 },
        ),
        (pairs) => {
          const text = `[${pairs.map(([n, s]) => `{"n":${n},"s":${JSON.stringify(s)}}`).join(',')}]`;
          const again = jsonText(parseJsonExact(text));
          // each number comes back as the same decimal value: its own text, or (when JS carries it) JS's spelling of it
          const values = JSON.parse(again.replace(/"n":(-?[0-9.eE+-]+)/g, '"n":"$1"')) as { n: string; s: string }[];
          values.forEach((v, i) => {
            const written = pairs[i]![0];
            expect(v.s).toBe(pairs[i]![1]);
            expect(v.n === written || String(Number(written)) === v.n).toBe(true);
            expect(sameValue(v.n, written)).toBe(true);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Two decimal literals (no exponent) of the same value, compared as scaled BigInts. */
function sameValue(a: string, b: string): boolean {
  const scaled = (s: string, scale: number) => {
    const [int, frac = ''] = s.replace('-', '').split('.');
    const v = BigInt(int! + frac.padEnd(scale, '0'));
    return s.startsWith('-') ? -v : v;
  };
  if (/e/i.test(a) || /e/i.test(b)) return Number(a) === Number(b);
  const scale = Math.max((a.split('.')[1] ?? '').length, (b.split('.')[1] ?? '').length);
  return scaled(a, scale) === scaled(b, scale);
}
