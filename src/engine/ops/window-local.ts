/**
 * Window functions whose value for a row depends only on rows a bounded number of positions away in the
 * sorted partition (LAG, LEAD, aggregates over ROWS frames with bounded PRECEDING/FOLLOWING), maintained
 * incrementally.
 *
 * State per partition: its rows in sort order (ties broken by row key, as the full evaluation does), one
 * entry per unit of weight, and the window values last emitted for each. A change is placed by binary
 * search; then only the rows within `reach` positions of a change are re-evaluated, and those whose
 * values changed are emitted as -old +new. A step costs O(log n + reach) per change instead of
 * re-evaluating the whole partition (ops/window.ts).
 */
import { rowKey, sameRow, type Row, type Value } from '../types/values.js';
import type { Cmp } from './window.js';
import type { Delta, Operator } from './zset.js';

export interface LocalWindowSpec {
  partition: (row: Row) => string;
  /** The ORDER BY shared by every function of the node. */
  order: Cmp;
  /** The values of the node's functions for the row at position i of the sorted partition. */
  valuesAt: (rows: Row[], i: number) => Value[];
  /** How many positions away from a change a value can change. */
  reach: number;
}

interface Partition {
  rows: Row[];
  keys: string[];
  /** Window values emitted for each position; undefined for a row not emitted yet. */
  outs: Array<Value[] | undefined>;
  /** Weight of each row (a Z-set: a delete before its insert leaves a negative weight). */
  weights: Map<string, number>;
}

export class LocalWindowOp implements Operator {
  private readonly parts = new Map<string, Partition>();
  private size = 0;

  constructor(private readonly spec: LocalWindowSpec) {}

  stateSize(): number {
    return this.size;
  }

  private lowerBound(p: Partition, row: Row, key: string): number {
    let lo = 0;
    let hi = p.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const k = p.keys[mid]!;
      const c = this.spec.order(p.rows[mid]!, row) || (k < key ? -1 : k > key ? 1 : 0);
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  step([d]: Delta[]): Delta {
    const out: Delta = [];
    const changed = new Map<Partition, Array<[Row, string]>>();
    for (const [row, w] of d!) {
      const pk = this.spec.partition(row);
      let p = this.parts.get(pk);
      if (!p) {
        p = { rows: [], keys: [], outs: [], weights: new Map() };
        this.parts.set(pk, p);
      }
      const key = rowKey(row);
      const w0 = p.weights.get(key) ?? 0;
      const w1 = w0 + w;
      if (w1 === 0) p.weights.delete(key);
      else p.weights.set(key, w1);
      // the sorted rows hold the positive part of the weight
      const n = Math.max(w1, 0) - Math.max(w0, 0);
      if (n === 0) continue;
      let list = changed.get(p);
      if (!list) {
        list = [];
        changed.set(p, list);
      }
      list.push([row, key]);
      const at = this.lowerBound(p, row, key);
      if (n > 0) {
        for (let i = 0; i < n; i++) {
          p.rows.splice(at, 0, row);
          p.keys.splice(at, 0, key);
          p.outs.splice(at, 0, undefined);
        }
      } else {
        for (let i = at; i < at - n; i++) {
          const o = p.outs[i];
          if (o) out.push([row.concat(o), -1]);
        }
        p.rows.splice(at, -n);
        p.keys.splice(at, -n);
        p.outs.splice(at, -n);
      }
      this.size += n;
    }
    const reach = this.spec.reach;
    for (const [p, list] of changed) {
      // positions within reach of a change, in the final order
      const spans: Array<[number, number]> = [];
      for (const [row, key] of list) {
        const at = this.lowerBound(p, row, key);
        let end = at;
        while (end < p.keys.length && p.keys[end] === key) end++;
        spans.push([at - reach - 1, end + reach]);
      }
      spans.sort((a, b) => a[0] - b[0]);
      let next = 0; // first position not yet re-evaluated
      for (const [from, to] of spans) {
        const last = Math.min(to, p.rows.length - 1);
        for (let i = Math.max(from, next, 0); i <= last; i++) {
          const fresh = this.spec.valuesAt(p.rows, i);
          const old = p.outs[i];
          if (old && sameRow(old, fresh)) continue;
          const row = p.rows[i]!;
          if (old) out.push([row.concat(old), -1]);
          out.push([row.concat(fresh), 1]);
          p.outs[i] = fresh;
        }
        next = Math.max(next, last + 1);
      }
      if (p.weights.size === 0) this.parts.delete(this.spec.partition(list[0]![0]));
    }
    return out;
  }
}
