/**
 * A weighted multiset of values keyed by valueKey: the retractable state behind ARRAY_AGG, MODE and the
 * extreme-based aggregates. add() is O(1); entries whose weight reaches 0 are dropped.
 */
import { valueKey, type Value } from '../../types/values.js';

export interface Entry {
  v: Value;
  c: number;
}

export class ValueMultiset {
  readonly entries = new Map<string, Entry>();
  /** Total weight. */
  total = 0;

  /** Add weight w to v; returns the entry's old and new weight. */
  add(v: Value, w: number): [number, number] {
    const k = valueKey(v);
    const e = this.entries.get(k);
    const old = e?.c ?? 0;
    const c = old + w;
    if (c === 0) this.entries.delete(k);
    else if (e) e.c = c;
    else this.entries.set(k, { v, c });
    this.total += w;
    return [old, c];
  }
}
