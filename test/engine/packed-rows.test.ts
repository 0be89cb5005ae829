/**
 * Packed rows (packed-rows.ts): rows read back from their packed form are the rows that were packed, value
 * for value (and their weights the same), for columns of numbers, of strings, with nulls, and of anything else; rows of different
 * widths are not packed; and the packed form holds no object per row (its heap, measured after a full
 * collection, is a fraction of the rows').
 */
import { setFlagsFromString, getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PackedRows } from '../../src/engine/packed-rows.js';
import type { Delta } from '../../src/engine/ops/zset.js';
import type { Row, Value } from '../../src/engine/types/values.js';

const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, 0, NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 31) - 1));
const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('a', 'é', '😀', '\ud800', '\udc00', '\u0000') }), fc.constant(''));
const other: fc.Arbitrary<Value> = fc.oneof(fc.boolean(), fc.bigInt(), fc.array(fc.integer(), { maxLength: 3 }));

/** A column's values: of one kind (numbers or strings) with some nulls, or of any kinds mixed. */
const column = (n: number): fc.Arbitrary<Value[]> =>
  fc.oneof(
    fc.array(fc.option(number, { freq: 6 }), { minLength: n, maxLength: n }),
    fc.array(fc.option(text, { freq: 6 }), { minLength: n, maxLength: n }),
    fc.array(fc.constant(null), { minLength: n, maxLength: n }),
    fc.array(fc.oneof(number, text, other, fc.constant(null)), { minLength: n, maxLength: n }),
  );

/** Entries of n rows of the given width, built column by column. */
const entries = fc
  .tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 5 }))
  .chain(([n, width]) => fc.tuple(fc.constant(n), fc.array(column(n), { minLength: width, maxLength: width })))
  .map(([n, columns]): Delta => Array.from({ length: n }, (_, i) => [columns.map((col) => col[i]!), i % 3 === 0 ? -2 : 1]));

/** Whether two values are the same: numbers by Object.is (-0, NaN), anything else by identity. */
function same(a: Value, b: Value): boolean {
  return Object.is(a, b);
}

describe('PackedRows', () => {
  it('reads back every row value for value (numbers, strings, nulls, mixed columns)', () => {
    fc.assert(
      fc.property(entries, (d) => {
        const packed = PackedRows.pack(d)!;
        expect(packed).not.toBeNull();
        expect(packed.length).toBe(d.length);
        for (let i = 0; i < d.length; i++) {
          const row = packed.row(i);
          const want = d[i]![0];
          expect(row).toHaveLength(want.length);
          expect(packed.weight(i)).toBe(d[i]![1]);
          for (let c = 0; c < want.length; c++) if (!same(row[c]!, want[c]!)) expect({ row: i, column: c, got: row[c] }).toEqual({ row: i, column: c, got: want[c] });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives a new row on each read, not sharing it with the caller', () => {
    const packed = PackedRows.pack([[[1, 'a'], 1]])!;
    const row = packed.row(0);
    row[0] = 99;
    expect(packed.row(0)).toEqual([1, 'a']);
    expect(packed.row(0)).not.toBe(packed.row(0));
  });

  it('does not pack rows of different widths', () => {
    expect(
      PackedRows.pack([
        [[1, 2], 1],
        [[1], 1],
      ]),
    ).toBeNull();
    expect(PackedRows.pack([])!.length).toBe(0);
  });

  it('holds no object per row: its heap is a fraction of the rows it packs', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const live = (): number => {
      gc();
      return getHeapStatistics().used_heap_size;
    };
    /** Heap that what `build` gives holds (built in a frame of its own, so that nothing else it made stays reachable). */
    let kept: unknown = null;
    const heldBy = (build: () => unknown): number => {
      kept = null;
      const before = live();
      kept = build();
      return live() - before;
    };
    const N = 50_000;
    const make = (): Row[] => Array.from({ length: N }, (_, i) => [i, i / 3, `label-${i}`, i % 7 === 0 ? null : i * 1.5]);
    const asRows = heldBy(make);
    const asPacked = heldBy(() => PackedRows.pack(make().map((r) => [r, 1])));
    // rows: an array and its elements each, two fractional numbers, a string (about 140 bytes a row);
    // packed: 8 bytes a number, the text's characters and ends, the null marks (about 50)
    expect(asPacked).toBeLessThan(0.5 * asRows);
    expect((kept as PackedRows).row(N - 1)).toEqual([N - 1, (N - 1) / 3, `label-${N - 1}`, (N - 1) * 1.5]);
  });
});
