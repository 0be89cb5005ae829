/**
 * LEFT ASOF JOIN (Feldera docs/sql/grammar.md): each left row joined with at most one right row, the one with
 * its join key whose timestamp is the greatest at or before the left row's (MATCH_CONDITION left.ts >=
 * right.ts); NULL-padded when there is none. Contract: the output is left columns then right columns, one row
 * per left row with the left row's weight, whatever the matched row's weight (it is one row); ties on the
 * timestamp go to the greatest right row (compareValues), so the result is deterministic. Right rows with a
 * NULL key or timestamp are never matched; a left row with one matches nothing.
 * State: the left rows by key (a Map of row key -> row, weight) and the right rows by key, sorted by
 * (timestamp, row). A left change costs O(log r) for its match; a right change at time t re-matches the left
 * rows of its key (O(left rows of the key) to find those at or after t, O(log r) each), retracting the old
 * output row of each whose match moved and inserting the new one.
 */
import { compareValues, rowKey, type Row, type Value } from '../types/values.js';
import type { Delta, Operator } from './zset.js';

type Key = string | number;

export interface AsofSpec {
  /** Join key of a row of each side; null when a key column is NULL. */
  leftKey: (row: Row) => Key | null;
  rightKey: (row: Row) => Key | null;
  /** The compared (timestamp) value of a row of each side, of one type. */
  leftTs: (row: Row) => Value;
  rightTs: (row: Row) => Value;
  rightWidth: number;
}

interface LeftEntry {
  row: Row;
  w: number;
}

interface RightEntry {
  ts: Value;
  row: Row;
  key: string;
  w: number;
}

/** The right rows of one key, sorted by (ts, row); each distinct row once, with its weight. */
class RightRows {
  readonly list: RightEntry[] = [];

  private find(ts: Value, row: Row, key: string): number {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const e = this.list[mid]!;
      const c = compareValues(e.ts, ts) || compareValues(e.row, row) || (e.key < key ? -1 : e.key > key ? 1 : 0);
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(ts: Value, row: Row, w: number): void {
    const key = rowKey(row);
    const at = this.find(ts, row, key);
    const e = this.list[at];
    if (e && e.key === key) {
      e.w += w;
      if (e.w === 0) this.list.splice(at, 1);
    } else this.list.splice(at, 0, { ts, row, key, w });
  }

  /** The greatest row (present: positive weight) whose ts is at or before `ts`. */
  match(ts: Value): Row | undefined {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareValues(this.list[mid]!.ts, ts) <= 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0; i--) if (this.list[i]!.w > 0) return this.list[i]!.row;
    return undefined;
  }
}

export class AsofJoinOp implements Operator {
  private readonly L = new Map<Key, Map<string, LeftEntry>>();
  private readonly R = new Map<Key, RightRows>();
  private readonly nulls: Row;
  private size = 0;

  constructor(private readonly s: AsofSpec) {
    this.nulls = new Array<Value>(s.rightWidth).fill(null);
  }

  stateSize(): number {
    return this.size;
  }

  private matchOf(key: Key | null, ts: Value): Row | undefined {
    if (key === null || ts === null) return undefined;
    return this.R.get(key)?.match(ts);
  }

  private out(left: Row, match: Row | undefined): Row {
    return left.concat(match ?? this.nulls);
  }

  step([dl, dr]: Delta[]): Delta {
    const out: Delta = [];
    const s = this.s;
    // the left rows already here whose match the right changes may move: those of a changed key at or after the earliest change
    const touched = new Map<Key, Value>();
    for (const [row, w] of dr!) {
      if (w === 0) continue;
      const k = s.rightKey(row);
      const ts = s.rightTs(row);
      if (k === null || ts === null) continue;
      const t0 = touched.get(k);
      if (t0 === undefined || compareValues(ts, t0) < 0) touched.set(k, ts);
    }
    const before: Array<{ e: LeftEntry; k: Key; ts: Value; old: Row | undefined }> = [];
    for (const [k, t0] of touched) {
      const lefts = this.L.get(k);
      if (!lefts) continue;
      for (const e of lefts.values()) {
        const ts = s.leftTs(e.row);
        if (ts !== null && compareValues(ts, t0) >= 0) before.push({ e, k, ts, old: this.matchOf(k, ts) });
      }
    }
    for (const [row, w] of dr!) {
      if (w === 0) continue;
      const k = s.rightKey(row);
      const ts = s.rightTs(row);
      if (k === null || ts === null) continue;
      let rr = this.R.get(k);
      if (!rr) this.R.set(k, (rr = new RightRows()));
      const n0 = rr.list.length;
      rr.add(ts, row, w);
      this.size += rr.list.length - n0;
      if (rr.list.length === 0) this.R.delete(k);
    }
    for (const b of before) {
      const now = this.matchOf(b.k, b.ts);
      if (now === b.old) continue;
      out.push([this.out(b.e.row, b.old), -b.e.w]);
      out.push([this.out(b.e.row, now), b.e.w]);
    }
    // the left changes against the right rows after this step's changes
    for (const [row, w] of dl!) {
      if (w === 0) continue;
      const k = s.leftKey(row);
      out.push([this.out(row, this.matchOf(k, s.leftTs(row))), w]);
      if (k === null) continue; // never matched: nothing to keep
      let lefts = this.L.get(k);
      if (!lefts) this.L.set(k, (lefts = new Map()));
      const rk = rowKey(row);
      const e = lefts.get(rk);
      if (e) {
        e.w += w;
        if (e.w === 0) {
          lefts.delete(rk);
          this.size--;
          if (lefts.size === 0) this.L.delete(k);
        }
      } else {
        lefts.set(rk, { row, w });
        this.size++;
      }
    }
    return out;
  }
}
