/**
 * Subqueries used as values in an expression: scalar `(SELECT ...)`, `x [NOT] IN (SELECT ...)` and
 * `[NOT] EXISTS (SELECT ...)`, correlated or not. Each distinct one is joined to the query's rows once
 * (bind/decorrelate.ts says how) and the expression then reads the column it adds: a scalar subquery's value
 * (NULL when it has no row or more than one, where Calcite would stop with an error; a pipeline cannot stop
 * on data), an IN/EXISTS subquery's TRUE/FALSE/NULL. When a subquery's value changes, the rows that read it
 * are re-emitted with the new value, as a join does.
 */
import { SqlError, type Expr, type Query } from '../parse/ast.js';
import type { PlanNode } from '../plan/nodes.js';
import type { BExpr } from './bexpr.js';
import { exprKey, type BindCtx } from './expr.js';
import { walkExpr, type Env } from './env.js';
import { attachSubquery, type SubqueryExpr } from './decorrelate.js';
import type { BoundQuery } from './env.js';

/**
 * Finds the subqueries in `exprs`, joins what each distinct one needs to `input`, and returns a ctx whose
 * `special` maps each subquery expression to its value.
 */
export function attachScalarSubqueries(input: PlanNode, exprs: Expr[], ctx: BindCtx, env: Env, bindQuery: (q: Query, env: Env) => BoundQuery): { node: PlanNode; ctx: BindCtx } {
  const found: SubqueryExpr[] = [];
  const seen = new Set<string>();
  for (const e of exprs)
    walkExpr(e, (x) => {
      if (x.k !== 'subquery' && x.k !== 'insub' && x.k !== 'exists') return undefined;
      const k = exprKey(x, ctx.scope);
      if (!seen.has(k) && !ctx.special?.(x)) {
        seen.add(k);
        found.push(x);
      }
      return false;
    });
  if (!found.length) return { node: input, ctx };
  let cur = input;
  const columns = new Map<string, BExpr>();
  const uncorrelated = (q: Query, outer: Env): BoundQuery => bindUncorrelated(() => bindQuery(q, outer), outer);
  for (const sub of found) {
    const r = attachSubquery(cur, sub, ctx, env, bindQuery, uncorrelated);
    columns.set(exprKey(sub, ctx.scope), r.expr);
    cur = r.node;
  }
  const prev = ctx.special;
  const special = (e: Expr): BExpr | undefined => (e.k === 'subquery' || e.k === 'insub' || e.k === 'exists' ? columns.get(exprKey(e, ctx.scope)) : undefined) ?? prev?.(e);
  return { node: cur, ctx: { ...ctx, special } };
}

/** Binds an uncorrelated subquery, telling a reference to the outer query's columns apart from a plain typo. */
export function bindUncorrelated(bind: (env: Env) => BoundQuery, env: Env): BoundQuery {
  try {
    return bind(env);
  } catch (err) {
    if (err instanceof SqlError && (err.kind === 'unknown_column' || err.kind === 'unknown_table'))
      throw new SqlError(`${err.message} (a subquery can use the columns of the query around it only in its own clauses, not in its FROM)`, err.pos, err.kind);
    throw err;
  }
}
