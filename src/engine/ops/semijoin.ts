/**
 * Semi- and anti-joins for `x IN (subquery)`, `EXISTS (correlated subquery)` and their negations, used as
 * WHERE conjuncts. The right side keeps only counts per key (plus the number of NULL keys and of rows);
 * the left side keeps an index key -> rows so that a change of a key's count re-emits just those rows.
 * Modes (k = the left row's key, c = right count for k):
 *   'semi'      k not NULL and c > 0                       (IN, EXISTS)
 *   'anti'      k NULL or c = 0                            (NOT EXISTS)
 *   'notin'     right empty, or (k not NULL, c = 0 and no NULL on the right)   (NOT IN, three-valued)
 */
import { rowKey, type Row } from '../types/values.js';
import type { Delta, Entry, Operator } from './zset.js';

export type SemiMode = 'semi' | 'anti' | 'notin';

export class SemiJoinOp implements Operator {
  private readonly left = new Map<string | number | null, Map<string, Entry>>();
  private readonly counts = new Map<string | number, number>();
  private rightNulls = 0;
  private rightTotal = 0;
  private size = 0;

  constructor(
    private readonly mode: SemiMode,
    private readonly leftKey: (row: Row) => string | number | null,
    private readonly rightKey: (row: Row) => string | number | null,
  ) {}

  stateSize(): number {
    return this.size + this.counts.size;
  }

  private pass(k: string | number | null, c: number, nulls: number, total: number): boolean {
    switch (this.mode) {
      case 'semi':
        return k !== null && c > 0;
      case 'anti':
        return k === null || c <= 0;
      case 'notin':
        return total <= 0 || (k !== null && c <= 0 && nulls <= 0);
    }
  }

  step([dl, dr]: Delta[]): Delta {
    const out: Delta = [];
    const oldCounts = new Map<string | number, number>();
    const oldNulls = this.rightNulls;
    const oldTotal = this.rightTotal;
    for (const [r, w] of dr!) {
      const k = this.rightKey(r);
      this.rightTotal += w;
      if (k === null) {
        this.rightNulls += w;
        continue;
      }
      const c = this.counts.get(k) ?? 0;
      if (!oldCounts.has(k)) oldCounts.set(k, c);
      if (c + w === 0) this.counts.delete(k);
      else this.counts.set(k, c + w);
    }
    const globalChange = this.mode === 'notin' && (oldTotal > 0 !== this.rightTotal > 0 || oldNulls > 0 !== this.rightNulls > 0);
    const reemit = (k: string | number | null, bucket: Map<string, Entry>, oc: number): void => {
      const nc = k === null ? 0 : (this.counts.get(k) ?? 0);
      const before = this.pass(k, oc, oldNulls, oldTotal);
      const after = this.pass(k, nc, this.rightNulls, this.rightTotal);
      if (before === after) return;
      for (const e of bucket.values()) out.push([e.row, after ? e.w : -e.w]);
    };
    if (globalChange) {
      for (const [k, bucket] of this.left) reemit(k, bucket, k === null ? 0 : (oldCounts.get(k) ?? this.counts.get(k) ?? 0));
    } else {
      for (const [k, oc] of oldCounts) {
        const bucket = this.left.get(k);
        if (bucket) reemit(k, bucket, oc);
      }
    }
    for (const [l, w] of dl!) {
      const k = this.leftKey(l);
      const c = k === null ? 0 : (this.counts.get(k) ?? 0);
      if (this.pass(k, c, this.rightNulls, this.rightTotal)) out.push([l, w]);
      let bucket = this.left.get(k);
      if (!bucket) {
        bucket = new Map();
        this.left.set(k, bucket);
      }
      const rk = rowKey(l);
      const e = bucket.get(rk);
      if (e) {
        e.w += w;
        if (e.w === 0) {
          bucket.delete(rk);
          this.size--;
          if (bucket.size === 0) this.left.delete(k);
        }
      } else {
        bucket.set(rk, { row: l, w });
        this.size++;
      }
    }
    return out;
  }
}
