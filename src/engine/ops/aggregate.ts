/**
 * GROUP BY with incremental accumulators. Per group: the row count and one accumulator per aggregate.
 * COUNT/SUM/AVG are invertible (O(1) per change). MIN/MAX keep a per-group multiset of values and rescan
 * it only when the current extreme is deleted. DISTINCT aggregates keep per-group value counts and feed the
 * inner accumulator only on 0 <-> positive transitions. A touched group emits -old +new.
 */
import { compareValues, sameRow, valueKey, type Row, type Value } from '../types/values.js';
import type { Delta, Operator } from './zset.js';
import type { Watermarked } from '../plan/nodes.js';
import { finalFrom } from '../plan/waterline.js';

export interface Acc {
  add(v: Value, w: number): void;
  result(): Value;
  /**
   * Whether the state is a fresh accumulator's (what a group whose rows all cancelled may be dropped with).
   * A group's count can fall to 0 while its rows do not cancel (a row deleted before it came, with a negative
   * weight, beside another row): its sums must then stay. Absent: taken as empty.
   */
  empty?(): boolean;
}

export interface AggSpec {
  make: () => Acc;
  /** Argument; undefined for COUNT(*). */
  arg?: (row: Row) => Value;
  filter?: (row: Row) => Value;
  distinct: boolean;
  /** Aggregates other than COUNT(*) ignore NULL arguments. */
  ignoreNulls: boolean;
}

interface Group {
  key: Row;
  /** Its key in the groups map. */
  mapKey: string | number;
  /** The step that last touched it (a step's touched groups are listed once). */
  stamp: number;
  count: number;
  accs: Acc[];
  /**
   * DISTINCT aggregates: per value, its count in the group, keyed by the number itself for a number (the Map's
   * SameValueZero: -0 is 0, NaN is NaN, as valueKey) and by valueKey otherwise (never a number: no clash).
   */
  dmaps?: Array<Map<string | number, number> | undefined>;
  out: Row | null;
}

export class AggregateOp implements Operator {
  private readonly groups = new Map<string | number, Group>();
  private stamp = 0;

  constructor(
    private readonly keyFns: Array<(row: Row) => Value>,
    private readonly aggs: AggSpec[],
    /** No GROUP BY: exactly one output row, even for empty input. */
    private readonly global: boolean,
    /** Group keys fed by LATENESS columns: groups whose key is below the watermark are closed. */
    private readonly gc: Array<Watermarked & { keyIdx: number }> = [],
  ) {}

  /** Drop the accumulators of closed groups; their output rows stay in the views' contents. */
  release(watermark: (table: string, col: number) => number | undefined): void {
    if (!this.gc.length) return;
    const limits = this.gc.map((g) => ({ g, wm: watermark(g.table, g.col) }));
    if (limits.every((l) => l.wm === undefined)) return;
    for (const [k, grp] of this.groups) {
      for (const { g, wm } of limits) {
        const v = grp.key[g.keyIdx];
        if (wm !== undefined && typeof v === 'number' && finalFrom(v, g) <= wm) {
          this.groups.delete(k);
          break;
        }
      }
    }
  }

  stateSize(): number {
    return this.groups.size;
  }

  private newGroup(key: Row, mapKey: string | number): Group {
    return {
      key,
      mapKey,
      stamp: 0,
      count: 0,
      accs: this.aggs.map((a) => a.make()),
      dmaps: this.aggs.some((a) => a.distinct) ? this.aggs.map((a) => (a.distinct ? new Map() : undefined)) : undefined,
      out: null,
    };
  }

  private output(g: Group): Row | null {
    if (g.count <= 0 && !this.global) return null;
    const r: Row = g.key.slice();
    for (const a of g.accs) r.push(a.result());
    return r;
  }

  init(): Delta {
    if (!this.global) return [];
    const g = this.newGroup([], '');
    this.groups.set('', g);
    g.out = this.output(g);
    return [[g.out!, 1]];
  }

  step([d]: Delta[]): Delta {
    // the groups this step touches, in order, with their output before it (a stamp marks a group listed)
    const stamp = ++this.stamp;
    const touched: Group[] = [];
    const before: Array<Row | null> = [];
    const keyFns = this.keyFns;
    const nk = keyFns.length;
    const aggs = this.aggs;
    for (const [row, w] of d!) {
      // the map key straight from the row; the key's values are put in an array only for a new group
      const k = nk === 0 ? '' : nk === 1 ? singleKey(keyFns[0]!(row)) : rowGroupKey(keyFns, row);
      let g = this.groups.get(k);
      if (!g) {
        const key: Row = new Array<Value>(nk);
        for (let i = 0; i < nk; i++) key[i] = keyFns[i]!(row);
        g = this.newGroup(key, k);
        this.groups.set(k, g);
      }
      if (g.stamp !== stamp) {
        g.stamp = stamp;
        touched.push(g);
        before.push(g.out);
      }
      g.count += w;
      for (let i = 0; i < aggs.length; i++) {
        const a = aggs[i]!;
        if (a.filter && a.filter(row) !== true) continue;
        const v = a.arg ? a.arg(row) : 1;
        if (v === null && a.ignoreNulls) continue;
        if (a.distinct) {
          const m = g.dmaps![i]!;
          const vk = typeof v === 'number' ? v : valueKey(v);
          const c = m.get(vk) ?? 0;
          const nc = c + w;
          if (nc === 0) m.delete(vk);
          else m.set(vk, nc);
          if (c <= 0 && nc > 0) g.accs[i]!.add(v, 1);
          else if (c > 0 && nc <= 0) g.accs[i]!.add(v, -1);
        } else g.accs[i]!.add(v, w);
      }
    }
    const out: Delta = [];
    for (let t = 0; t < touched.length; t++) {
      const g = touched[t]!;
      const old = before[t]!;
      const nw = this.output(g);
      g.out = nw;
      if (old && nw && sameRow(old, nw)) continue;
      if (old) out.push([old, -1]);
      if (nw) out.push([nw, 1]);
      // a group whose rows all cancelled goes; one whose count is 0 but whose sums are not (a row deleted before it came) stays
      if (!nw && g.count === 0 && g.accs.every((a) => a.empty?.() ?? true) && (!g.dmaps || g.dmaps.every((m) => !m || m.size === 0))) this.groups.delete(g.mapKey);
    }
    return out;
  }
}

