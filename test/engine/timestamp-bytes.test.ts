/**
 * writeTimestampBytes: the bytes of formatTimestamp for whole milliseconds in years 1000..9999 (what the
 * Parquet reader writes into a RowBatch), -1 for anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeTimestampBytes } from '../../src/engine/index.js';
import { formatTimestamp } from '../../src/engine/types/datetime.js';

const MIN = Date.UTC(1000, 0, 1);
const MAX = Date.UTC(10000, 0, 1) - 1;

function written(ms: number): string | null {
  const out = new Uint8Array(32);
  const n = writeTimestampBytes(ms, out);
  return n < 0 ? null : Buffer.from(out.subarray(0, n)).toString('latin1');
}

describe('writeTimestampBytes', () => {
  it('writes what formatTimestamp writes, for any whole millisecond in years 1000..9999', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: BigInt(MIN), max: BigInt(MAX) }).map(Number), (ms) => written(ms) === formatTimestamp(ms)),
      { numRuns: 20_000 },
    );
  });

  it('edges: the range ends, leap days, century years, the epoch, fractions with trailing zeros', () => {
    const cases = [
      MIN,
      MAX,
      0,
      -1,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(1900, 1, 28, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 11, 31, 23, 59, 59, 100),
      Date.UTC(2024, 0, 1, 0, 0, 0, 120),
      Date.UTC(2024, 0, 1, 0, 0, 0, 7),
    ];
    for (const ms of cases) expect(written(ms)).toBe(formatTimestamp(ms));
    expect(written(Date.UTC(2024, 0, 1, 0, 0, 0, 120))).toBe('2024-01-01 00:00:00.12');
  });

  it('refuses what it does not write: outside the years, fractions of a millisecond, not finite', () => {
    for (const ms of [MIN - 1, MAX + 1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -1e15]) expect(written(ms)).toBeNull();
  });
});
