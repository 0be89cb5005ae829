/**
 * Window functions (OVER): finding the calls and building the window nodes. Each distinct PARTITION BY list
 * becomes one partitioned operator that appends the function values to the input row (each function is
 * compiled in window-fns.ts). A single rank function whose readers keep only ranks <= k (plan/rank-limit.ts)
 * uses the incremental top-k of ops/rank-topk.ts; functions that know which rows a change reaches (LAG,
 * LEAD, bounded ROWS frames, RANGE frames) in one shared order use ops/window-local.ts, which re-evaluates
 * only those rows; the rest use the per-partition integrate-evaluate-diff fallback of ops/window.ts, so a
 * change costs O(size of the touched partitions).
 */
import type { Expr } from '../parse/ast.js';
import { type PlanNode, type WindowNode } from '../plan/nodes.js';
import type { SqlType } from '../types/types.js';
import { rowKey, type Row, type Value } from '../types/values.js';
import { PartitionedRecomputeOp, stableSort, type Cmp } from '../ops/window.js';
import { PartitionedRankTopKOp, type RankKind } from '../ops/rank-topk.js';
import { LocalWindowOp, type LocalWindowSpec } from '../ops/window-local.js';
import type { BExpr } from './bexpr.js';
import { bindExpr, exprKey, type BindCtx } from './expr.js';
import { compileWindowFn, orderComparator } from './window-fns.js';

const RANK_FNS = new Set(['ROW_NUMBER', 'RANK', 'DENSE_RANK']);

