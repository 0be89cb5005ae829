/**
 * SESSION windows, maintained incrementally: each input row gets window_start and window_end of its session.
 * Within one key, rows sorted by timestamp form one session while each next timestamp is less than `size` after
 * the previous one; the session starts at its first timestamp and ends at its last timestamp + size. Rows with a
 * NULL timestamp produce nothing; a NULL key is a key like any other.
 * State: the integrated input per key and the output last emitted per key. A step recomputes the sessions of
 * each key its changes touch (O(g log g) for a group of g rows) and emits the difference from that key's previous
 * output, so an insert that merges two sessions retracts both and inserts the merged one.
 */
import { compareValues, rowKey, type Row } from '../types/values.js';
import { consolidate, ZSet, type Delta, type Operator } from './zset.js';

export class SessionOp implements Operator {
  private readonly groups = new Map<string, ZSet>();
  private readonly emitted = new Map<string, Delta>();

  constructor(
    private readonly key: (row: Row) => string,
    private readonly tsCol: number,
    private readonly size: number,
  ) {}

  stateSize(): number {
    let n = 0;
    for (const g of this.groups.values()) n += g.map.size;
    return n;
  }

  step([d]: Delta[]): Delta {
    const touched = new Set<string>();
    for (const [row, w] of d!) {
      if (row[this.tsCol] === null) continue;
      const k = this.key(row);
      let g = this.groups.get(k);
      if (!g) this.groups.set(k, (g = new ZSet()));
      g.add(row, w);
      touched.add(k);
    }
    const out: Delta = [];
    for (const k of touched) {
      const before = this.emitted.get(k) ?? [];
      const g = this.groups.get(k)!;
      const after = this.sessions(g);
      if (g.map.size === 0) {
        this.groups.delete(k);
        this.emitted.delete(k);
      } else this.emitted.set(k, after);
      for (const [row, w] of consolidate([...before.map(([r, w0]): [Row, number] => [r, -w0]), ...after])) out.push([row, w]);
    }
    return out;
  }

  private sessions(g: ZSet): Delta {
    const ts = this.tsCol;
    const rows = [...g.map.values()].filter((e) => e.w > 0).sort((a, b) => compareValues(a.row[ts]!, b.row[ts]!) || (rowKey(a.row) < rowKey(b.row) ? -1 : 1));
    const out: Delta = [];
    let i = 0;
    while (i < rows.length) {
      let j = i;
      while (j + 1 < rows.length && (rows[j + 1]!.row[ts] as number) - (rows[j]!.row[ts] as number) < this.size) j++;
      const start = rows[i]!.row[ts] as number;
      const end = (rows[j]!.row[ts] as number) + this.size;
      for (let k = i; k <= j; k++) out.push([rows[k]!.row.concat([start, end]), rows[k]!.w]);
      i = j + 1;
    }
    return out;
  }
}
