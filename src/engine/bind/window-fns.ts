/**
 * One window function call compiled: its type, its values over a sorted partition, and, for the functions
 * that know which rows a change reaches (LAG, LEAD, ROWS frames bounded on both sides, RANGE frames), those
 * rows and the values of a range of positions, for ops/window-local.ts. Frame aggregates slide one
 * accumulator along the sorted rows; RANGE frame bounds are found by binary search.
 */
import { SqlError, type Expr, type FrameBound, type OrderItem, type WindowSpec } from '../parse/ast.js';
import { type SqlType, mk, isInteger, isNumeric, withNull, isDecimal, typeToString } from '../types/types.js';
import { compareValues, type Row, type Value } from '../types/values.js';
import type { Acc } from '../ops/aggregate.js';
import { AGG_NAMES, bindExpr, exprKey, type BindCtx } from './expr.js';
import { aggCallArgs } from './aggs.js';
import { bindAggregate } from './fns/aggregate.js';
import { makeComparator, type Cmp } from '../ops/window.js';
import type { BExpr } from './bexpr.js';

export interface WinFn {
  key: string;
  type: SqlType;
  compute: (sorted: Row[]) => Value[];
  /**
   * For functions that can be re-evaluated around a change (ops/window-local.ts): the positions whose value
   * may change when `row` is inserted at final positions [at, end) or deleted at gap `at` (= end), ...
   */
  affected?: (sorted: Row[], row: Row, at: number, end: number) => [number, number];
  /** ... and the values at positions lo..hi. */
  range?: (sorted: Row[], lo: number, hi: number) => Value[];
}

/** Functions that read rows at most `reach` positions away: re-evaluate that far around a change. */
function nearby(reach: number, at: (rows: Row[], i: number) => Value): Pick<WinFn, 'affected' | 'range'> {
  return {
    affected: (_rows, _row, from, end) => [from - reach - 1, end + reach],
    range: (rows, lo, hi) => {
      const out: Value[] = [];
      for (let i = lo; i <= hi; i++) out.push(at(rows, i));
      return out;
    },
  };
}

/** First position in [from, to) where pred holds (pred false then true along the range); `to` if none. */
function firstWhere(from: number, to: number, pred: (j: number) => boolean): number {
  let l = from;
  let h = to;
  while (l < h) {
    const m = (l + h) >> 1;
    if (pred(m)) h = m;
    else l = m + 1;
  }
  return l;
}

/** The run [a, b) of rows whose key is not NULL (NULLs sort together at one end). */
function nonNullRun(rows: Row[], key: (r: Row) => Value): { a: number; b: number; nullsFirst: boolean } {
  const n = rows.length;
  const nullsFirst = n > 0 && key(rows[0]!) === null;
  const a = nullsFirst ? firstWhere(0, n, (j) => key(rows[j]!) !== null) : 0;
  const b = nullsFirst ? n : firstWhere(0, n, (j) => key(rows[j]!) === null);
  return { a, b, nullsFirst };
}

/** The comparator of an ORDER BY list: a window's (`OVER`, scalar keys only, as Feldera's compiler sorts them) or a
 * query's (ORDER BY ... LIMIT, which sorts on any key, arrays and maps included). */
export function orderComparator(items: OrderItem[], ctx: BindCtx, of: 'window' | 'query' = 'window'): { cmp: Cmp; keys: BExpr[] } {
  const keys = items.map((o) => bindExpr(o.expr, ctx));
  if (of === 'window')
    for (const [i, k] of keys.entries())
      if (k.type.kind === 'ARRAY' || k.type.kind === 'MAP') throw new SqlError(`OVER currently cannot sort on columns with type '${typeToString(k.type)}'`, items[i]!.expr.pos, 'unsupported');
  const cmp = makeComparator(items.map((o, i) => ({ fn: keys[i]!.fn, asc: o.asc, nullsFirst: ctx.session.nullsFirst(o), cmp: compareValues })));
  return { cmp, keys };
}

