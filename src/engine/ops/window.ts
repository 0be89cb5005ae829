/**
 * Partition-wise operators without an incremental rule of their own: window functions (ROW_NUMBER, RANK,
 * DENSE_RANK, LAG/LEAD, aggregates OVER frames) and ORDER BY ... LIMIT (top-k).
 *
 * INTEGRATE-EVALUATE-DIFF FALLBACK (DBSP's D∘Q∘I), per partition: the operator integrates its input per
 * partition, re-evaluates only the partitions touched by this step's delta, and emits the difference with
 * that partition's previous output. The cost of a step is proportional to the size of the touched
 * partitions, not to the whole relation (for ORDER BY ... LIMIT without partitions, the whole input).
 */
import { rowKey, type Row, type Value } from '../types/values.js';
import { ZSet, type Delta, type Operator } from './zset.js';

export interface PartitionEval {
  /** Partition key of an input row. */
  partition: (row: Row) => string;
  /** Evaluate one partition: rows expanded by multiplicity -> output rows. */
  evaluate: (rows: Row[]) => Row[];
}

interface Part {
  input: ZSet;
  output: ZSet;
}

export class PartitionedRecomputeOp implements Operator {
  private readonly parts = new Map<string, Part>();
  private size = 0;

  constructor(private readonly spec: PartitionEval) {}

  stateSize(): number {
    return this.size;
  }

  step([d]: Delta[]): Delta {
    const touched = new Map<string, Part>();
    for (const [row, w] of d!) {
      const k = this.spec.partition(row);
      let p = this.parts.get(k);
      if (!p) {
        p = { input: new ZSet(), output: new ZSet() };
        this.parts.set(k, p);
      }
      const before = p.input.size;
      p.input.add(row, w);
      this.size += p.input.size - before;
      touched.set(k, p);
    }
    const out: Delta = [];
    for (const [k, p] of touched) {
      const fresh = new ZSet();
      if (p.input.size > 0) for (const r of this.spec.evaluate(p.input.expand())) fresh.add(r, 1);
      // diff fresh - old
      for (const [key, e] of fresh.map) {
        const o = p.output.map.get(key);
        const dw = e.w - (o ? o.w : 0);
        if (dw !== 0) out.push([e.row, dw]);
      }
      for (const [key, o] of p.output.map) if (!fresh.map.has(key)) out.push([o.row, -o.w]);
      p.output = fresh;
      if (p.input.size === 0) this.parts.delete(k);
    }
    return out;
  }
}

export type Cmp = (a: Row, b: Row) => number;

/** Build a row comparator from sort keys. NULLs sort first ascending, last descending (Calcite default: NULLS LAST for DESC? we follow Postgres: NULLs are larger). */
export function makeComparator(keys: Array<{ fn: (row: Row) => Value; asc: boolean; nullsFirst?: boolean; cmp: (a: Value, b: Value) => number }>): Cmp {
  return (a, b) => {
    for (const k of keys) {
      const va = k.fn(a);
      const vb = k.fn(b);
      if (va === null || vb === null) {
        if (va === vb) continue;
        const nullsFirst = k.nullsFirst ?? k.asc; // (binders pass it: CompileSession.nullsFirst); else NULLs are smaller than any value
        const aNull = va === null ? -1 : 1;
        return nullsFirst ? aNull : -aNull;
      }
      const c = k.cmp(va, vb);
      if (c !== 0) return k.asc ? c : -c;
    }
    return 0;
  };
}

/** Tie-break so that evaluation is deterministic for equal sort keys. */
export function stableSort(rows: Row[], cmp: Cmp): Row[] {
  const keyed = rows.map((r) => ({ r, k: rowKey(r) }));
  keyed.sort((x, y) => cmp(x.r, y.r) || (x.k < y.k ? -1 : x.k > y.k ? 1 : 0));
  return keyed.map((x) => x.r);
}
