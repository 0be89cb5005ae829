/**
 * Equi-join (inner, left, right, full, cross) with an optional residual predicate. Bilinear rule:
 * Δ(A⋈B) = ΔA⋈B_new + A_old⋈ΔB. Each side keeps an index key -> rows. For outer joins every stored row also
 * keeps the number of matching rows on the other side (with weights); when that count crosses zero the
 * null-padded row is retracted or inserted. Rows whose key has a NULL never match (SQL `=`).
 */
import { rowKey, type Row, type Value } from '../types/values.js';
import type { Delta, Operator } from './zset.js';
import type { JoinBandRelease, Watermarked } from '../plan/nodes.js';
import { finalFrom } from '../plan/waterline.js';
import { rowsProduced } from '../step-guard.js';

interface JEntry {
  row: Row;
  w: number;
  /** Sum of weights of matching rows on the other side (outer joins only). */
  m: number;
}

type Index = Map<string | number, Map<string, JEntry>>;
type Key = string | number;

export interface JoinSpec {
  leftOuter: boolean;
  rightOuter: boolean;
  /** Key of a row of each side; null when any key column is NULL. */
  leftKey: (row: Row) => Key | null;
  rightKey: (row: Row) => Key | null;
  /** Residual predicate over the concatenated row; undefined = always true. */
  residual?: (row: Row) => Value;
  leftWidth: number;
  rightWidth: number;
  /** Key columns fed by LATENESS columns on both sides (LATENESS state release). */
  gc?: JoinGc[];
  /** Band conditions (inner joins): rows of one side that can meet no future change of the other (LATENESS state release). */
  bands?: JoinBandRelease[];
}

/** A pair of equal key columns whose values both come from LATENESS columns. */
export interface JoinGc {
  leftCol: number;
  rightCol: number;
  left: Watermarked;
  right: Watermarked;
}

export class JoinOp implements Operator {
  private readonly L: Index = new Map();
  private readonly R: Index = new Map();
  private size = 0;

  constructor(private readonly s: JoinSpec) {}

  stateSize(): number {
    return this.size;
  }

  /**
   * LATENESS: a key whose value is below the watermark on both sides can get no new rows on either side
   * (they would be late), so both sides' rows for it are dropped; the rows they produced stay in the views.
   */
  release(watermark: (table: string, col: number) => number | undefined): void {
    this.releaseKeys(watermark);
    this.releaseBands(watermark);
  }

  private releaseKeys(watermark: (table: string, col: number) => number | undefined): void {
    const open = (this.s.gc ?? []).map((g) => ({ g, wl: watermark(g.left.table, g.left.col), wr: watermark(g.right.table, g.right.col) })).filter((x) => x.wl !== undefined && x.wr !== undefined);
    if (!open.length) return;
    const closed = (row: Row, side: 'leftCol' | 'rightCol'): boolean =>
      open.some(({ g, wl, wr }) => {
        const v = row[g[side]];
        return typeof v === 'number' && finalFrom(v, g.left) <= wl! && finalFrom(v, g.right) <= wr!;
      });
    for (const [idx, other, side] of [
      [this.L, this.R, 'leftCol'],
      [this.R, this.L, 'rightCol'],
    ] as const) {
      for (const [k, bucket] of idx) {
        const first = bucket.values().next().value;
        if (!first || !closed(first.row, side)) continue;
        this.size -= bucket.size;
        idx.delete(k);
        const ob = other.get(k);
        if (ob) {
          this.size -= ob.size;
          other.delete(k);
        }
      }
    }
  }

  /**
   * Band conditions: a future change of the other side has its column above watermark - slack, so it meets
   * only rows whose column is above that plus the band's offset; rows at or below it go (rows with NULL stay).
   */
  private releaseBands(watermark: (table: string, col: number) => number | undefined): void {
    for (const b of this.s.bands ?? []) {
      const wm = watermark(b.other.table, b.other.col);
      if (wm === undefined) continue;
      const limit = wm - b.other.slack + b.offset;
      const idx = b.side === 'left' ? this.L : this.R;
      for (const [k, bucket] of idx) {
        for (const [rk, e] of bucket) {
          const v = e.row[b.col];
          if (typeof v !== 'number' || v > limit) continue;
          bucket.delete(rk);
          this.size--;
        }
        if (bucket.size === 0) idx.delete(k);
      }
    }
  }

