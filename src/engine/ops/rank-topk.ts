/**
 * ROW_NUMBER / RANK / DENSE_RANK over PARTITION BY ... ORDER BY, when every reader keeps only ranks <= k
 * (`WHERE rn <= k` over it, or QUALIFY): a top-k per partition, maintained incrementally.
 *
 * State per partition: its rows in sort order (ties broken by row key, as the full evaluation does), and
 * the rows it emitted last. A change is placed by binary search; the partition's output is then the prefix
 * whose rank is <= k, with the rank appended, and the step emits that prefix's difference with the last
 * one. A step costs O(log n) per change plus O(k) per touched partition (and an array move), instead of
 * re-evaluating the whole partition as the general window operator (ops/window.ts) does.
 */
import { rowKey, type Row } from '../types/values.js';
import type { Cmp } from './window.js';
import { SortedRows } from './sorted-rows.js';
import type { Delta, Operator } from './zset.js';

export type RankKind = 'ROW_NUMBER' | 'RANK' | 'DENSE_RANK';

interface Partition {
  sorted: SortedRows;
  /** The output rows emitted for this partition (input row + rank) with their weights, by row key. */
  emitted: Map<string, [Row, number]>;
}

export class PartitionedRankTopKOp implements Operator {
  private readonly parts = new Map<string, Partition>();
  private rows = 0;

  constructor(
    private readonly partition: (row: Row) => string,
    private readonly order: Cmp,
    private readonly kind: RankKind,
    private readonly limit: number,
  ) {}

  stateSize(): number {
    return this.rows;
  }

  step([d]: Delta[]): Delta {
    const touched = new Map<string, Partition>();
    for (const [row, w] of d!) {
      const pk = this.partition(row);
      let p = this.parts.get(pk);
      if (!p) {
        p = { sorted: new SortedRows(this.order), emitted: new Map() };
        this.parts.set(pk, p);
      }
      touched.set(pk, p);
      const key = rowKey(row);
      const { at, n } = p.sorted.weigh(row, key, w);
      if (n === 0) continue;
      p.sorted.apply(row, key, at, n);
      this.rows += n;
    }
    const out: Delta = [];
    for (const [pk, p] of touched) {
      const fresh = this.prefix(p.sorted.rows);
      for (const [k, [r, w]] of p.emitted) {
        const dw = (fresh.get(k)?.[1] ?? 0) - w;
        if (dw !== 0) out.push([r, dw]);
      }
      for (const [k, e] of fresh) if (!p.emitted.has(k)) out.push([e[0], e[1]]);
      p.emitted = fresh;
      if (p.sorted.empty) this.parts.delete(pk);
    }
    return out;
  }

  /** The output of a partition: each row of rank <= limit with its rank appended, by output row key. */
  private prefix(sorted: Row[]): Map<string, [Row, number]> {
    const out = new Map<string, [Row, number]>();
    let rank = 0;
    let dense = 0;
    for (let i = 0; i < sorted.length; i++) {
      const row = sorted[i]!;
      const peer = i > 0 && this.order(sorted[i - 1]!, row) === 0;
      if (!peer) {
        rank = i + 1;
        dense++;
      }
      const value = this.kind === 'ROW_NUMBER' ? i + 1 : this.kind === 'RANK' ? rank : dense;
      if (value > this.limit) break;
      const r = row.concat([value]);
      const k = rowKey(r);
      const e = out.get(k);
      if (e) e[1]++;
      else out.set(k, [r, 1]);
    }
    return out;
  }
}
