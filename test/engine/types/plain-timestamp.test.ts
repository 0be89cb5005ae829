// plainTimestampText (the codec's hand-read TIMESTAMP shape) against the general way it stands in for:
// formatTimestamp(parseTimestamp(text)) for every text it takes, and undefined (the general way decides) for the rest.
import { describe, expect, it } from 'vitest';
import { compile } from '../../../src/engine/index.js';
import { formatTimestamp, parseTimestamp, plainTimestampLength, plainTimestampText } from '../../../src/engine/types/datetime.js';

const general = (text: string): string | undefined => {
  const ms = parseTimestamp(text);
  return ms === undefined ? undefined : formatTimestamp(ms);
};

/** A small deterministic PRNG (mulberry32), so that a failure is reproducible. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('plainTimestampText', () => {
  it('gives the output form of plain texts, as parse then format does', () => {
    const cases: Array<[string, string]> = [
      ['2024-02-29 23:59:59', '2024-02-29 23:59:59'],
      ['1970-01-01 00:00:00.000', '1970-01-01 00:00:00'],
      ['1970-01-01 00:00:01.230', '1970-01-01 00:00:01.23'],
      ['1970-01-01 00:00:01.5', '1970-01-01 00:00:01.5'],
      ['2000-12-31 12:00:00.123456789', '2000-12-31 12:00:00.123'],
      ['2000-12-31 12:00:00.000999', '2000-12-31 12:00:00'],
      ['2000-12-31 12:00:00.0107', '2000-12-31 12:00:00.01'],
      ['1000-01-01 00:00:00.001', '1000-01-01 00:00:00.001'],
    ];
    for (const [text, out] of cases) {
      expect(plainTimestampText(text)).toBe(out);
      expect(general(text)).toBe(out);
    }
  });

  it('leaves every other text to the general way (undefined), invalid dates and times included', () => {
    for (const text of [
      '2023-02-29 00:00:00', // not a leap year
      '1900-02-29 00:00:00',
      '2024-04-31 00:00:00',
      '2024-13-01 00:00:00',
      '2024-00-01 00:00:00',
      '2024-01-00 00:00:00',
      '2024-01-01 24:00:00',
      '2024-01-01 23:60:00',
      '2024-01-01 23:59:60',
      '2024-01-01T00:00:00', // accepted by the general way, not the plain shape
      '2024-01-01 00:00:00Z',
      '2024-01-01 00:00:00.',
      '2024-01-01 00:00:00.1234567890',
      '2024-01-01 00:00:00.12a',
      ' 2024-01-01 00:00:00',
      '0999-01-01 00:00:00', // a year before 1000: the general way's rules
      '2024-1-01 00:00:00.00',
      '2024-01-01',
      '',
    ])
      expect(plainTimestampText(text), text).toBeUndefined();
  });

  it('agrees with parse then format on random texts of the plain shape, valid or not', () => {
    const r = rng(30);
    const d = (n: number): string => Array.from({ length: n }, () => Math.floor(r() * 10)).join('');
    const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
    for (let i = 0; i < 5_000; i++) {
      const y = pick([d(4), String(1000 + Math.floor(r() * 9000)), pick(['2000', '1900', '2024', '2023', '2100'])]);
      const mo = pick([d(2), String(1 + Math.floor(r() * 12)).padStart(2, '0')]);
      const day = pick([d(2), String(28 + Math.floor(r() * 4)).padStart(2, '0'), String(1 + Math.floor(r() * 31)).padStart(2, '0')]);
      const time = `${pick([d(2), '23', '00'])}:${pick([d(2), '59'])}:${pick([d(2), '59', '00'])}`;
      const frac = pick(['', `.${d(1 + Math.floor(r() * 9))}`, '.000', `.${d(3)}`]);
      const text = `${y}-${mo}-${day} ${time}${frac}`;
      const plain = plainTimestampText(text);
      if (plain !== undefined) expect(plain, text).toBe(general(text));
      else if (Number(y) >= 1000) expect(general(text), text).toBeUndefined();
      // the same text read as bytes in the middle of a buffer (as the JSON fast path reads it) gives the same length
      const bytes = Buffer.from(`{"ts": "${text}"}`, 'latin1');
      expect(plainTimestampLength(bytes, 8, text.length), text).toBe(plain === undefined ? -1 : plain.length);
    }
  });

  it('is what a TIMESTAMP column reads from JSON, bad texts refused with the general message', () => {
    const r = compile('CREATE TABLE t (ts TIMESTAMP(3))');
    if (!r.ok) throw new Error(r.errors[0]!.message);
    const codec = r.program!.inputCodec('t')!.columns[0]!;
    expect(codec.fromJson('2024-02-29 10:11:12.340')).toBe('2024-02-29 10:11:12.34');
    expect(codec.fromJson('2024-02-29T10:11:12.340')).toBe('2024-02-29 10:11:12.34');
    expect(() => codec.fromJson('2023-02-29 10:11:12.340')).toThrow(/invalid value: string "2023-02-29 10:11:12.340"/);
  });
});
