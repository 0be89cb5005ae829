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
}
