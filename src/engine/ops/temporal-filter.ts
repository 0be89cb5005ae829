/**
 * A temporal filter (Feldera docs/sql/datetime.md#now): `WHERE key(row) op bound(NOW())` for one or more
 * bounds over the same key (`ts >= NOW() - INTERVAL 1 HOUR AND ts <= NOW()`), the key a TIMESTAMP or DATE
 * (a number), maintained so that a move of the clock costs what it changes, not a pass over every row.
 *
 * Inputs: [rows, clock] (the clock: the one-row NOW relation, bind/now.ts). State: the rows by key value, and
 * the distinct key values in order (chunked, so inserting one is O(log n + chunk)). Whether a row passes
 * depends only on its key, so when the clock moves, only the keys between a bound's old and new value can
 * change their answer: those keys are read (O(log n + rows there)) and their rows retracted or inserted.
 * A row arriving is passed with the current clock. A NULL key never passes (and is not kept); before the
 * clock has a value nothing passes. Exact for any bound expression (monotone in NOW() or not).
 */
import type { Row } from '../types/values.js';
import { rowKey } from '../types/values.js';
import type { Delta, Operator } from './zset.js';

export type TemporalOp = 'Lt' | 'LtEq' | 'Gt' | 'GtEq' | 'Eq';

export interface TemporalBound {
  /** The comparison written `key op bound`. */
  op: TemporalOp;
  /** The bound for a value of NOW() (ms since the epoch); null: the comparison is not TRUE. */
  at: (now: number) => number | null;
}

export interface TemporalSpec {
  key: (row: Row) => number | null;
  bounds: TemporalBound[];
}

function holds(op: TemporalOp, k: number, b: number): boolean {
  switch (op) {
    case 'Lt':
      return k < b;
    case 'LtEq':
      return k <= b;
    case 'Gt':
      return k > b;
    case 'GtEq':
      return k >= b;
    case 'Eq':
      return k === b;
  }
}

const CHUNK = 512;

/** Distinct numbers in ascending order, in chunks of at most CHUNK. */
export class SortedNumbers {
  private chunks: number[][] = [];

  get size(): number {
    let n = 0;
    for (const c of this.chunks) n += c.length;
    return n;
  }

  /** Index of the first chunk whose last value is >= v (chunks.length when none). */
  private chunkFor(v: number): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = this.chunks[mid]!;
      if (c[c.length - 1]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(v: number): void {
    if (this.chunks.length === 0) {
      this.chunks.push([v]);
      return;
    }
    let ci = this.chunkFor(v);
    if (ci === this.chunks.length) ci--; // beyond the last value: the last chunk
    const c = this.chunks[ci]!;
    const at = lowerBound(c, v);
    if (c[at] === v) return;
    c.splice(at, 0, v);
    if (c.length > CHUNK) this.chunks.splice(ci + 1, 0, c.splice(CHUNK >> 1));
  }

  delete(v: number): void {
    const ci = this.chunkFor(v);
    const c = this.chunks[ci];
    if (!c) return;
    const at = lowerBound(c, v);
    if (c[at] !== v) return;
    c.splice(at, 1);
    if (c.length === 0) this.chunks.splice(ci, 1);
  }

  /** Calls f for each value in [lo, hi], ascending. */
  range(lo: number, hi: number, f: (v: number) => void): void {
    for (let ci = this.chunkFor(lo); ci < this.chunks.length; ci++) {
      const c = this.chunks[ci]!;
      for (let i = c[0]! < lo ? lowerBound(c, lo) : 0; i < c.length; i++) {
        if (c[i]! > hi) return;
        f(c[i]!);
      }
    }
  }

  forEach(f: (v: number) => void): void {
    for (const c of this.chunks) for (const v of c) f(v);
  }
}

function lowerBound(a: number[], v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class TemporalFilterOp implements Operator {
  /** Rows by key value: row key -> [row, weight]. */
  private readonly byKey = new Map<number, Map<string, [Row, number]>>();
  private readonly keys = new SortedNumbers();
  private rows = 0;
  private now: number | undefined;
  /** The bounds at `now`. */
  private at: Array<number | null> = [];

  constructor(private readonly spec: TemporalSpec) {}

  private passes(k: number, at: Array<number | null>): boolean {
    const bounds = this.spec.bounds;
    for (let i = 0; i < bounds.length; i++) {
      const b = at[i];
      if (b === null || b === undefined || !holds(bounds[i]!.op, k, b)) return false;
    }
    return true;
  }

  step([rows, clock]: Delta[]): Delta {
    const out: Delta = [];
    if (clock && clock.length) this.moveClock(clock, out);
    if (rows) for (const [row, w] of rows) this.addRow(row, w, out);
    return out;
  }

  /** The clock's new value (its inserted row; none when it was only retracted): rows whose answer changes go out. */
  private moveClock(clock: Delta, out: Delta): void {
    let next: number | undefined;
    for (const [row, w] of clock) if (w > 0) next = row[0] as number;
    if (next === this.now) return;
    const before = this.now;
    const old = this.at;
    const at = next === undefined ? [] : this.spec.bounds.map((b) => b.at(next));
    const flip = (k: number): void => {
      const was = before !== undefined && this.passes(k, old);
      const is = next !== undefined && this.passes(k, at);
      if (was === is) return;
      for (const [row, w] of this.byKey.get(k)!.values()) out.push([row, is ? w : -w]);
    };
    if (before === undefined || next === undefined || old.some((b) => b === null) || at.some((b) => b === null)) this.keys.forEach(flip);
    else if (this.spec.bounds.length === 1) this.keys.range(Math.min(old[0]!, at[0]!), Math.max(old[0]!, at[0]!), flip);
    else {
      // the keys a bound crosses, each once (ranges of several bounds may overlap)
      const seen = new Set<number>();
      const visit = (k: number): void => {
        if (seen.has(k)) return;
        seen.add(k);
        flip(k);
      };
      for (let i = 0; i < at.length; i++) this.keys.range(Math.min(old[i]!, at[i]!), Math.max(old[i]!, at[i]!), visit);
    }
    this.now = next;
    this.at = at;
  }

  private addRow(row: Row, w: number, out: Delta): void {
    const k = this.spec.key(row);
    if (k === null) return;
    let rows = this.byKey.get(k);
    if (!rows) {
      rows = new Map();
      this.byKey.set(k, rows);
      this.keys.add(k);
    }
    const rk = rowKey(row);
    const e = rows.get(rk);
    if (e) {
      e[1] += w;
      if (e[1] === 0) {
        rows.delete(rk);
        this.rows--;
        if (rows.size === 0) {
          this.byKey.delete(k);
          this.keys.delete(k);
        }
      }
    } else {
      rows.set(rk, [row, w]);
      this.rows++;
    }
    if (this.now !== undefined && this.passes(k, this.at)) out.push([row, w]);
  }

  stateSize(): number {
    return this.rows;
  }
}