function constInt(e: Expr | undefined, ctx: BindCtx, dflt: number, message = 'Expected a constant integer'): number {
  if (!e) return dflt;
  const b = bindExpr(e, ctx);
  if (!b.constant || !isInteger(b.type)) throw new SqlError(message, e.pos, 'unsupported');
  return b.fn([]) as number;
}

type WindowCall = Expr & { k: 'func' };
type Frame = NonNullable<WindowSpec['frame']>;
/** The rows [lo, hi] of the sorted partition in row i's frame. */
type Bounds = (rows: Row[], i: number) => [number, number];
/** The ORDER BY of a window: its comparator, its keys, and whether two rows are peers. */
interface Ordering {
  cmp: Cmp;
  keys: BExpr[];
  peers: (a: Row, b: Row) => boolean;
}

/** Compile one window call (e has `over`): a ranking, FIRST/LAST_VALUE, LAG/LEAD, or an aggregate over a frame. */
export function compileWindowFn(e: WindowCall, ctx: BindCtx): WinFn {
  const { cmp, keys } = orderComparator(e.over!.orderBy, ctx);
  const order: Ordering = { cmp, keys, peers: (a, b) => cmp(a, b) === 0 };
  const key = exprKey(e, ctx.scope);
  switch (e.name) {
    case 'ROW_NUMBER':
      return { key, type: mk('BIGINT', false), compute: (rows) => rows.map((_r, i) => i + 1) };
    case 'RANK':
    case 'DENSE_RANK':
      return rank(key, e.name === 'DENSE_RANK', order.peers);
    case 'FIRST_VALUE':
    case 'LAST_VALUE':
      return firstOrLastValue(e, key, ctx);
    case 'LAG':
    case 'LEAD':
      return lagOrLead(e, key, ctx);
  }
  return windowAggregate(e, key, ctx, order);
}

/** RANK and DENSE_RANK: peers share a rank; RANK then skips, DENSE_RANK does not. */
function rank(key: string, dense: boolean, peers: Ordering['peers']): WinFn {
  return {
    key,
    type: mk('BIGINT', false),
    compute: (rows) => {
      const out: Value[] = [];
      let rank = 0;
      let dr = 0;
      for (let i = 0; i < rows.length; i++) {
        if (i === 0 || !peers(rows[i - 1]!, rows[i]!)) {
          rank = i + 1;
          dr++;
        }
        out.push(dense ? dr : rank);
      }
      return out;
    },
  };
}

/** FIRST_VALUE and LAST_VALUE, over the frames Feldera takes for them. */
function firstOrLastValue(e: WindowCall, key: string, ctx: BindCtx): WinFn {
  const over = e.over!;
  // Feldera's restriction: FIRST_VALUE needs a frame from UNBOUNDED PRECEDING, LAST_VALUE one to UNBOUNDED FOLLOWING
  const first = e.name === 'FIRST_VALUE';
  const f = over.frame;
  const ok = first
    ? !f || f.start.kind === 'UNBOUNDED_PRECEDING'
    : f
      ? f.end.kind === 'UNBOUNDED_FOLLOWING' && (f.start.kind === 'UNBOUNDED_PRECEDING' || f.start.kind === 'CURRENT')
      : over.orderBy.length === 0;
  if (!ok) throw new SqlError(`${e.name} is supported only over a frame ${first ? 'starting at UNBOUNDED PRECEDING' : 'ending at UNBOUNDED FOLLOWING'}`, e.pos, 'unsupported');
  if (e.args.length !== 1) throw new SqlError(`Invalid number of arguments to function '${e.name}'. Was expecting 1 arguments`, e.pos, 'type');
  const arg = bindExpr(e.args[0]!, ctx);
  return {
    key,
    type: withNull(arg.type, true),
    compute: (rows) => {
      const v = rows.length ? arg.fn(rows[first ? 0 : rows.length - 1]!) : null;
      return rows.map(() => v);
    },
  };
}

