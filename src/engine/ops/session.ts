/**
 * SESSION windows, maintained incrementally: each input row gets window_start and window_end of its session.
 * Within one key, rows sorted by timestamp form one session while each next timestamp is less than `size` after
 * the previous one; the session starts at its first timestamp and ends at its last timestamp + size. Rows with a
 * NULL timestamp produce nothing; a NULL key is a key like any other.
 *
 * State: per key, the distinct rows with their weights sorted by (timestamp, row key). A change at time t can
 * only alter the sessions holding a row within `size` of t (an insert merges them, a delete splits its own);
 * every other session is separated from t by a gap of at least `size` before and after the change. So a step
 * takes, per touched key, the span from the first to the last such session, retracts the output of the span's
 * rows, applies the changes and emits the sessions of the span's new rows: O(log g + span) per change for a
 * key of g rows, where a row that bridges two sessions retracts both and inserts the merged one. The sorted rows
 * are kept in chunks of at most CHUNK entries (Chunked), so an insert or delete moves O(CHUNK + g / CHUNK) entries,
 * not O(g) (moving 20,000 entries of one flat array cost about 130 us per change). With a LATENESS time column,
 * sessions that can no longer change leave the state (release).
 */
import { rowKey, type Row } from '../types/values.js';
import { consolidate, type Delta, type Operator } from './zset.js';
import type { Watermarked } from '../plan/nodes.js';

interface Item {
  row: Row;
  ts: number;
  k: string;
  w: number;
}

const CHUNK = 512;

/** Items sorted by (ts, k) in chunks, addressed by a global index. */
class Chunked {
  private readonly chunks: Item[][] = [];
  /** Global index of each chunk's first item; recomputed after a change. */
  private starts: number[] = [];
  private dirty = false;
  length = 0;

  private index(): number[] {
    if (this.dirty) {
      let n = 0;
      this.starts = this.chunks.map((c) => {
        const s = n;
        n += c.length;
        return s;
      });
      this.dirty = false;
    }
    return this.starts;
  }

  /** The chunk holding global index i (i < length), and i's offset in it. */
  private locate(i: number): [number, number] {
    const starts = this.index();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return [lo, i - starts[lo]!];
  }

  get(i: number): Item {
    const [c, o] = this.locate(i);
    return this.chunks[c]![o]!;
  }

  /** The first index whose ts is >= t (strict: > t). */
  lowerBound(t: number, strict: boolean): number {
    const chunks = this.chunks;
    const after = (v: number): boolean => (strict ? v > t : v >= t);
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = chunks[mid]!;
      if (after(c[c.length - 1]!.ts)) hi = mid;
      else lo = mid + 1;
    }
    if (lo === chunks.length) return this.length;
    const c = chunks[lo]!;
    let a = 0;
    let b = c.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (after(c[mid]!.ts)) b = mid;
      else a = mid + 1;
    }
    return this.index()[lo]! + a;
  }

  insert(i: number, item: Item): void {
    if (this.chunks.length === 0) this.chunks.push([item]);
    else {
      const [c, o] = i === this.length ? [this.chunks.length - 1, this.chunks[this.chunks.length - 1]!.length] : this.locate(i);
      const chunk = this.chunks[c]!;
      chunk.splice(o, 0, item);
      if (chunk.length > CHUNK) this.chunks.splice(c + 1, 0, chunk.splice(CHUNK / 2));
    }
    this.length++;
    this.dirty = true;
  }

  /** Drops the first n items. */
  dropPrefix(n: number): void {
    let left = n;
    while (left > 0 && this.chunks.length && this.chunks[0]!.length <= left) left -= this.chunks.shift()!.length;
    if (left > 0) this.chunks[0]!.splice(0, left);
    this.length -= n;
    this.dirty = true;
  }

  remove(i: number): void {
    const [c, o] = this.locate(i);
    const chunk = this.chunks[c]!;
    chunk.splice(o, 1);
    if (chunk.length === 0) this.chunks.splice(c, 1);
    this.length--;
    this.dirty = true;
  }
}

export class SessionOp implements Operator {
  private readonly groups = new Map<string, Chunked>();
  private rows = 0;

