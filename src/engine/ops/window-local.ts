/**
 * Window functions that know which rows a change can reach, maintained incrementally: LAG, LEAD and
 * aggregates over ROWS frames bounded on both sides (rows a bounded number of positions away) and over
 * RANGE frames (rows whose frame holds the changed value: for a running total, the rows from the change
 * on; for `RANGE BETWEEN x PRECEDING AND CURRENT ROW`, the rows up to x after it).
 *
 * State per partition: its rows in sort order (ties broken by row key, as the full evaluation does), one
 * entry per unit of weight, and the window values last emitted for each. A change is placed by binary
 * search; then only the rows it can reach are re-evaluated (frames slide one accumulator along them), and
 * those whose values changed are emitted as -old +new. Appending to a running total or a moving window
 * re-evaluates a handful of rows instead of the whole partition (ops/window.ts).
 */
import { rowKey, sameRow, type Row, type Value } from '../types/values.js';
import type { Cmp } from './window.js';
import { insertCopies, SortedRows } from './sorted-rows.js';
import type { Delta, Operator } from './zset.js';

export interface LocalWindowSpec {
  partition: (row: Row) => string;
  /** The ORDER BY shared by every function of the node. */
  order: Cmp;
  /** The positions whose values may change when `row` is inserted at final positions [at, end), or
   *  deleted where it would be (at = end). */
  affected: (rows: Row[], row: Row, at: number, end: number) => [number, number];
  /** The values of the node's functions for the rows at positions lo..hi. */
  valuesIn: (rows: Row[], lo: number, hi: number) => Value[][];
}

interface Partition {
  sorted: SortedRows;
  /** Window values emitted for each sorted position; undefined for a row not emitted yet. */
  outs: Array<Value[] | undefined>;
}

export class LocalWindowOp implements Operator {
  private readonly parts = new Map<string, Partition>();
  private size = 0;

  constructor(private readonly spec: LocalWindowSpec) {}

  stateSize(): number {
    return this.size;
  }

  step([d]: Delta[]): Delta {
    const out: Delta = [];
    const changed = new Map<Partition, Array<[Row, string]>>();
    for (const [row, w] of d!) {
      const pk = this.spec.partition(row);
      let p = this.parts.get(pk);
      if (!p) {
        p = { sorted: new SortedRows(this.spec.order), outs: [] };
        this.parts.set(pk, p);
      }
      const key = rowKey(row);
      const { at, n } = p.sorted.weigh(row, key, w);
      if (n === 0) continue;
      let list = changed.get(p);
      if (!list) {
        list = [];
        changed.set(p, list);
      }
      list.push([row, key]);
      if (n > 0) insertCopies(p.outs, at, undefined, n);
      else {
        for (let i = at; i < at - n; i++) {
          const o = p.outs[i];
          if (o) out.push([row.concat(o), -1]);
        }
        p.outs.splice(at, -n);
      }
      p.sorted.apply(row, key, at, n);
      this.size += n;
    }
    for (const [p, list] of changed) {
      // the positions each change can reach, in the final order
      const spans: Array<[number, number]> = [];
      const { rows, keys } = p.sorted;
      for (const [row, key] of list) {
        const at = p.sorted.lowerBound(row, key);
        let end = at;
        while (end < keys.length && keys[end] === key) end++;
        spans.push(this.spec.affected(rows, row, at, end));
        if (end > at) spans.push([at, end - 1]); // inserted rows are emitted even when outside their own frame
      }
      spans.sort((a, b) => a[0] - b[0]);
      let next = 0; // first position not yet re-evaluated
      for (const [from, to] of spans) {
        const first = Math.max(from, next, 0);
        const last = Math.min(to, rows.length - 1);
        if (first > last) continue;
        const values = this.spec.valuesIn(rows, first, last);
        for (let i = first; i <= last; i++) {
          const fresh = values[i - first]!;
          const old = p.outs[i];
          if (old && sameRow(old, fresh)) continue;
          const row = rows[i]!;
          if (old) out.push([row.concat(old), -1]);
          out.push([row.concat(fresh), 1]);
          p.outs[i] = fresh;
        }
        next = last + 1;
      }
      if (p.sorted.empty) this.parts.delete(this.spec.partition(list[0]![0]));
    }
    return out;
  }
}