  private dead: Array<[Index, Key, string]> = [];

  private entry(idx: Index, key: Key, row: Row, created: { v: boolean }): JEntry {
    let bucket = idx.get(key);
    if (!bucket) {
      bucket = new Map();
      idx.set(key, bucket);
    }
    const rk = rowKey(row);
    let e = bucket.get(rk);
    created.v = false;
    if (!e) {
      e = { row, w: 0, m: 0 };
      bucket.set(rk, e);
      created.v = true;
      this.size++;
    }
    this.dead.push([idx, key, rk]);
    return e;
  }

  step([dl, dr]: Delta[]): Delta {
    const s = this.s;
    const out: Delta = [];
    const res = s.residual;
    const touchedL = s.leftOuter ? new Map<JEntry, [number, Key]>() : undefined;
    const touchedR = s.rightOuter ? new Map<JEntry, [number, Key]>() : undefined;
    const created = { v: false };
    const nullsR = new Array<Value>(s.rightWidth).fill(null);
    const nullsL = new Array<Value>(s.leftWidth).fill(null);

    // 1. ΔB against A_old
    for (const [r, w] of dr!) {
      const k = s.rightKey(r);
      if (k === null) {
        if (s.rightOuter) out.push([nullsL.concat(r), w]);
        continue;
      }
      const er = this.entry(this.R, k, r, created);
      const isNew = created.v;
      if (touchedR && !touchedR.has(er)) touchedR.set(er, [er.m === 0 ? er.w : 0, k]);
      const bucket = this.L.get(k);
      let cnt = 0;
      if (bucket) {
        rowsProduced(bucket.size); // pairs looked at: the step's guard, if any, may stop a step grown too big
        for (const el of bucket.values()) {
          if (el.w === 0) continue;
          const joined = el.row.concat(r);
          if (res && res(joined) !== true) continue;
          out.push([joined, el.w * w]);
          cnt += el.w;
          if (touchedL) {
            if (!touchedL.has(el)) touchedL.set(el, [el.m === 0 ? el.w : 0, k]);
            el.m += w;
          }
        }
      }
      if (isNew) er.m = cnt;
      er.w += w;
    }
    // 2. ΔA against B_new
    for (const [l, w] of dl!) {
      const k = s.leftKey(l);
      if (k === null) {
        if (s.leftOuter) out.push([l.concat(nullsR), w]);
        continue;
      }
      const el = this.entry(this.L, k, l, created);
      const isNew = created.v;
      if (touchedL && !touchedL.has(el)) touchedL.set(el, [el.m === 0 ? el.w : 0, k]);
      const bucket = this.R.get(k);
      let cnt = 0;
      if (bucket) {
        rowsProduced(bucket.size);
        for (const er of bucket.values()) {
          if (er.w === 0) continue;
          const joined = l.concat(er.row);
          if (res && res(joined) !== true) continue;
          out.push([joined, er.w * w]);
          cnt += er.w;
          if (touchedR) {
            if (!touchedR.has(er)) touchedR.set(er, [er.m === 0 ? er.w : 0, k]);
            er.m += w;
          }
        }
      }
      if (isNew) el.m = cnt;
      el.w += w;
    }
    // 3. null-padded rows whose match count crossed zero
    if (touchedL) {
      for (const [e, [oldPad]] of touchedL) {
        const d = (e.m === 0 ? e.w : 0) - oldPad;
        if (d !== 0) out.push([e.row.concat(nullsR), d]);
      }
    }
    if (touchedR) {
      for (const [e, [oldPad]] of touchedR) {
        const d = (e.m === 0 ? e.w : 0) - oldPad;
        if (d !== 0) out.push([nullsL.concat(e.row), d]);
      }
    }
    // 4. drop dead entries (every entry touched in this step is a candidate)
    for (const [idx, k, rk] of this.dead) {
      const bucket = idx.get(k);
      if (!bucket) continue;
      const e = bucket.get(rk);
      if (e && e.w === 0) {
        bucket.delete(rk);
        this.size--;
        if (bucket.size === 0) idx.delete(k);
      }
    }
    this.dead = [];
    return out;
  }
}