/** The map key of a one-column group key: a number itself (-0 as 0), anything else its value key. */
function singleKey(v: Value): string | number {
  return typeof v === 'number' ? (v === 0 ? 0 : v) : valueKey(v);
}

/** The map key of a group key of several columns, computed from the row (the same text rowKey gives their values). */
function rowGroupKey(keyFns: Array<(row: Row) => Value>, row: Row): string {
  let s = '';
  for (let i = 0; i < keyFns.length; i++) {
    const v = keyFns[i]!(row);
    if (typeof v === 'number') s += (Object.is(v, -0) ? '0' : v) + '|';
    else if (typeof v === 'string') s += v.length + ':' + v + '|';
    else s += valueKey(v) + '|';
  }
  return s;
}

/* ---------- accumulators ---------- */

export class CountAcc implements Acc {
  n = 0;
  add(_v: Value, w: number): void {
    this.n += w;
  }
  result(): Value {
    return this.n;
  }
  empty(): boolean {
    return this.n === 0;
  }
}

export class SumNumAcc implements Acc {
  s = 0;
  n = 0;
  add(v: Value, w: number): void {
    this.s += (v as number) * w;
    this.n += w;
  }
  result(): Value {
    return this.n === 0 ? null : this.s;
  }
  /** (A DOUBLE sum of values that cancel may keep a rounding residue: its count decides.) */
  empty(): boolean {
    return this.n === 0;
  }
}

export class SumDecAcc implements Acc {
  s = 0n;
  n = 0;
  add(v: Value, w: number): void {
    this.s += (v as bigint) * BigInt(w);
    this.n += w;
  }
  result(): Value {
    return this.n === 0 ? null : this.s;
  }
  empty(): boolean {
    return this.n === 0 && this.s === 0n;
  }
}

/** AVG over numbers: the running sum and count of SUM; integer AVG truncates (as Calcite). */
export class AvgAcc extends SumNumAcc {
  constructor(private readonly integral: boolean) {
    super();
  }
  override result(): Value {
    if (this.n === 0) return null;
    return this.integral ? Math.trunc(this.s / this.n) : this.s / this.n;
  }
}

/** AVG over DECIMALs: the running sum and count of SUM, divided at the sum's scale (truncated toward zero). */
export class AvgDecAcc extends SumDecAcc {
  override result(): Value {
    return this.n === 0 ? null : this.s / BigInt(this.n);
  }
}

/** MIN/MAX: value multiset plus the cached extreme; rescans only when the extreme leaves. */
export class ExtremeAcc implements Acc {
  private readonly vals = new Map<string, { v: Value; c: number }>();
  private best: Value = null;
  private valid = true;
  constructor(private readonly sign: 1 | -1) {}
  add(v: Value, w: number): void {
    const k = valueKey(v);
    const e = this.vals.get(k);
    const c = (e?.c ?? 0) + w;
    if (c === 0) this.vals.delete(k);
    else if (e) e.c = c;
    else this.vals.set(k, { v, c });
    // (a value's count may be negative: a row deleted before it came; only values counted above 0 are in the set)
    if (w > 0 && c > 0) {
      if (this.valid && (this.best === null || this.sign * compareValues(v, this.best) < 0)) this.best = v;
    } else if (this.valid && this.best !== null && c <= 0 && compareValues(v, this.best) === 0) this.valid = false;
  }
  result(): Value {
    if (!this.valid) {
      this.best = null;
      for (const { v, c } of this.vals.values()) if (c > 0 && (this.best === null || this.sign * compareValues(v, this.best) < 0)) this.best = v;
      this.valid = true;
    }
    return this.best;
  }
  empty(): boolean {
    return this.vals.size === 0;
  }
}

/** Aggregates over booleans: EVERY / SOME (BOOL_AND / BOOL_OR). */
export class BoolAcc implements Acc {
  t = 0;
  f = 0;
  constructor(private readonly every: boolean) {}
  add(v: Value, w: number): void {
    if (v === true) this.t += w;
    else this.f += w;
  }
  result(): Value {
    if (this.t + this.f === 0) return null;
    return this.every ? this.f === 0 : this.t > 0;
  }
  empty(): boolean {
    return this.t === 0 && this.f === 0;
  }
}
