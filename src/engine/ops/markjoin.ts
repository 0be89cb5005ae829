/**
 * Mark join: every left row comes out once, extended with one column holding the three-valued truth of
 * `x IN (subquery)` or `EXISTS (subquery)` for that row, so the predicate can sit anywhere in an expression
 * (under OR or NOT, in a SELECT list). Both sides carry a correlation key (the outer columns a correlated
 * subquery reads; '' when uncorrelated): a left row only sees the right rows of its key.
 *
 * Per correlation key the right side keeps its row count, its NULL-value count and a count per value.
 *   EXISTS:  TRUE when the key has a row, else FALSE.
 *   IN:      FALSE when the key has no row; else NULL when x is NULL; TRUE when x is among the values;
 *            NULL when a value is NULL; FALSE otherwise (SQL's rules).
 * The left side keeps an index key -> value -> rows, so a right change re-emits only the left rows whose
 * mark it changes: the rows of the changed value, or the whole key when its "has rows"/"has NULLs" flags flip.
 * Within one step the right delta is applied first (old left rows: -old mark +new mark), then the left delta
 * is marked against the new right state.
 */
import { rowKey, valueKey, type Row, type Value } from '../types/values.js';
import type { Delta, Entry, Operator } from './zset.js';

type Key = string;

interface RightGroup {
  total: number;
  nulls: number;
  vals: Map<string, number>;
}

/** value key of a NULL IN value: never a key of a real value. */
const NULL_VAL = '\u0000null';

export interface MarkSpec {
  leftCorr: (row: Row) => Key;
  rightCorr: (row: Row) => Key;
  /** IN: the tested value of a left row and the value of a right row; undefined for EXISTS. */
  leftVal?: (row: Row) => Value;
  rightVal?: (row: Row) => Value;
}

export class MarkJoinOp implements Operator {
  private readonly right = new Map<Key, RightGroup>();
  private readonly left = new Map<Key, Map<string, Map<string, Entry>>>();
  private size = 0;

  constructor(private readonly s: MarkSpec) {}

  stateSize(): number {
    return this.size + this.right.size;
  }

  private mark(total: number, nulls: number, count: number, valIsNull: boolean): Value {
    if (!this.s.leftVal) return total > 0;
    if (total <= 0) return false;
    if (valIsNull) return null;
    if (count > 0) return true;
    return nulls > 0 ? null : false;
  }

  private valKey(v: Value): string {
    return v === null ? NULL_VAL : valueKey(v);
  }

  step([dl, dr]: Delta[]): Delta {
    const out: Delta = [];
    const s = this.s;
    // 1. right changes, remembering each touched key's old flags and old value counts
    const touched = new Map<Key, { total: number; nulls: number; counts: Map<string, number> }>();
    for (const [r, w] of dr!) {
      const k = s.rightCorr(r);
      let g = this.right.get(k);
      if (!g) {
        g = { total: 0, nulls: 0, vals: new Map() };
        this.right.set(k, g);
      }
      let t = touched.get(k);
      if (!t) {
        t = { total: g.total, nulls: g.nulls, counts: new Map() };
        touched.set(k, t);
      }
      g.total += w;
      if (s.rightVal) {
        const v = s.rightVal(r);
        if (v === null) g.nulls += w;
        else {
          const vk = valueKey(v);
          const c = g.vals.get(vk) ?? 0;
          if (!t.counts.has(vk)) t.counts.set(vk, c);
          if (c + w === 0) g.vals.delete(vk);
          else g.vals.set(vk, c + w);
        }
      }
    }
    for (const [k, t] of touched) {
      const g = this.right.get(k)!;
      const bucket = this.left.get(k);
      if (bucket) {
        const flagsChanged = t.total > 0 !== g.total > 0 || t.nulls > 0 !== g.nulls > 0;
        const reemit = (vk: string, rows: Map<string, Entry>): void => {
          const isNull = vk === NULL_VAL;
          const oldCount = t.counts.has(vk) ? t.counts.get(vk)! : (g.vals.get(vk) ?? 0);
          const before = this.mark(t.total, t.nulls, oldCount, isNull);
          const after = this.mark(g.total, g.nulls, g.vals.get(vk) ?? 0, isNull);
          if (before === after) return;
          for (const e of rows.values()) out.push([[...e.row, before], -e.w], [[...e.row, after], e.w]);
        };
        if (flagsChanged) for (const [vk, rows] of bucket) reemit(vk, rows);
        else
          for (const vk of t.counts.keys()) {
            const rows = bucket.get(vk);
            if (rows) reemit(vk, rows);
          }
      }
      if (g.total === 0 && g.nulls === 0 && g.vals.size === 0) this.right.delete(k);
    }
    // 2. left changes, marked against the new right state
    for (const [l, w] of dl!) {
      const k = s.leftCorr(l);
      const v = s.leftVal ? s.leftVal(l) : 1;
      const vk = this.valKey(v);
      const g = this.right.get(k);
      const m = g ? this.mark(g.total, g.nulls, g.vals.get(vk) ?? 0, v === null) : this.mark(0, 0, 0, v === null);
      out.push([[...l, m], w]);
      let byVal = this.left.get(k);
      if (!byVal) {
        byVal = new Map();
        this.left.set(k, byVal);
      }
      let rows = byVal.get(vk);
      if (!rows) {
        rows = new Map();
        byVal.set(vk, rows);
      }
      const rk = rowKey(l);
      const e = rows.get(rk);
      if (!e) {
        rows.set(rk, { row: l, w });
        this.size++;
      } else if ((e.w += w) === 0) {
        rows.delete(rk);
        this.size--;
        if (rows.size === 0) {
          byVal.delete(vk);
          if (byVal.size === 0) this.left.delete(k);
        }
      }
    }
    return out;
  }
}

/** A correlation key over some columns of a row; NULLs are values here (the key is IS NOT DISTINCT FROM). */
export function corrKey(fns: Array<(row: Row) => Value>): (row: Row) => Key {
  if (fns.length === 0) return () => '';
  return (row) => rowKey(fns.map((f) => f(row)));
}