/** LAG and LEAD: the value a constant offset back or ahead, else the default (or NULL). */
function lagOrLead(e: WindowCall, key: string, ctx: BindCtx): WinFn {
  const arg = bindExpr(e.args[0]!, ctx);
  const off = constInt(e.args[1], ctx, 1, 'Currently LAG/LEAD amount must be a compile-time constant') * (e.name === 'LAG' ? -1 : 1);
  const dflt = e.args[2] ? bindExpr(e.args[2], ctx) : undefined;
  const at = (rows: Row[], i: number): Value => {
    const j = i + off;
    if (j < 0 || j >= rows.length) return dflt ? dflt.fn(rows[i]!) : null;
    return arg.fn(rows[j]!);
  };
  return { key, type: withNull(arg.type, true), compute: (rows) => rows.map((_r, i) => at(rows, i)), ...nearby(Math.abs(off), at) };
}

/** An aggregate over each row's frame: the whole partition, a RANGE frame or a ROWS frame. */
function windowAggregate(e: WindowCall, key: string, ctx: BindCtx, order: Ordering): WinFn {
  if (!AGG_NAMES.has(e.name)) throw new SqlError(`Unsupported window function ${e.name}`, e.pos, 'unsupported');
  if (e.distinct) throw new SqlError('DISTINCT in a window aggregate is not supported', e.pos, 'unsupported');
  const over = e.over!;
  const inner: BindCtx = { ...ctx, clause: 'a window aggregate' };
  const aggArgs = aggCallArgs(e, inner);
  if (aggArgs.args.some((a) => a.type.kind === 'NULL')) throw new SqlError('Argument of aggregate has NULL type', e.pos, 'type'); // COUNT(NULL) OVER (), as Feldera's compiler
  const { make, type, arg: argFn, ignoreNulls } = bindAggregate(e.name, aggArgs, e.pos);
  const filter = e.filter ? bindExpr(e.filter, inner).fn : undefined;
  const feed = (acc: Acc, r: Row, w: number): void => {
    if (filter && filter(r) !== true) return;
    const v = argFn ? argFn(r) : 1;
    if (v === null && ignoreNulls) return;
    acc.add(v, w);
  };
  const frame = over.frame;
  const outType = e.name === 'COUNT' ? type : withNull(type, true);
  // bounds: for each row i, rows [lo(i), hi(i)] of the sorted partition; RANGE frames: the rows whose frame
  // holds a changed row (by value, so positions shifting do not matter)
  const frames: { bounds: Bounds; affected?: WinFn['affected'] } =
    over.orderBy.length === 0 && !frame
      ? { bounds: (rows) => [0, rows.length - 1], affected: (rows) => [0, rows.length - 1] }
      : !frame || frame.units === 'RANGE'
        ? rangeFrame(e, frame, ctx, order)
        : { bounds: rowsFrame(frame, ctx) };
  const { bounds } = frames;
  let { affected } = frames;
  const range = (rows: Row[], lo: number, hi: number): Value[] => slideFrames(rows, (i) => bounds(rows, i), make, feed, lo, hi);
  // ROWS frames bounded on both sides read only nearby rows; RANGE frames know which rows hold a value
  const bounded = frame?.units === 'ROWS' && frame.start.kind !== 'UNBOUNDED_PRECEDING' && frame.end.kind !== 'UNBOUNDED_FOLLOWING';
  if (bounded) {
    const reach = Math.max(frame.start.offset ? constInt(frame.start.offset, ctx, 0) : 0, frame.end.offset ? constInt(frame.end.offset, ctx, 0) : 0);
    affected = (_rows, _row, from, end) => [from - reach - 1, end + reach];
  }
  return { key, type: outType, compute: (rows) => range(rows, 0, rows.length - 1), ...(affected && { affected, range }) };
}

