/**
 * The rows of one partition in sort order, for the incremental window operators (rank-topk.ts,
 * window-local.ts). A Z-set underneath: each row's weight is kept (a delete before its insert leaves a
 * negative weight), and the sorted arrays hold the positive part of it, one entry per unit. Ties in the
 * sort order are broken by row key, as the full evaluation (window.ts) does.
 */
import type { Row } from '../types/values.js';
import type { Cmp } from './window.js';

export class SortedRows {
  readonly rows: Row[] = [];
  readonly keys: string[] = [];
  private readonly weights = new Map<string, number>();

  constructor(private readonly order: Cmp) {}

  /** No row has a non-zero weight. */
  get empty(): boolean {
    return this.weights.size === 0;
  }

  /** Position of the first entry not before (row, key). */
  lowerBound(row: Row, key: string): number {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const k = this.keys[mid]!;
      const c = this.order(this.rows[mid]!, row) || (k < key ? -1 : k > key ? 1 : 0);
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Adds weight w to row. Returns where its entries start and how many entries it gains (n > 0) or loses
   * (n < 0); the arrays are not changed yet, so that the caller can read the entries that go (see apply).
   */
  weigh(row: Row, key: string, w: number): { at: number; n: number } {
    const w0 = this.weights.get(key) ?? 0;
    const w1 = w0 + w;
    if (w1 === 0) this.weights.delete(key);
    else this.weights.set(key, w1);
    const n = Math.max(w1, 0) - Math.max(w0, 0);
    return { at: n === 0 ? -1 : this.lowerBound(row, key), n };
  }

  /** Inserts n entries of row at `at` (n > 0), or removes -n entries there (n < 0). */
  apply(row: Row, key: string, at: number, n: number): void {
    if (n < 0) {
      this.rows.splice(at, -n);
      this.keys.splice(at, -n);
      return;
    }
    insertCopies(this.rows, at, row, n);
    insertCopies(this.keys, at, key, n);
  }
}

/** Inserts n copies of x at position at (one splice; no huge argument lists). */
export function insertCopies<T>(arr: T[], at: number, x: T, n: number): void {
  if (n === 1) {
    arr.splice(at, 0, x);
    return;
  }
  const tail = arr.splice(at);
  for (let i = 0; i < n; i++) arr.push(x);
  for (const t of tail) arr.push(t);
}
