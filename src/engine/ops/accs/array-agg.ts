/**
 * ARRAY_AGG state: a multiset of the aggregated values (with their ORDER BY keys) and, once read, its distinct
 * entries in array order. A change costs O(log n) plus an array splice when a value appears or disappears
 * (O(1) when only its multiplicity changes); the output array, O(n) like the result itself, is rebuilt only when
 * a touched group's result is read, and cached until the next change. Without ORDER BY the elements are in ascending value order (deterministic, as
 * Feldera promises, and independent of arrival order; the binder makes Feldera's input-row order explicit as an
 * ORDER BY, aggs.ts withInputRowOrder); with ORDER BY, ties keep value order. No rows (none, or all filtered out)
 * give an empty array, not NULL, as Feldera answers.
 */
import { checkSize } from '../../types/value-limits.js';
import { compareValues, valueKey, type Value } from '../../types/values.js';
import type { Acc } from '../aggregate.js';
import { ValueMultiset, type Entry } from './multiset.js';

export interface OrderKey {
  asc: boolean;
  nullsFirst: boolean;
}

/** Compare packed [key1, ..., keyN, value] tuples by the ORDER BY keys, then by the value. */
export function packedComparator(order: OrderKey[]): (a: Value, b: Value) => number {
  return (a, b) => {
    const x = a as Value[];
    const y = b as Value[];
    for (let i = 0; i < order.length; i++) {
      const { asc, nullsFirst } = order[i]!;
      const p = x[i]!;
      const q = y[i]!;
      if (p === null || q === null) {
        if (p === q) continue;
        return (p === null) === nullsFirst ? -1 : 1;
      }
      const c = compareValues(p, q);
      if (c !== 0) return asc ? c : -c;
    }
    return compareValues(x[order.length]!, y[order.length]!);
  };
}

export class ArrayAggAcc implements Acc {
  private readonly set = new ValueMultiset();
  /** The distinct entries in array order, kept by binary insertion once built; undefined until first read. */
  private sorted: Entry[] | undefined;
  private cache: Value[] | null | undefined;
  private readonly cmp: (a: Value, b: Value) => number;
  constructor(
    /** undefined: values are fed bare; otherwise they come packed with their ORDER BY keys. */
    private readonly order: OrderKey[] | undefined,
  ) {
    this.cmp = order ? packedComparator(order) : compareValues;
  }
  private position(v: Value): number {
    const xs = this.sorted!;
    let lo = 0;
    let hi = xs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cmp(xs[mid]!.v, v) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  add(v: Value, w: number): void {
    const [old, c] = this.set.add(v, w);
    this.cache = undefined;
    if (!this.sorted) return;
    if (old <= 0 && c > 0) this.sorted.splice(this.position(v), 0, this.set.entries.get(valueKey(v))!);
    else if (old > 0 && c <= 0) {
      const i = this.position(v);
      this.sorted.splice(i, 1);
      if (c < 0) this.sorted = undefined; // a negative weight (a delete before its insert) is rebuilt on read
    }
  }
  result(): Value {
    if (this.cache !== undefined) return this.cache;
    if (!this.sorted) this.sorted = [...this.set.entries.values()].filter((e) => e.c > 0).sort((a, b) => this.cmp(a.v, b.v));
    if (this.sorted.length === 0) return (this.cache = []); // no rows: an empty array, as Feldera answers
    const n = this.order?.length;
    // the array's length (a value counted c times is c elements), checked before it is built (value-limits.ts)
    let size = 0;
    for (const e of this.sorted) size += e.c;
    checkSize('ARRAY_AGG', size, 'elements');
    const out: Value[] = [];
    for (const e of this.sorted) {
      const v = n === undefined ? e.v : (e.v as Value[])[n]!;
      for (let i = 0; i < e.c; i++) out.push(v);
    }
    return (this.cache = out);
  }
}
