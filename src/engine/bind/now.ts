/**
 * NOW(): the value of the pipeline's clock for the step (Feldera docs/sql/datetime.md#now), a TIMESTAMP NOT
 * NULL. The program has one clock node (plan/nodes.ts NowNode: one row holding the value, fed by the circuit
 * each step from its injected clock); a query that reads NOW() is cross-joined with it, once per query level,
 * and NOW() reads the column that join adds. When the clock moves, the join retracts the rows built with the
 * old value and inserts them with the new one, so every view that reads NOW() changes by exactly the
 * difference, incrementally, as any join does. A program without NOW() has no clock node and pays nothing.
 * WHERE conjuncts that are temporal filters (`ts >= NOW() - INTERVAL 1 HOUR`) get their own operator instead
 * (temporalFilters, ops/temporal-filter.ts), whose clock moves cost only the rows that cross the bounds; so do
 * aggregate FILTERs that are temporal filters (bind/now-aggregates.ts).
 *
 * Where: WHERE, SELECT, GROUP BY, HAVING, QUALIFY, aggregate arguments and FILTER, window arguments, and in
 * subqueries (each binds its own). Not in ON (move the condition to WHERE), a table's DEFAULT or LATENESS
 * (constants), LIMIT; CURRENT_TIMESTAMP and CURRENT_DATE are not Feldera's (use NOW(), CAST(NOW() AS DATE)).
 */
import { SqlError, type Expr } from '../parse/ast.js';
import { isNowCall } from './now-call.js';
import { type PlanNode } from '../plan/nodes.js';
import { mk } from '../types/types.js';
import type { BExpr } from './bexpr.js';
import { crossJoinOne } from './decorrelate.js';
import { refsResolve, walkExpr, type Env } from './env.js';
import { AGG_NAMES, bindExpr, exprKey, type BindCtx } from './expr.js';
import { Scope } from './scope.js';
import type { CompileSession } from './compile-session.js';
import { TemporalFilterOp, type TemporalBound, type TemporalOp, type TemporalSpec } from '../ops/temporal-filter.js';

/** NOW's type: Feldera's NowFunction returns TIMESTAMP (not nullable). */
export const NOW_TYPE = mk('TIMESTAMP', false);

/** Whether `e` calls NOW() (outside subqueries; `skip`: sub-expressions not to look into). */
export function containsNow(e: Expr, skip?: (x: Expr) => boolean): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (found) return false;
    if (isNowCall(x)) {
      found = true;
      return false;
    }
    return skip?.(x) ? false : undefined;
  });
  return found;
}

/** The program's clock node (made on first use, shared by every query of the program). */
function clockNode(env: Env): PlanNode {
  env.clock.node ??= env.session.node({ kind: 'now', inputs: [], columns: [{ name: 'NOW', type: NOW_TYPE }] });
  return env.clock.node;
}

/** Whether ctx.special already gives a value for `x` (a group key, an aggregate call): NOW inside it is not read again. */
export function resolvedBy(ctx: BindCtx): (x: Expr) => boolean {
  return (x) => {
    if (!ctx.special || isNowCall(x)) return false;
    try {
      return ctx.special(x) !== undefined;
    } catch {
      return false; // e.g. a column not grouped: not a value here
    }
  };
}

/**
 * Joins the clock to `input` when one of `exprs` calls NOW() (not looking into what `skip` names) and ctx
 * does not give NOW() a value yet; the ctx returned reads NOW() from the column the join adds.
 */
export function attachNow(input: PlanNode, exprs: Expr[], ctx: BindCtx, env: Env, skip?: (x: Expr) => boolean): { node: PlanNode; ctx: BindCtx } {
  const probe: Expr = { k: 'func', name: 'NOW', args: [], star: false, distinct: false, pos: { line: 1, column: 1 } };
  if (ctx.special?.(probe) !== undefined) return { node: input, ctx };
  if (!exprs.some((e) => containsNow(e, skip))) return { node: input, ctx };
  const at = input.columns.length;
  const joined = crossJoinOne(env.session, input, clockNode(env), `NOW$${at}`);
  const value: BExpr = { type: NOW_TYPE, fn: (row) => row[at]!, colIdx: at };
  const prev = ctx.special;
  const special = (e: Expr): BExpr | undefined => {
    if (!isNowCall(e) || e.k !== 'func') return prev?.(e);
    if (e.args.length || e.star || e.distinct || e.filter || e.orderBy) throw new SqlError('NOW() takes no arguments', e.pos, 'type');
    return value;
  };
  return { node: joined, ctx: { ...ctx, special } };
}

const MIRROR: Record<string, TemporalOp> = { Lt: 'Gt', LtEq: 'GtEq', Gt: 'Lt', GtEq: 'LtEq', Eq: 'Eq' };
const isAggOrWindow = (x: Expr): boolean => x.k === 'func' && (Boolean(x.over) || AGG_NAMES.has(x.name));

