/** Aggregate calls in GROUP BY queries: bind the arguments, FILTER and ORDER BY, then the registry (fns/aggregate.ts). */
import { exprSite } from './expr-text.js';
import { SqlError, type Expr } from '../parse/ast.js';
import type { SqlType } from '../types/types.js';
import type { AggSpec } from '../ops/aggregate.js';
import { bindAggregate, type AggCallArgs } from './fns/aggregate.js';
import { AGG_NAMES, bindCondition, bindExpr, exprKey, type BindCtx } from './expr.js';
import { walkExpr } from './env.js';

export interface BoundAgg {
  spec: AggSpec;
  type: SqlType;
}

/** The bound arguments of an aggregate call (GROUP BY or window). */
export function aggCallArgs(e: Expr & { k: 'func' }, ctx: BindCtx): AggCallArgs {
  if (e.distinct && e.orderBy?.some((o) => e.args.length !== 1 || exprKey(o.expr, ctx.scope) !== exprKey(e.args[0]!, ctx.scope))) {
    throw new SqlError('in an aggregate with DISTINCT, ORDER BY expressions must appear in the argument list', e.pos, 'type');
  }
  if (e.distinct && e.name === 'MODE') throw new SqlError('DISTINCT is not supported in MODE', e.pos, 'unsupported');
  return {
    args: e.star ? [] : e.args.map((a) => bindExpr(a, ctx)),
    star: e.star,
    orderBy: e.orderBy?.map((o) => ({ key: bindExpr(o.expr, ctx), asc: o.asc, nullsFirst: ctx.session.nullsFirst(o) })),
    ignoreNulls: e.ignoreNulls,
    site: exprSite(e),
  };
}

/**
 * Feldera's element order for ARRAY_AGG without ORDER BY: an aggregate folds its group's rows in the order of
 * the aggregate's input row, the tuple of every call's arguments and FILTER condition in the order they are
 * written (the projection Calcite puts under the aggregate; the group keys, equal within a group, add nothing),
 * NULLs first. So `ARRAY_AGG(c1), ARRAY_AGG(c2)` list c2 in the order of (c1, c2), not by c2's value. Returns the
 * calls with that order made explicit; DISTINCT calls and calls with their own ORDER BY keep theirs (value order).
 */
export function withInputRowOrder(calls: Array<Expr & { k: 'func' }>, keyOf: (e: Expr) => string): Array<Expr & { k: 'func' }> {
  const row: Expr[] = [];
  const seen = new Set<string>();
  const add = (e: Expr): void => {
    const k = keyOf(e);
    if (!seen.has(k)) {
      seen.add(k);
      row.push(e);
    }
  };
  for (const c of calls) {
    if (!c.star) c.args.forEach(add);
    if (c.filter) add(c.filter);
  }
  if (row.length < 2) return calls; // one input column: its value order already
  const order = row.map((expr) => ({ expr, asc: true, nullsFirst: true }));
  return calls.map((c) => (c.name === 'ARRAY_AGG' && !c.distinct && !c.orderBy?.length ? { ...c, orderBy: order } : c));
}

/** Bind one aggregate call against the input scope. */
export function bindAggCall(e: Expr & { k: 'func' }, ctx: BindCtx): BoundAgg {
  const inner: BindCtx = { scope: ctx.scope, session: ctx.session, clause: 'an aggregate argument', special: ctx.special };
  const b = bindAggregate(e.name, aggCallArgs(e, inner), e.pos);
  const filter = e.filter ? bindCondition(e.filter, { ...inner, clause: 'FILTER' }).fn : undefined;
  return {
    // COUNTIF(DISTINCT c) counts the rows where c holds, as Feldera answers (its COUNTIF is COUNT(*) FILTER (WHERE c))
    spec: { make: b.make, arg: b.arg, filter, distinct: e.distinct && !e.star && e.name !== 'COUNTIF', ignoreNulls: b.ignoreNulls },
    type: b.type,
  };
}

/** Whether an expression calls an aggregate (outside window calls and subqueries). */
export function containsAgg(e: Expr): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (x.k === 'func' && x.over) return false;
    if (x.k === 'func' && AGG_NAMES.has(x.name)) {
      found = true;
      return false;
    }
    return undefined;
  });
  return found;
}
