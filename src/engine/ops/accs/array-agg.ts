/**
 * ARRAY_AGG state: a multiset of the aggregated values (with their ORDER BY keys). A change costs O(1); the
 * array is rebuilt (O(n log n) in the group's size) only when a touched group's result is read, and cached
 * until the next change. Without ORDER BY the elements are in ascending value order (deterministic, as
 * Feldera promises, and independent of arrival order); with ORDER BY, ties keep value order.
 */
import { compareValues, type Value } from '../../types/values.js';
import type { Acc } from '../aggregate.js';
import { ValueMultiset } from './multiset.js';

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
  private cache: Value[] | null | undefined;
  constructor(
    /** undefined: values are fed bare; otherwise they come packed with their ORDER BY keys. */
    private readonly order: OrderKey[] | undefined,
  ) {}
  add(v: Value, w: number): void {
    this.set.add(v, w);
    this.cache = undefined;
  }
  result(): Value {
    if (this.cache !== undefined) return this.cache;
    const entries = [...this.set.entries.values()].filter((e) => e.c > 0);
    if (entries.length === 0) return (this.cache = null);
    const order = this.order;
    entries.sort(order ? (a, b) => packedComparator(order)(a.v, b.v) : (a, b) => compareValues(a.v, b.v));
    const out: Value[] = [];
    for (const e of entries) {
      const v = order ? (e.v as Value[])[order.length]! : e.v;
      for (let i = 0; i < e.c; i++) out.push(v);
    }
    return (this.cache = out);
  }
}
