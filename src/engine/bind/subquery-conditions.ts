/**
 * `x [NOT] IN (SELECT ...)` and `[NOT] EXISTS (SELECT ... WHERE inner.col = outer.col ...)` as AND-ed WHERE
 * conditions: semi- and anti-joins (ops/semijoin.ts) on the IN value or on the correlating equalities.
 */
import { SqlError, type Expr, type Query } from '../parse/ast.js';
import { type PlanNode } from '../plan/nodes.js';
import { mk } from '../types/types.js';
import { SemiJoinOp } from '../ops/semijoin.js';
import { type Env, type Rel, conjuncts, filterNode, keyFn, refsResolve } from './env.js';
import { bindCondition, bindExpr, unify, type BindCtx } from './expr.js';
import type { BExpr } from './bexpr.js';
import { containsAgg } from './aggs.js';
import { bindFrom } from './from.js';
import type { BoundQuery } from './env.js';

export type SubConjunct = { kind: 'in'; not: boolean; expr: Expr; query: Query; pos: Expr['pos'] } | { kind: 'exists'; not: boolean; query: Query; pos: Expr['pos'] };

export function subqueryConjunct(c: Expr): SubConjunct | undefined {
  let e = c;
  let not = false;
  while (e.k === 'un' && e.op === 'NOT') {
    not = !not;
    e = e.expr;
  }
  if (e.k === 'insub') return { kind: 'in', not: not !== e.not, expr: e.expr, query: e.query, pos: e.pos };
  if (e.k === 'exists') return { kind: 'exists', not: not !== e.not, query: e.query, pos: e.pos };
  return undefined;
}

export function addSemiJoin(rel: Rel, sub: SubConjunct, env: Env, bindQuery: (q: Query, env: Env) => BoundQuery): Rel {
  const outerCtx: BindCtx = { scope: rel.scope, session: env.session, clause: 'WHERE' };
  let rightNode: PlanNode;
  let leftKeys: BExpr[] = [];
  let rightKeys: BExpr[] = [];
  if (sub.kind === 'in') {
    const q = bindQuery(sub.query, env);
    if (q.columns.length !== 1) throw new SqlError('The subquery of IN must return exactly one column', sub.pos, 'type');
    const lb = bindExpr(sub.expr, outerCtx);
    const rb: BExpr = { type: q.columns[0]!.type, fn: (row) => row[0]!, colIdx: 0 };
    const [a, b] = unify(lb, rb, sub.pos, 'IN');
    leftKeys = [a];
    rightKeys = [b];
    rightNode = q.node;
  } else {
    // EXISTS: a simple SELECT whose WHERE may correlate with the outer row through equalities
    const q = sub.query;
    const body = q.body;
    if (body.k !== 'select' || body.groupBy.length || body.having || q.with.length || q.limit !== undefined || body.items.some((i) => i.k === 'expr' && containsAgg(i.expr))) {
      throw new SqlError('EXISTS is supported for simple SELECT ... FROM ... WHERE subqueries', sub.pos, 'unsupported');
    }
    const inner = bindFrom(body.from, env, bindQuery);
    const innerCtx: BindCtx = { scope: inner.scope, session: env.session, clause: 'WHERE' };
    const innerPreds: BExpr[] = [];
    for (const c of conjuncts(body.where)) {
      if (refsResolve(c, inner.scope)) {
        innerPreds.push(bindCondition(c, innerCtx));
        continue;
      }
      if (c.k === 'bin' && c.op === 'Eq') {
        let innerSide: Expr | undefined;
        let outerSide: Expr | undefined;
        if (refsResolve(c.left, inner.scope) && refsResolve(c.right, rel.scope)) [innerSide, outerSide] = [c.left, c.right];
        else if (refsResolve(c.right, inner.scope) && refsResolve(c.left, rel.scope)) [innerSide, outerSide] = [c.right, c.left];
        if (innerSide && outerSide) {
          const [a, b] = unify(bindExpr(outerSide, outerCtx), bindExpr(innerSide, innerCtx), c.pos, '=');
          leftKeys.push(a);
          rightKeys.push(b);
          continue;
        }
      }
      throw new SqlError('Correlated subquery conditions other than equalities are not supported', c.pos, 'unsupported');
    }
    rightNode = inner.node;
    if (innerPreds.length) {
      const fns = innerPreds.map((p) => p.fn);
      rightNode = filterNode(env.session, rightNode, { type: mk('BOOLEAN'), fn: (row) => fns.every((f) => f(row) === true) });
    }
  }
  const mode = sub.kind === 'in' ? (sub.not ? 'notin' : 'semi') : sub.not ? 'anti' : 'semi';
  const lk = keyFn(leftKeys);
  const rk = keyFn(rightKeys);
  const n = env.session.node({ kind: 'semijoin', inputs: [rel.node, rightNode], columns: rel.node.columns, make: () => new SemiJoinOp(mode, lk, rk), mode });
  return { node: n, scope: rel.scope };
}

/** GROUP BY / aggregates: returns the aggregate node and a ctx that binds expressions over its output. */