/** Find window calls in expressions, add window nodes, and return a ctx that maps those calls to the new columns. */
export function addWindows(input: PlanNode, exprs: Expr[], ctx: BindCtx): { node: PlanNode; ctx: BindCtx } {
  const calls: Array<Expr & { k: 'func' }> = [];
  const seen = new Set<string>();
  const visit = (e: Expr): void => {
    if (e.k === 'func' && e.over) {
      const k = exprKey(e, ctx.scope);
      if (!seen.has(k)) {
        seen.add(k);
        calls.push(e);
      }
      return;
    }
    forEachChild(e, visit);
  };
  exprs.forEach(visit);
  if (calls.length === 0) return { node: input, ctx };
  // group by partition spec
  const groups = new Map<string, Array<Expr & { k: 'func' }>>();
  for (const c of calls) {
    const pk = JSON.stringify(c.over!.partitionBy.map((p) => exprKey(p, ctx.scope)));
    const g = groups.get(pk) ?? [];
    g.push(c);
    groups.set(pk, g);
  }
  let cur = input;
  let width = input.columns.length;
  const mapping = new Map<string, { idx: number; type: SqlType }>();
  for (const g of groups.values()) {
    const partExprs = g[0]!.over!.partitionBy.map((p) => bindExpr(p, { ...ctx, clause: 'PARTITION BY' }));
    const fns = g.map((c) => ({ fn: compileWindowFn(c, { ...ctx, clause: 'a window function' }), order: orderComparator(c.over!.orderBy, ctx).cmp }));
    const partFns = partExprs.map((p) => p.fn);
    const partition = (row: Row): string => rowKey(partFns.map((f) => f(row)));
    const evaluate = (rows: Row[]): Row[] => {
      const results: Value[][] = rows.map(() => []);
      // compute each function in its own order, map back to the input positions
      for (let j = 0; j < fns.length; j++) {
        const idx = rows.map((_r, i) => i);
        const tagged = idx.map((i) => rows[i]!);
        const sorted = stableSortIdx(tagged, fns[j]!.order);
        const vals = fns[j]!.fn.compute(sorted.map((i) => rows[i]!));
        sorted.forEach((rowIdx, pos) => {
          results[rowIdx]![j] = vals[pos]!;
        });
      }
      return rows.map((r, i) => r.concat(results[i]!));
    };
    const cols = [...cur.columns];
    g.forEach((c, j) => {
      mapping.set(exprKey(c, ctx.scope), { idx: width + j, type: fns[j]!.fn.type });
      cols.push({ name: `W$${width + j}`, type: fns[j]!.fn.type });
    });
    const rankFn = g.length === 1 && RANK_FNS.has(g[0]!.name) ? (g[0]!.name as RankKind) : undefined;
    const order = fns[0]!.order;
    // every function reads only nearby rows in one shared order: re-evaluate only around the changes
    const orderKey = (c: Expr & { k: 'func' }): string => JSON.stringify(c.over!.orderBy.map((o) => [exprKey(o.expr, ctx.scope), o.asc, o.nullsFirst]));
    const local = fns.every((f) => f.fn.affected) && g.every((c) => orderKey(c) === orderKey(g[0]!));
    const localSpec: LocalWindowSpec | undefined = local
      ? {
          partition,
          order,
          affected: (rows, row, at, end) => {
            let lo = Infinity;
            let hi = -Infinity;
            for (const f of fns) {
              const [l, h] = f.fn.affected!(rows, row, at, end);
              if (l < lo) lo = l;
              if (h > hi) hi = h;
            }
            return [lo, hi];
          },
          valuesIn: (rows, lo, hi) => {
            const cols = fns.map((f) => f.fn.range!(rows, lo, hi));
            const out: Value[][] = [];
            for (let i = 0; i <= hi - lo; i++) out.push(cols.map((c) => c[i]!));
            return out;
          },
        }
      : undefined;
    const w: WindowNode = ctx.session.node({
      kind: 'window',
      inputs: [cur],
      columns: cols,
      make: () =>
        // only the top ranks are read (plan/rank-limit.ts): an incremental top-k per partition
        rankFn && w.rankLimit !== undefined
          ? new PartitionedRankTopKOp(partition, order, rankFn, w.rankLimit)
          : localSpec
            ? new LocalWindowOp(localSpec)
            : new PartitionedRecomputeOp({ partition, evaluate }),
      ...(rankFn ? { rankCol: width } : {}),
    });
    width += g.length;
    cur = w;
  }
  const prev = ctx.special;
  const special = (e: Expr): BExpr | undefined => {
    if (e.k === 'func' && e.over) {
      const m = mapping.get(exprKey(e, ctx.scope));
      if (m) {
        const i = m.idx;
        return { type: m.type, fn: (row) => row[i]!, colIdx: i };
      }
    }
    return prev?.(e);
  };
  return { node: cur, ctx: { ...ctx, special } };
}

function stableSortIdx(rows: Row[], cmp: Cmp): number[] {
  const idx = rows.map((_r, i) => i);
  const keys = rows.map((r) => rowKey(r));
  idx.sort((a, b) => cmp(rows[a]!, rows[b]!) || (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
  return idx;
}

function forEachChild(e: Expr, f: (e: Expr) => void): void {
  switch (e.k) {
    case 'bin':
      f(e.left);
      f(e.right);
      break;
    case 'un':
    case 'cast':
    case 'extract':
      f(e.expr);
      break;
    case 'is':
      f(e.expr);
      if (e.other) f(e.other);
      break;
    case 'between':
      f(e.expr);
      f(e.low);
      f(e.high);
      break;
    case 'inlist':
      f(e.expr);
      e.list.forEach(f);
      break;
    case 'like':
      f(e.expr);
      f(e.pattern);
      break;
    case 'case':
      if (e.operand) f(e.operand);
      e.whens.forEach((w) => {
        f(w.cond);
        f(w.result);
      });
      if (e.else) f(e.else);
      break;
    case 'func':
      e.args.forEach(f);
      break;
    case 'array':
      e.elems.forEach(f);
      break;
    case 'index':
      f(e.expr);
      f(e.index);
      break;
    case 'field':
      f(e.expr);
      break;
    default:
      break;
  }
}

export { stableSort };