/** A ROWS frame: positions a constant number of rows back or ahead. */
function rowsFrame(frame: Frame, ctx: BindCtx): Bounds {
  const off = (b: FrameBound): number => (b.offset ? constInt(b.offset, ctx, 0) : 0);
  const so = off(frame.start);
  const eo = off(frame.end);
  return (rows, i) => {
    const s = frame.start;
    const en = frame.end;
    const lo = s.kind === 'UNBOUNDED_PRECEDING' ? 0 : s.kind === 'PRECEDING' ? i - so : s.kind === 'CURRENT' ? i : s.kind === 'FOLLOWING' ? i + so : rows.length;
    const hi = en.kind === 'UNBOUNDED_FOLLOWING' ? rows.length - 1 : en.kind === 'FOLLOWING' ? i + eo : en.kind === 'CURRENT' ? i : en.kind === 'PRECEDING' ? i - eo : -1;
    return [Math.max(0, lo), Math.min(rows.length - 1, hi)];
  };
}

/** A RANGE frame's offsets read as numbers along its one ORDER BY key (numeric, DATE or TIMESTAMP), and that key as a number. */
function rangeOffsets(e: WindowCall, start: FrameBound, end: FrameBound, ctx: BindCtx, order: Ordering): { lowOff: number; highOff: number; keyFn: (r: Row) => Value; asc: boolean } {
  const over = e.over!;
  if (over.orderBy.length !== 1) throw new SqlError('RANGE with an offset needs exactly one ORDER BY key', e.pos, 'unsupported');
  const kt = order.keys[0]!.type;
  if (!isNumeric(kt) && kt.kind !== 'TIMESTAMP' && kt.kind !== 'DATE') throw new SqlError('RANGE offsets need a numeric or TIMESTAMP ORDER BY key', e.pos, 'unsupported');
  const offVal = (b: FrameBound): number => {
    if (!b.offset) return 0;
    const o = bindExpr(b.offset, ctx);
    if (!o.constant) throw new SqlError('RANGE offset must be a constant', b.offset.pos, 'unsupported');
    let v = o.fn([]);
    if (isDecimal(o.type)) v = Number(v) / 10 ** (o.type.scale ?? 0);
    if (kt.kind === 'DATE' && o.type.kind === 'INTERVAL_DT') return Math.floor((v as number) / 86_400_000);
    return v as number;
  };
  const lowOff = offVal(start);
  const highOff = offVal(end);
  let keyFn = order.keys[0]!.fn;
  if (isDecimal(kt)) {
    const s = kt.scale ?? 0;
    const f = keyFn;
    keyFn = (r) => {
      const v = f(r);
      return v === null ? null : Number(v) / 10 ** s;
    };
  }
  return { lowOff, highOff, keyFn, asc: over.orderBy[0]!.asc };
}

/**
 * A RANGE frame (also the default frame of an ordered window): by the key's distance when it has offsets
 * (binary search along the sorted rows), else by peers; and which rows a changed row reaches.
 */