  constructor(
    private readonly key: (row: Row) => string,
    private readonly tsCol: number,
    private readonly size: number,
    /** The time column's LATENESS lineage: with it, sessions that can no longer change leave the state. */
    private readonly gc?: Watermarked,
  ) {}

  stateSize(): number {
    return this.rows;
  }

  /**
   * A row at time t arrives only while t + slack > the watermark, and merges with a session only when t is less
   * than its last time + size; so once last + size + slack - 1 <= the watermark, the session is final (its rows,
   * older still, can no longer be inserted or deleted either) and its rows are dropped from the state.
   */
  release(watermark: (table: string, col: number) => number | undefined): void {
    if (!this.gc) return;
    const wm = watermark(this.gc.table, this.gc.col);
    if (wm === undefined) return;
    const limit = wm - this.size - this.gc.slack + 1;
    for (const [k, items] of this.groups) {
      let n = 0;
      while (n < items.length) {
        let j = n;
        while (j + 1 < items.length && items.get(j + 1).ts - items.get(j).ts < this.size) j++;
        if (items.get(j).ts > limit) break;
        n = j + 1;
      }
      if (n === 0) continue;
      items.dropPrefix(n);
      this.rows -= n;
      if (items.length === 0) this.groups.delete(k);
    }
  }

  step([d]: Delta[]): Delta {
    const byKey = new Map<string, Array<[Row, number]>>();
    for (const e of d!) {
      if (e[0][this.tsCol] === null) continue;
      const k = this.key(e[0]);
      const list = byKey.get(k);
      if (list) list.push(e);
      else byKey.set(k, [e]);
    }
    const out: Delta = [];
    for (const [k, changes] of byKey) {
      let items = this.groups.get(k);
      if (!items) this.groups.set(k, (items = new Chunked()));
      const tsOf = changes.map(([r]) => r[this.tsCol] as number);
      const tMin = Math.min(...tsOf);
      const tMax = Math.max(...tsOf);
      // the old span: every session with a row within size of a change (the hull of them)
      let lo = items.lowerBound(tMin - this.size, true);
      let hi = items.lowerBound(tMax + this.size, false) - 1;
      let fromTs = tMin;
      let toTs = tMax;
      if (lo <= hi) {
        while (lo > 0 && items.get(lo).ts - items.get(lo - 1).ts < this.size) lo--;
        while (hi + 1 < items.length && items.get(hi + 1).ts - items.get(hi).ts < this.size) hi++;
        this.emit(items, lo, hi, -1, out);
        fromTs = Math.min(fromTs, items.get(lo).ts);
        toTs = Math.max(toTs, items.get(hi).ts);
      }
      for (const [row, w] of changes) this.apply(items, row, w);
      if (items.length === 0) {
        this.groups.delete(k);
        continue;
      }
      const nlo = items.lowerBound(fromTs, false);
      const nhi = items.lowerBound(toTs, true) - 1;
      if (nlo <= nhi) this.emit(items, nlo, nhi, 1, out);
    }
    return consolidate(out);
  }

  /** The output rows of items[lo..hi] (whole sessions), with their weights times sign. */
  private emit(items: Chunked, lo: number, hi: number, sign: number, out: Delta): void {
    const span: Item[] = [];
    for (let m = lo; m <= hi; m++) span.push(items.get(m));
    let i = 0;
    while (i < span.length) {
      let j = i;
      while (j + 1 < span.length && span[j + 1]!.ts - span[j]!.ts < this.size) j++;
      const start = span[i]!.ts;
      const end = span[j]!.ts + this.size;
      for (let m = i; m <= j; m++) out.push([span[m]!.row.concat([start, end]), sign * span[m]!.w]);
      i = j + 1;
    }
  }

  private apply(items: Chunked, row: Row, w: number): void {
    const ts = row[this.tsCol] as number;
    const k = rowKey(row);
    let i = items.lowerBound(ts, false);
    while (i < items.length && items.get(i).ts === ts && items.get(i).k < k) i++;
    const at = i < items.length ? items.get(i) : undefined;
    if (at && at.ts === ts && at.k === k) {
      at.w += w;
      if (at.w === 0) {
        items.remove(i);
        this.rows--;
      }
    } else if (w !== 0) {
      items.insert(i, { row, ts, k, w });
      this.rows++;
    }
  }
}
