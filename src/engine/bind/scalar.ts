/**
 * Uncorrelated scalar subqueries: `(SELECT ...)` used as a value. Each one becomes a one-row relation
 * holding its single value (a global SINGLE_VALUE aggregate: NULL when the subquery has no row, and also
 * when it has more than one, where Calcite would stop with an error; a pipeline cannot stop on data) that
 * is cross-joined to the query's rows; the expression then reads that column. When the subquery's value
 * changes, every row of the query is re-emitted with the new value, as a join does.
 */
import { SqlError, type Expr } from '../parse/ast.js';
import { node, type PlanNode } from '../plan/nodes.js';
import { withNull } from '../types/types.js';
import { valueKey, type Value } from '../types/values.js';
import { AggregateOp, type Acc } from '../ops/aggregate.js';
import { JoinOp } from '../ops/join.js';
import type { BExpr } from './bexpr.js';
import { exprKey, type BindCtx } from './expr.js';
import { walkExpr, type Env } from './env.js';
import type { BoundQuery } from './query.js';

/** The value of a relation of exactly one row; NULL otherwise. */
class SingleValueAcc implements Acc {
  private rows = 0;
  private readonly values = new Map<string, [Value, number]>();

  add(v: Value, w: number): void {
    this.rows += w;
    const k = valueKey(v);
    const e = this.values.get(k);
    if (!e) this.values.set(k, [v, w]);
    else if ((e[1] += w) === 0) this.values.delete(k);
  }

  result(): Value {
    if (this.rows !== 1) return null;
    for (const [v, n] of this.values.values()) if (n === 1) return v;
    return null;
  }
}

/**
 * Finds the scalar subqueries in `exprs`, cross-joins one single-value relation per distinct subquery to
 * `input`, and returns a ctx whose `special` maps each subquery to its column.
 */
export function attachScalarSubqueries(
  input: PlanNode,
  exprs: Expr[],
  ctx: BindCtx,
  env: Env,
  bindQuery: (q: Expr & { k: 'subquery' }, env: Env) => BoundQuery,
): { node: PlanNode; ctx: BindCtx } {
  const found: Array<Expr & { k: 'subquery' }> = [];
  const seen = new Set<string>();
  for (const e of exprs)
    walkExpr(e, (x) => {
      if (x.k !== 'subquery') return undefined;
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
  for (const sub of found) {
    const q = bindQuery(sub, env);
    if (q.columns.length !== 1) throw new SqlError(`A scalar subquery must return exactly one column; this one returns ${q.columns.length}`, sub.pos, 'type');
    const type = withNull(q.columns[0]!.type, true);
    const single = node('aggregate', [q.node], [{ name: 'SINGLE$0', type }], () =>
      new AggregateOp([], [{ make: () => new SingleValueAcc(), arg: (row) => row[0]!, distinct: false, ignoreNulls: false }], true),
    );
    const leftWidth = cur.columns.length;
    const joined: PlanNode = node('join', [cur, single], [...cur.columns, { name: `SCALAR$${leftWidth}`, type }], () =>
      new JoinOp({ leftOuter: false, rightOuter: false, leftKey: () => '', rightKey: () => '', leftWidth, rightWidth: 1 }),
    );
    columns.set(exprKey(sub, ctx.scope), { type, fn: (row) => row[leftWidth]! });
    cur = joined;
  }
  const prev = ctx.special;
  const special = (e: Expr): BExpr | undefined => (e.k === 'subquery' ? columns.get(exprKey(e, ctx.scope)) : undefined) ?? prev?.(e);
  return { node: cur, ctx: { ...ctx, special } };
}

/** Binds a scalar subquery, telling a reference to the outer query's columns apart from a plain typo. */
export function bindUncorrelated(bind: (env: Env) => BoundQuery, env: Env): BoundQuery {
  try {
    return bind(env);
  } catch (err) {
    if (err instanceof SqlError && (err.kind === 'unknown_column' || err.kind === 'unknown_table'))
      throw new SqlError(`${err.message} (a scalar subquery cannot use the columns of the query around it)`, err.pos, err.kind);
    throw err;
  }
}
