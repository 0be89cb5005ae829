/**
 * ORDER BY ... LIMIT k [OFFSET o] over a whole relation, maintained incrementally.
 * State: the integrated input (a Z-set) and T, the first k + o rows of the sorted input (with duplicates).
 * Invariant: T = the first min(k + o, |input|) rows in sort order (ties broken by row key).
 *  - an insert better than T's last row (or while T is not full) is binary-inserted, and T is trimmed;
 *  - a delete of a row in T removes it and refills T by one scan of the input (O(n log(k + o)));
 *    deletes of rows outside T cost nothing.
 * The output is T[o .. o + k); each step emits the difference of that window.
 */
import { rowKey, type Row } from '../types/values.js';
import { ZSet, type Delta, type Operator } from './zset.js';

export class TopKOp implements Operator {
  private readonly all = new ZSet();
  private top: Row[] = [];
  private readonly cmp: (a: Row, b: Row) => number;
  private readonly size: number;

  constructor(
    order: (a: Row, b: Row) => number,
    private readonly limit: number,
    private readonly offset: number,
  ) {
    this.cmp = (a, b) => {
      const c = order(a, b);
      if (c !== 0) return c;
      const ka = rowKey(a);
      const kb = rowKey(b);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    };
    this.size = limit + offset;
  }

  stateSize(): number {
    return this.all.size;
  }

  private insertSorted(row: Row, n: number): void {
    const T = this.top;
    for (let c = 0; c < n; c++) {
      if (T.length >= this.size && this.cmp(row, T[T.length - 1]!) >= 0) return;
      let lo = 0;
      let hi = T.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.cmp(T[mid]!, row) <= 0) lo = mid + 1;
        else hi = mid;
      }
      T.splice(lo, 0, row);
      if (T.length > this.size) T.pop();
    }
  }

  private refill(): void {
    const T: Row[] = [];
    this.top = T;
    for (const e of this.all.map.values()) if (e.w > 0) this.insertSorted(e.row, e.w);
  }

  step([d]: Delta[]): Delta {
    if (this.size === 0) return [];
    const before = this.top.slice(this.offset, this.offset + this.limit);
    for (const [row, w] of d!) {
      this.all.add(row, w);
      if (w > 0) this.insertSorted(row, w);
      else {
        const k = rowKey(row);
        let removed = 0;
        for (let i = this.top.length - 1; i >= 0 && removed < -w; i--) {
          if (rowKey(this.top[i]!) === k) {
            this.top.splice(i, 1);
            removed++;
          }
        }
        if (removed > 0) this.refill();
      }
    }
    const after = this.top.slice(this.offset, this.offset + this.limit);
    const diff = new Map<string, [Row, number]>();
    for (const r of before) {
      const k = rowKey(r);
      const e = diff.get(k);
      if (e) e[1]--;
      else diff.set(k, [r, -1]);
    }
    for (const r of after) {
      const k = rowKey(r);
      const e = diff.get(k);
      if (e) e[1]++;
      else diff.set(k, [r, 1]);
    }
    const out: Delta = [];
    for (const e of diff.values()) if (e[1] !== 0) out.push(e);
    return out;
  }
}
