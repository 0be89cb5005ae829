/**
 * SmallRng (connectors/small-rng.ts): Feldera's datagen draws bit for bit. The expected numbers come from an
 * independent model of rand 0.8 (rand_core's PCG32 `seed_from_u64`, xoshiro256++, `Uniform` over i64 by
 * widening multiply and rejection zone, Alphanumeric from the top 6 bits of next_u32), written apart from
 * this module; the same model gives the rows of a seeded Feldera datagen table.
 */
import { describe, expect, it } from 'vitest';
import { SmallRng } from '../../../../src/services/pipelines/worker/connectors/small-rng.js';

describe('SmallRng', () => {
  it('seeds as seed_from_u64 and draws xoshiro256++', () => {
    const r = new SmallRng(42n);
    expect([r.u64(), r.u64(), r.u64()]).toEqual([2939647976913485485n, 5612343741886906158n, 5452211403613372577n]);
    // the seed wraps at 2^64 (a datagen seed + row index)
    expect(new SmallRng((1n << 64n) - 1n).u64()).toBe(11345198270385851335n);
    expect(new SmallRng((1n << 64n) - 1n).reseed(1n << 64n).u64()).toBe(new SmallRng(0n).u64());
  });

  it('draws integers in [lo, hi) as Uniform::from(lo..hi), beyond 2^53 and below 0 too', () => {
    const r = new SmallRng(42n);
    expect([0, 1, 2, 3, 4].map(() => r.range(0, 10))).toEqual([1, 3, 2, 7, 5]);
    const rows = [0n, 1n, 2n].map((row) => {
      const g = new SmallRng(2024n + row);
      return [g.bigRange(3n, 250n), g.bigRange(9007199254740993n, 9223372036854775807n), g.bigRange(-(1n << 63n), (1n << 63n) - 1n), g.bigRange(0n, (1n << 63n) - 1n)];
    });
    expect(rows).toEqual([
      [78n, 5343131084004304485n, 7486270992050277327n, 2522181262906054528n],
      [43n, 3588257407839818791n, -2243897110584583918n, 1163114113027148190n],
      [201n, 7678524701419233479n, 8224405894029020473n, 8124286730217576146n],
    ]);
  });

  it('draws the same integers in numbers (spans up to 2^32) as in bigints', () => {
    const fast = new SmallRng(99n);
    const exact = new SmallRng(99n);
    const spans = [1, 2, 3, 7, 10, 100, 255, 65535, 1000003, 2 ** 31 + 11, 3 * 2 ** 30, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 5];
    for (let i = 0; i < 3000; i++) {
      const span = spans[i % spans.length]!;
      const lo = (i % 7) - 3;
      expect(fast.range(lo, lo + span)).toBe(Number(exact.bigRange(BigInt(lo), BigInt(lo + span))));
    }
  });

  it('draws alphanumerics as rand Alphanumeric', () => {
    expect(new SmallRng(7n).alnum(12)).toBe('UcQaxhHLrWXc');
  });
});