function rangeFrame(e: WindowCall, frame: Frame | undefined, ctx: BindCtx, order: Ordering): { bounds: Bounds; affected: NonNullable<WinFn['affected']> } {
  const { cmp, peers } = order;
  const start = frame?.start ?? { kind: 'UNBOUNDED_PRECEDING' as const };
  const end = frame?.end ?? { kind: 'CURRENT' as const };
  const needsOffset = start.offset !== undefined || end.offset !== undefined;
  const { lowOff, highOff, keyFn, asc } = needsOffset ? rangeOffsets(e, start, end, ctx, order) : { lowOff: 0, highOff: 0, keyFn: undefined, asc: true };
  // a row's frame: the rows whose signed distance from its key (growing along the sorted rows) is in [lowD, highD]
  const lowD = start.kind === 'UNBOUNDED_PRECEDING' ? -Infinity : start.kind === 'PRECEDING' ? -lowOff : start.kind === 'CURRENT' ? 0 : lowOff;
  const highD = end.kind === 'UNBOUNDED_FOLLOWING' ? Infinity : end.kind === 'FOLLOWING' ? highOff : end.kind === 'CURRENT' ? 0 : -highOff;
  const affected: NonNullable<WinFn['affected']> = (rows, changed) => {
    const n = rows.length;
    if (keyFn) {
      // rows whose frame holds the changed key v: their own distance to v is in [-highD, -lowD]
      const key = keyFn;
      const v = key(changed) as number | null;
      const { a, b, nullsFirst } = nonNullRun(rows, key);
      if (v === null) return nullsFirst ? [0, a - 1] : [b, n - 1];
      const dist = (j: number): number => {
        const k = key(rows[j]!) as number;
        return asc ? k - v : v - k;
      };
      return [firstWhere(a, b, (j) => dist(j) >= -highD), firstWhere(a, b, (j) => dist(j) > -lowD) - 1];
    }
    // frames of peers, by the ORDER BY alone: row i's frame holds the change when (UNBOUNDED PRECEDING or i
    // not after it) and (UNBOUNDED FOLLOWING or i not before it)
    const notBefore = start.kind === 'UNBOUNDED_PRECEDING' ? firstWhere(0, n, (j) => cmp(rows[j]!, changed) >= 0) : 0;
    const after = end.kind === 'UNBOUNDED_FOLLOWING' ? firstWhere(0, n, (j) => cmp(rows[j]!, changed) > 0) : n;
    if (start.kind === 'UNBOUNDED_PRECEDING' && end.kind === 'UNBOUNDED_FOLLOWING') return [0, n - 1];
    if (start.kind === 'UNBOUNDED_PRECEDING') return [notBefore, n - 1];
    if (end.kind === 'UNBOUNDED_FOLLOWING') return [0, after - 1];
    return [firstWhere(0, n, (j) => cmp(rows[j]!, changed) >= 0), firstWhere(0, n, (j) => cmp(rows[j]!, changed) > 0) - 1];
  };
  const bounds: Bounds = (rows, i) => {
    let lo = 0;
    let hi = rows.length - 1;
    const r = rows[i]!;
    if (keyFn) {
      // rows are sorted by the key, NULLs together at one end: the frame is a contiguous run found by
      // binary search (d = signed distance from this row's key grows along the sorted non-NULL rows)
      const key = keyFn;
      const k = key(r) as number | null;
      const n = rows.length;
      const { a, b, nullsFirst } = nonNullRun(rows, key);
      if (k === null) return nullsFirst ? [0, a - 1] : [b, n - 1];
      const dist = (j: number): number => {
        const v = key(rows[j]!) as number;
        return asc ? v - k : k - v;
      };
      lo = firstWhere(a, b, (j) => dist(j) >= lowD);
      hi = firstWhere(a, b, (j) => dist(j) > highD) - 1;
      return [lo, hi];
    }
    if (start.kind === 'CURRENT') {
      lo = i;
      while (lo > 0 && peers(rows[lo - 1]!, r)) lo--;
    }
    if (end.kind === 'CURRENT') {
      hi = i;
      while (hi < rows.length - 1 && peers(rows[hi + 1]!, r)) hi++;
    }
    return [lo, hi];
  };
  return { bounds, affected };
}

/**
 * The aggregate over each row's frame [lo, hi]. Frames of sorted rows move forward (lo and hi never go
 * back), so one accumulator slides along: rows entering are added, rows leaving are taken out (every
 * accumulator accepts negative weights), O(n) in all instead of O(n x frame). A frame that jumps back
 * or past the current one starts a fresh accumulator.
 */
function slideFrames(rows: Row[], bounds: (i: number) => [number, number], make: () => Acc, feed: (acc: Acc, r: Row, w: number) => void, first: number, last: number): Value[] {
  const out: Value[] = [];
  let acc = make();
  let curLo = 0;
  let curHi = -1; // acc holds rows [curLo, curHi]
  for (let i = first; i <= last; i++) {
    const [lo, hi] = bounds(i);
    if (lo > hi) {
      out.push(make().result());
      continue;
    }
    if (lo < curLo || hi < curHi || lo > curHi) {
      acc = make();
      curLo = lo;
      curHi = lo - 1;
    }
    while (curHi < hi) feed(acc, rows[++curHi]!, 1);
    while (curLo < lo) feed(acc, rows[curLo++]!, -1);
    out.push(acc.result());
  }
  return out;
}
