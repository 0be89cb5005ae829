/**
 * DATE and TIMESTAMP text (types/datetime.ts): the canonical form `YYYY-MM-DD[ T]HH:MM:SS[.f...]`, read without a
 * regular expression, gives exactly what the general reader gives for every string of that shape (valid or not:
 * months 0-13, days 0-32, leap years, hours and minutes out of range, 0-10 fraction digits, a stray character),
 * and the right instants for known values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalTimestampAt, formatTimestamp, parseDate, parseTimestamp, readDate, readTimestamp } from '../../../src/engine/types/datetime.js';

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

const dateText = fc
  .record({ y: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(1000, 1600, 1900, 2000, 2023, 2024, 2100)), mo: fc.integer({ min: 0, max: 13 }), d: fc.integer({ min: 0, max: 32 }) })
  .map(({ y, mo, d }) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}`);

const timestampText = fc
  .record({
    date: dateText,
    sep: fc.constantFrom(' ', 'T'),
    h: fc.integer({ min: 0, max: 25 }),
    mi: fc.integer({ min: 0, max: 61 }),
    s: fc.integer({ min: 0, max: 61 }),
    frac: fc.option(fc.stringMatching(/^[0-9]{0,10}$/), { nil: undefined }),
  })
  .map(({ date, sep, h, mi, s, frac }) => `${date}${sep}${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${frac === undefined ? '' : '.' + frac}`);

/** The text with one character replaced (a digit, a separator, a letter or a space), or as it is. */
const spoiled = (text: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(text, fc.nat(), fc.constantFrom('', '5', '-', ':', '.', 'x', ' ', 'T', '/')).map(([t, at, c]) => (c === '' ? t : t.slice(0, at % t.length) + c + t.slice((at % t.length) + 1)));

describe('canonical date and timestamp text', () => {
  it('reads as the general reader does, valid or not', () => {
    fc.assert(
      fc.property(spoiled(dateText), (t) => {
        expect(parseDate(t)).toBe(readDate(t));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(spoiled(timestampText), (t) => {
        expect(parseTimestamp(t)).toBe(readTimestamp(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the canonical form from Latin-1 bytes in place (a batch storage) as from the string, at any offset', () => {
    fc.assert(
      fc.property(spoiled(timestampText), fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), (t, before, after) => {
        const bytes = Buffer.from(before + t + after, 'latin1');
        const from = Buffer.byteLength(before, 'latin1');
        const fromBytes = canonicalTimestampAt(bytes, from, t.length);
        expect(fromBytes).toBe(canonicalTimestampAt(t, 0, t.length));
        // what it reads, the general reader reads the same; what it leaves, parseTimestamp leaves to the general reader
        if (fromBytes !== undefined) expect(fromBytes).toBe(readTimestamp(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the right instants', () => {
    expect(parseTimestamp('2024-02-29 12:34:56.789')).toBe(Date.UTC(2024, 1, 29, 12, 34, 56, 789));
    expect(parseTimestamp('1999-12-31T23:59:59.5')).toBe(Date.UTC(1999, 11, 31, 23, 59, 59, 500));
    // microseconds are kept (the rest dropped), as the fraction of the milliseconds
    expect(parseTimestamp('2015-07-15 00:00:01.123456789')).toBe((Date.UTC(2015, 6, 15, 0, 0, 1, 123) * 1000 + 456) / 1000);
    expect(formatTimestamp(parseTimestamp('2020-06-21 14:23:44.123654')!)).toBe('2020-06-21 14:23:44.123654');
    expect(formatTimestamp(parseTimestamp('1969-12-31 23:59:59.999999')!)).toBe('1969-12-31 23:59:59.999999');
    // past 2109 a double cannot hold the microseconds: whole milliseconds
    expect(formatTimestamp(parseTimestamp('7200-05-30 23:59:31.777123')!)).toBe('7200-05-30 23:59:31.777');
    expect(parseTimestamp('1000-03-01 00:00:00')).toBe(Date.UTC(1000, 2, 1));
    expect(parseTimestamp('2023-02-29 00:00:00')).toBeUndefined();
    expect(parseTimestamp('2100-02-29 00:00:00')).toBeUndefined();
    expect(parseDate('2000-02-29')).toBe(Date.UTC(2000, 1, 29) / 86_400_000);
    expect(parseDate('1969-12-31')).toBe(-1);
  });

  it('reads a trailing UTC (TIMESTAMP WITH TIME ZONE literals) as an offset of zero', () => {
    expect(parseTimestamp('1970-01-01 00:00:00 UTC')).toBe(0);
    expect(parseTimestamp('2024-05-06 07:08:09.5UTC')).toBe(Date.UTC(2024, 4, 6, 7, 8, 9, 500));
    expect(parseTimestamp('2024-05-06 07:08:09 +02:00')).toBe(Date.UTC(2024, 4, 6, 5, 8, 9));
    expect(parseTimestamp('2024-05-06 07:08:09 CET')).toBeUndefined();
  });
});
