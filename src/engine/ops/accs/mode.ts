/**
 * MODE: value -> weight (a multiset) plus weight -> set of value keys. The mode is read from the highest
 * non-empty weight bucket; ties go to the smallest value. A change moves one value between two buckets (O(1));
 * reading scans the highest bucket, and after a retraction empties it, the bucket weights (at most O(sqrt n)
 * distinct weights) to find the next highest.
 */
import { compareValues, type Value } from '../../types/values.js';
import type { Acc } from '../aggregate.js';
import { ValueMultiset } from './multiset.js';
import { valueKey } from '../../types/values.js';

export class ModeAcc implements Acc {
  private readonly set = new ValueMultiset();
  private readonly buckets = new Map<number, Set<string>>();
  private top = 0;
  add(v: Value, w: number): void {
    const [old, c] = this.set.add(v, w);
    const k = valueKey(v);
    if (old > 0) {
      const b = this.buckets.get(old)!;
      b.delete(k);
      if (b.size === 0) this.buckets.delete(old);
    }
    if (c > 0) {
      let b = this.buckets.get(c);
      if (!b) this.buckets.set(c, (b = new Set()));
      b.add(k);
      if (c > this.top) this.top = c;
    }
    if (!this.buckets.has(this.top)) {
      this.top = 0;
      for (const t of this.buckets.keys()) if (t > this.top) this.top = t;
    }
  }
  result(): Value {
    const b = this.buckets.get(this.top);
    if (!b) return null;
    let best: Value = null;
    for (const k of b) {
      const v = this.set.entries.get(k)!.v;
      if (best === null || compareValues(v, best) < 0) best = v;
    }
    return best;
  }
}
