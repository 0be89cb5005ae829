/**
 * NOW(): the value of the pipeline's clock for the step (Feldera docs/sql/datetime.md#now), a TIMESTAMP NOT
 * NULL. The program has one clock node (plan/nodes.ts NowNode: one row holding the value, fed by the circuit
 * each step from its injected clock); a query that reads NOW() is cross-joined with it, once per query level,
 * and NOW() reads the column that join adds. When the clock moves, the join retracts the rows built with the
 * old value and inserts them with the new one, so every view that reads NOW() changes by exactly the
 * difference, incrementally, as any join does. A program without NOW() has no clock node and pays nothing.
 *
 * Where: WHERE, SELECT, GROUP BY, HAVING, QUALIFY, aggregate arguments and FILTER, window arguments, and in
 * subqueries (each binds its own). Not in ON (move the condition to WHERE), a table's DEFAULT or LATENESS
 * (constants), LIMIT; CURRENT_TIMESTAMP and CURRENT_DATE are not Feldera's (use NOW(), CAST(NOW() AS DATE)).
 */
import { SqlError, type Expr } from '../parse/ast.js';
import { node, type PlanNode } from '../plan/nodes.js';
import { mk } from '../types/types.js';
import type { BExpr } from './bexpr.js';
import { crossJoinOne } from './decorrelate.js';
import { walkExpr, type Env } from './env.js';
import type { BindCtx } from './expr.js';

/** NOW's type: Feldera's NowFunction returns TIMESTAMP (not nullable). */
export const NOW_TYPE = mk('TIMESTAMP', false);

/** A call of NOW (a window call `NOW() OVER` is not one). */
export function isNowCall(e: Expr): boolean {
  return e.k === 'func' && e.name === 'NOW' && !e.over;
}

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
  env.clock.node ??= node({ kind: 'now', inputs: [], columns: [{ name: 'NOW', type: NOW_TYPE }] });
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
  const joined = crossJoinOne(input, clockNode(env), `NOW$${at}`);
  const value: BExpr = { type: NOW_TYPE, fn: (row) => row[at]!, colIdx: at };
  const prev = ctx.special;
  const special = (e: Expr): BExpr | undefined => {
    if (!isNowCall(e) || e.k !== 'func') return prev?.(e);
    if (e.args.length || e.star || e.distinct || e.filter || e.orderBy) throw new SqlError('NOW() takes no arguments', e.pos, 'type');
    return value;
  };
  return { node: joined, ctx: { ...ctx, special } };
}

/** The error for NOW() where no clock is joined: a constant context, ON, LIMIT. */
export function nowNotHere(clause: string, pos: Expr['pos']): SqlError {
  const hint = clause === 'ON' ? ': move the condition to WHERE' : clause === 'DEFAULT' || clause === 'LATENESS' ? `: ${clause} must be a constant` : '';
  return new SqlError(`NOW() cannot be used in ${clause}${hint}`, pos, 'unsupported');
}