/** One comparison of a temporal filter as written: `key op bound`, bound an expression of NOW() and constants. */
interface Term {
  conjunct: Expr;
  key: Expr;
  op: TemporalOp;
  bound: Expr;
}

/** The terms of a WHERE conjunct that is a temporal filter (`ts >= NOW() - INTERVAL 1 HOUR`, `ts BETWEEN NOW() - ... AND NOW()`), else none. */
function temporalTerms(c: Expr, scope: Scope): Term[] {
  const rowSide = (e: Expr): boolean => !containsNow(e) && refsResolve(e, scope, isAggOrWindow);
  const nowSide = (e: Expr): boolean => refsResolve(e, new Scope([], scope.casing), isAggOrWindow);
  if (c.k === 'bin' && c.op in MIRROR) {
    if (containsNow(c.right) && nowSide(c.right) && rowSide(c.left)) return [{ conjunct: c, key: c.left, op: c.op as TemporalOp, bound: c.right }];
    if (containsNow(c.left) && nowSide(c.left) && rowSide(c.right)) return [{ conjunct: c, key: c.right, op: MIRROR[c.op]!, bound: c.left }];
    return [];
  }
  if (c.k === 'between' && !c.not && !c.symmetric && (containsNow(c.low) || containsNow(c.high)) && nowSide(c.low) && nowSide(c.high) && rowSide(c.expr))
    return [
      { conjunct: c, key: c.expr, op: 'GtEq', bound: c.low },
      { conjunct: c, key: c.expr, op: 'LtEq', bound: c.high },
    ];
  return [];
}

/**
 * The temporal filters among the WHERE conjuncts `pending` (Feldera's "temporal filters": comparisons of a
 * TIMESTAMP or DATE expression of the row with an expression of NOW() of the same type, BETWEEN too), one
 * filter per row expression, applied to `input` (ops/temporal-filter.ts: a clock move costs the rows it
 * changes, not a pass over all). The conjuncts used are removed from `pending`; the others (and any that do
 * not bind so) are left for the generic join with the clock.
 */
export function temporalFilters(input: PlanNode, pending: Expr[], scope: Scope, env: Env): PlanNode {
  const groups = new Map<string, { key: BExpr; bounds: TemporalBound[]; conjuncts: Set<Expr> }>();
  for (const c of pending) {
    const t = temporalConjunct(c, scope, env.session);
    if (!t) continue;
    const g = groups.get(t.k) ?? { key: t.key, bounds: [], conjuncts: new Set<Expr>() };
    groups.set(t.k, g);
    g.bounds.push(...t.bounds);
    g.conjuncts.add(c);
  }
  let cur = input;
  for (const g of groups.values()) {
    const keyFn = g.key.fn;
    const spec: TemporalSpec = { key: (row) => toNumber(keyFn(row)), bounds: g.bounds };
    cur = env.session.node({ kind: 'temporal', inputs: [cur, clockNode(env)], columns: cur.columns, make: () => new TemporalFilterOp(spec), bounds: g.bounds.length });
    for (let i = pending.length - 1; i >= 0; i--) if (g.conjuncts.has(pending[i]!)) pending.splice(i, 1);
  }
  return cur;
}

/**
 * A conjunct that is a temporal filter over `scope`'s rows, bound: its row expression (and that expression's
 * key, exprKey) and its bounds; null when it is not one (or does not bind so: it is then bound as any
 * condition, which reports a real error).
 */
export function temporalConjunct(c: Expr, scope: Scope, session: CompileSession): { k: string; key: BExpr; bounds: TemporalBound[] } | null {
  const terms = temporalTerms(c, scope);
  if (!terms.length) return null;
  const nowCtx: BindCtx = {
    scope: new Scope([], scope.casing),
    session,
    clause: 'WHERE',
    special: (e) => (isNowCall(e) && e.k === 'func' && !e.args.length ? { type: NOW_TYPE, fn: (row) => row[0]!, colIdx: 0 } : undefined),
  };
  try {
    const bound = terms.map((t) => {
      const key = bindExpr(t.key, { scope, session, clause: 'WHERE' });
      const b = bindExpr(t.bound, nowCtx);
      if (key.type.kind !== b.type.kind || (key.type.kind !== 'TIMESTAMP' && key.type.kind !== 'DATE')) return null;
      const f = b.fn;
      return { k: exprKey(t.key, scope), key, b: { op: t.op, at: (now: number) => toNumber(f([now])) } };
    });
    if (bound.some((x) => x === null) || new Set(bound.map((x) => x!.k)).size !== 1) return null;
    return { k: bound[0]!.k, key: bound[0]!.key, bounds: bound.map((x) => x!.b) };
  } catch (err) {
    if (err instanceof SqlError) return null;
    throw err;
  }
}

const toNumber = (v: unknown): number | null => (typeof v === 'number' ? v : null);
