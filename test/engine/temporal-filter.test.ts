/**
 * ops/temporal-filter.ts on its own: SortedNumbers (the chunked ordered keys) against a plain sorted array
 * over many keys (chunks split and empty), and the operator over thousands of rows as the clock sweeps a
 * window across them, against the rows' pass/fail computed directly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedNumbers, TemporalFilterOp } from '../../src/engine/ops/temporal-filter.js';
import type { Delta } from '../../src/engine/ops/zset.js';

describe('SortedNumbers', () => {
  it('holds distinct values in order through adds and deletes that split and empty chunks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: -3000, max: 3000 })), { minLength: 500, maxLength: 4000 }),
        fc.integer({ min: -3100, max: 3100 }),
        fc.nat(400),
        (ops, lo, width) => {
          const s = new SortedNumbers();
          const model = new Set<number>();
          for (const [add, v] of ops) {
            if (add) {
              s.add(v);
              model.add(v);
            } else {
              s.delete(v);
              model.delete(v);
            }
          }
          const sorted = [...model].sort((a, b) => a - b);
          const all: number[] = [];
          s.forEach((v) => all.push(v));
          expect(all).toEqual(sorted);
          expect(s.size).toBe(sorted.length);
          const got: number[] = [];
          s.range(lo, lo + width, (v) => got.push(v));
          expect(got).toEqual(sorted.filter((v) => v >= lo && v <= lo + width));
        },
      ),
      { numRuns: 60, seed: 3 },
    );
  });
});

describe('TemporalFilterOp', () => {
  it('sweeps a window across 5,000 rows: each clock move outputs exactly the rows that cross its edges', () => {
    // key >= now - 100 AND key < now + 50, keys 0..4999 with some repeated and some rows twice
    const op = new TemporalFilterOp({
      key: (row) => row[1] as number | null,
      bounds: [
        { op: 'GtEq', at: (now) => now - 100 },
        { op: 'Lt', at: (now) => now + 50 },
      ],
    });
    const rows: Delta = [];
    for (let i = 0; i < 5000; i++) rows.push([[i, i % 7 === 0 ? null : Math.floor(i / 2) * 2], i % 11 === 0 ? 2 : 1]);
    const passes = (k: unknown, now: number) => typeof k === 'number' && k >= now - 100 && k < now + 50;
    const expected = (now: number) => rows.filter(([r]) => passes(r[1], now)).map(([r, w]) => `${r[0]}:${w}`);
    const live = new Map<string, number>();
    const apply = (d: Delta) => {
      for (const [r, w] of d) {
        const k = String(r[0]);
        const v = (live.get(k) ?? 0) + w;
        if (v === 0) live.delete(k);
        else live.set(k, v);
      }
    };
    const current = () => [...live].map(([k, w]) => `${k}:${w}`).sort();
    apply(op.step([rows, []])); // no clock yet: nothing passes
    expect(live.size).toBe(0);
    let prev: number | undefined;
    for (const now of [300, 301, 450, 449, 2000, 5200, 10, 2600]) {
      const d = op.step([
        [],
        prev === undefined
          ? [[[now], 1]]
          : [
              [[prev], -1],
              [[now], 1],
            ],
      ]);
      apply(d);
      expect(current()).toEqual(expected(now).sort());
      // only rows that crossed: never more than the two edges' spans of keys (plus the first step's window)
      if (prev !== undefined && Math.abs(now - prev) < 100) expect(d.length).toBeLessThanOrEqual(4 * Math.abs(now - prev) + 4);
      prev = now;
    }
    expect(op.stateSize()).toBe(rows.filter(([r]) => r[1] !== null).length);
    // the clock retracted without a new value: everything leaves
    apply(op.step([[], [[[prev!], -1]]]));
    expect(live.size).toBe(0);
  });
});
