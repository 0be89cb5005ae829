/** Z-set basics: a delta is a list of (row, weight) pairs; weights are non-zero integers after consolidation. */
import { rowKey, type Row } from '../types/values.js';

export type Delta = Array<[Row, number]>;

export interface Entry {
  row: Row;
  w: number;
}

/** Sum the weights of equal rows and drop zeros. */
export function consolidate(d: Delta): Delta {
  if (d.length <= 1) return d.length === 1 && d[0]![1] === 0 ? [] : d;
  if (d.length === 2) {
    const [a, b] = d as [[Row, number], [Row, number]];
    if (a[1] === 0 || b[1] === 0) return a[1] === 0 ? (b[1] === 0 ? [] : [b]) : [a];
    if (a[0] !== b[0] && rowKey(a[0]) !== rowKey(b[0])) return d;
    const w = a[1] + b[1];
    return w === 0 ? [] : [[a[0], w]];
  }
  const m = new Map<string, [Row, number]>();
  for (const [row, w] of d) {
    const k = rowKey(row);
    const e = m.get(k);
    if (e) e[1] += w;
    else m.set(k, [row, w]);
  }
  const out: Delta = [];
  for (const e of m.values()) if (e[1] !== 0) out.push(e);
  return out;
}

interface SEntry extends Entry {
  /** Weight change in the current integrate() call, and that call's stamp. */
  d: number;
  s: number;
  k: string;
}

/** An integrated Z-set: row key -> (row, weight). */
export class ZSet {
  readonly map = new Map<string, Entry>();

  add(row: Row, w: number, key = rowKey(row)): void {
    const e = this.map.get(key);
    if (e) {
      e.w += w;
      if (e.w === 0) this.map.delete(key);
    } else if (w !== 0) this.map.set(key, { row, w });
  }

  addDelta(d: Delta): void {
    for (const [row, w] of d) this.add(row, w);
  }

  private stamp = 0;

  /** Integrate a delta and return its consolidated form (one key computation and one map lookup per row). */
  integrate(d: Delta): Delta {
    if (d.length === 1) {
      const [row, w] = d[0]!;
      if (w === 0) return [];
      this.add(row, w);
      return d;
    }
    const stamp = ++this.stamp;
    const touched: SEntry[] = [];
    const map = this.map as Map<string, SEntry>;
    for (const [row, w] of d) {
      if (w === 0) continue;
      const k = rowKey(row);
      let e = map.get(k);
      if (!e) {
        e = { row, w: 0, d: 0, s: 0, k };
        map.set(k, e);
      }
      if (e.s !== stamp) {
        e.s = stamp;
        e.k = k;
        e.d = 0;
        touched.push(e);
      }
      e.w += w;
      e.d += w;
    }
    const out: Delta = [];
    for (const e of touched) {
      if (e.d !== 0) out.push([e.row, e.d]);
      if (e.w === 0) map.delete(e.k);
    }
    return out;
  }

  get size(): number {
    return this.map.size;
  }

  toDelta(): Delta {
    const out: Delta = [];
    for (const e of this.map.values()) out.push([e.row, e.w]);
    return out;
  }

  /** Rows expanded by multiplicity (positive weights only). */
  expand(): Row[] {
    const out: Row[] = [];
    for (const e of this.map.values()) for (let i = 0; i < e.w; i++) out.push(e.row);
    return out;
  }
}

/** Base of every operator instance. */
export interface Operator {
  /** Process one step given the deltas of its inputs (in input order); returns the output delta. */
  step(inputs: Delta[]): Delta;
  /** Output at circuit start (for constants and global aggregates); most operators have none. */
  init?(): Delta;
  /** Approximate number of rows held in state. */
  stateSize(): number;
  /** Release state that can no longer change, given the current watermarks (LATENESS). */
  release?(watermark: (table: string, col: number) => number | undefined): void;
}
