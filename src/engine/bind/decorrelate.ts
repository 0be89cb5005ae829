/**
 * Subqueries used as values: `(SELECT ...)`, `x [NOT] IN (SELECT ...)` and `[NOT] EXISTS (SELECT ...)`
 * anywhere in an expression, correlated or not, turned into joins and aggregates (decorrelation).
 *
 * A correlated subquery reads some outer columns o1..ok (column references of its WHERE, SELECT list,
 * GROUP BY or HAVING that do not resolve in its own FROM but in the outer query). The rewrite:
 *   D  = DISTINCT (o1..ok) of the outer rows, registered as a hidden CTE `$Dn` with columns C0..Ck-1;
 *   the subquery gets `$Dn` as an extra FROM item, its outer references become `$Dn.Ci`, and it outputs
 *   C0..Ck-1 first (grouped by them when it aggregates); any correlation predicate works (`x.b < t1.b` is a
 *   join condition between $Dn and x);
 *   the outer rows are then joined to its result on (o1..ok) IS NOT DISTINCT FROM (C0..Ck-1):
 *     scalar:     a LEFT join to one row per key (its single value; NULL when several or none, as the
 *                 uncorrelated form), where a missing key takes the subquery's value over no rows
 *                 (COUNT(*) is 0, not NULL);
 *     IN/EXISTS:  a mark join (ops/markjoin.ts) adding a TRUE/FALSE/NULL column.
 * Uncorrelated subqueries take the same path with k = 0. Everything is maintained incrementally by the
 * operators used.
 */
import { SqlError, type Expr, type FromItem, type Ident, type Query, type Select } from '../parse/ast.js';
import { type PlanColumn, type PlanNode } from '../plan/nodes.js';
import { mk, withNull } from '../types/types.js';
import { valueKey, type Row, type Value } from '../types/values.js';
import { AggregateOp, CountAcc, type Acc } from '../ops/aggregate.js';
import { JoinOp } from '../ops/join.js';
import { SetOp, SET_FNS } from '../ops/setops.js';
import { MarkJoinOp, corrKey } from '../ops/markjoin.js';
import type { BExpr } from './bexpr.js';
import { bindExpr, type BindCtx } from './expr.js';
import { unify } from './operators.js';
import { mapNode, walkExpr, type Env } from './env.js';
import { containsAgg } from './aggs.js';
import { canon, Scope } from './scope.js';
import type { CompileSession } from './compile-session.js';
import type { BoundQuery } from './env.js';

export type SubqueryExpr = Expr & { k: 'subquery' | 'insub' | 'exists' };
type QueryBinder = (q: Query, env: Env) => BoundQuery;

/** The value of a relation of exactly one row; NULL otherwise. */
export class SingleValueAcc implements Acc {
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

/** Column references of the subquery's own clauses that resolve only in the outer scope. */
function outerRefs(body: Select, inner: Scope, outer: Scope): Array<Expr & { k: 'col' }> {
  const found: Array<Expr & { k: 'col' }> = [];
  const visit = (e: Expr | undefined): void => {
    if (!e) return;
    walkExpr(e, (x) => {
      if (x.k === 'subquery' || x.k === 'exists') return false;
      if (x.k !== 'col') return undefined;
      let inside;
      try {
        inside = inner.tryResolve(x.parts, x.pos);
      } catch {
        return undefined; // ambiguous inside: reported when bound
      }
      if (inside) return undefined;
      let outside;
      try {
        outside = outer.tryResolve(x.parts, x.pos);
      } catch {
        outside = undefined;
      }
      if (outside) found.push(x);
      return undefined;
    });
  };
  // UNNEST(outer.arr) in the subquery's FROM (lateral to the outer row)
  for (const it of body.from) if (it.k === 'unnest') it.exprs.forEach(visit);
  visit(body.where);
  visit(body.having);
  body.groupBy.forEach(visit);
  for (const it of body.items) if (it.k === 'expr') visit(it.expr);
  return found;
}

/** A deep copy of `v` with the given nodes (by identity) replaced. */
function replaceNodes<T>(v: T, repl: Map<object, Expr>): T {
  if (Array.isArray(v)) return v.map((x) => replaceNodes(x, repl)) as T;
  if (v && typeof v === 'object') {
    const r = repl.get(v as object);
    if (r) return r as T;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = replaceNodes(x, repl);
    return out as T;
  }
  return v;
}

/**
 * The scope of a subquery's own FROM, to tell its column references from outer ones. When an UNNEST in it reads
 * an outer column (so the FROM cannot be bound alone), the scope is that of its other items plus the UNNEST's
 * named columns (its column aliases, or its alias for a single column).
 */
function innerScope(from: FromItem[], env: Env, bindQuery: QueryBinder): Scope {
  try {
    return env.binders.bindFrom(from, env, bindQuery).scope;
  } catch (err) {
    if (!(err instanceof SqlError) || !['unknown_column', 'unknown_table'].includes(err.kind) || !from.some((it) => it.k === 'unnest')) throw err;
  }
  const rest = from.filter((it) => it.k !== 'unnest');
  const base = rest.length ? env.binders.bindFrom(rest, env, bindQuery).scope : new Scope([], env.casing);
  const cols = [...base.cols];
  for (const it of from) {
    if (it.k !== 'unnest') continue;
    const rel = it.alias ? canon(it.alias, env.casing) : undefined;
    const names = it.columnAliases.length ? it.columnAliases : it.alias ? [it.alias] : [];
    for (const n of names) cols.push({ rel, name: canon(n, env.casing), type: mk('NULL'), idx: cols.length });
  }
  return new Scope(cols, env.casing);
}

interface Rewritten {
  /** The subquery body with $Dn in FROM and outer references replaced. */
  body: Select;
  /** References to $Dn.C0..Ck-1. */
  dCols: Expr[];
  env: Env;
  /** The outer values o1..ok, bound over the outer rows. */
  outer: BExpr[];
}

/** The correlated rewrite, or undefined when the subquery reads no outer column. */
function rewrite(q: Query, cur: PlanNode, ctx: BindCtx, env: Env, bindQuery: QueryBinder, hideOuter = false): Rewritten | undefined {
  const body = q.body;
  if (body.k !== 'select') return undefined;
  const inner = innerScope(body.from, env, bindQuery);
  const refs = outerRefs(body, inner, ctx.scope);
  if (!refs.length) return undefined;
  if (q.with.length || q.limit !== undefined) throw new SqlError('A correlated subquery cannot have WITH or LIMIT', q.pos, 'unsupported');
  const pos = q.pos;
  const dName = env.session.decorrelatedName();
  const ident = (value: string): Ident => ({ value, quoted: true, pos });
  const keyOf = (e: Expr): string => JSON.stringify(ctx.scope.resolve((e as Expr & { k: 'col' }).parts, e.pos).idx);
  const distinctRefs: Array<Expr & { k: 'col' }> = [];
  const refIdx = new Map<string, number>();
  for (const r of refs) {
    const k = keyOf(r);
    if (!refIdx.has(k)) {
      refIdx.set(k, distinctRefs.length);
      distinctRefs.push(r);
    }
  }
  const outer = distinctRefs.map((r) => bindExpr(r, ctx));
  const columns: PlanColumn[] = outer.map((b, i) => ({ name: `C${i}`, type: b.type }));
  const proj = mapNode(env.session, cur, outer, columns);
  const dNode = env.session.node({ kind: 'distinct', inputs: [proj], columns, make: () => new SetOp(SET_FNS.DISTINCT!) });
  const dCols: Expr[] = columns.map((c) => ({ k: 'col', parts: [ident(dName), ident(c.name)], pos }));
  const repl = new Map<object, Expr>();
  for (const r of refs) repl.set(r, dCols[refIdx.get(keyOf(r))!]!);
  const rewritten = replaceNodes(body, repl);
  rewritten.from = [{ k: 'table', name: [ident(dName)], pos }, ...rewritten.from];
  const env2: Env = { ...env, ctes: new Map(env.ctes).set(dName, { name: dName, node: dNode, columns, ...(hideOuter ? { hidden: true } : {}) }) };
  return { body: rewritten, dCols, env: env2, outer };
}

/** The rewrite for a LATERAL subquery (bind/lateral.ts): the outer values are not part of its `*`. */
export function correlatedRewrite(q: Query, cur: PlanNode, ctx: BindCtx, env: Env, bindQuery: QueryBinder): Rewritten | undefined {
  return rewrite(q, cur, ctx, env, bindQuery, true);
}

const asQuery = (body: Select, pos: Query['pos']): Query => ({ with: [], body, orderBy: [], pos });

/** Keys over the first k columns of a row. */
const firstCols = (k: number): Array<(row: Row) => Value> => Array.from({ length: k }, (_, i) => (row: Row) => row[i]!);

/**
 * Joins what `sub` needs to `cur` and returns the new node and the expression that reads the subquery's
 * value (already negated for NOT IN / NOT EXISTS).
 */
export function attachSubquery(
  cur: PlanNode,
  sub: SubqueryExpr,
  ctx: BindCtx,
  env: Env,
  bindQuery: QueryBinder,
  bindUncorrelated: (q: Query, env: Env) => BoundQuery,
): { node: PlanNode; expr: BExpr } {
  const rw = rewrite(sub.query, cur, ctx, env, bindQuery);
  const k = rw ? rw.outer.length : 0;
  const leftWidth = cur.columns.length;
  if (sub.k === 'subquery') return attachScalar(cur, sub, rw, ctx, env, bindQuery, bindUncorrelated);
  // IN / EXISTS: a mark join
  let right: BoundQuery;
  if (!rw) right = bindUncorrelated(sub.query, env);
  else {
    const b = rw.body;
    if (sub.k === 'exists') {
      const aggs = b.items.some((i) => i.k === 'expr' && containsAgg(i.expr));
      if (aggs && !b.groupBy.length && !b.having) throw new SqlError('A correlated EXISTS over an aggregate without GROUP BY is not supported (it is always TRUE)', sub.pos, 'unsupported');
      const grouped = b.groupBy.length > 0 || b.having !== undefined;
      const sel: Select = { ...b, distinct: false, items: rw.dCols.map((e) => ({ k: 'expr', expr: e, pos: sub.pos })), groupBy: grouped ? [...rw.dCols, ...b.groupBy] : [], qualify: undefined };
      right = bindQuery(asQuery(sel, sub.pos), rw.env);
    } else {
      if (b.items.length !== 1 || b.items[0]!.k !== 'expr') throw new SqlError('The subquery of IN must return exactly one column', sub.pos, 'type');
      const item = b.items[0]!;
      if (containsAgg(item.expr) && !b.groupBy.length) throw new SqlError('A correlated IN over an aggregate without GROUP BY is not supported; write x = (SELECT ...)', sub.pos, 'unsupported');
      const sel: Select = {
        ...b,
        distinct: false,
        items: [...rw.dCols.map((e) => ({ k: 'expr' as const, expr: e, pos: sub.pos })), item],
        groupBy: b.groupBy.length ? [...rw.dCols, ...b.groupBy] : [],
      };
      right = bindQuery(asQuery(sel, sub.pos), rw.env);
    }
  }
  let leftVal: BExpr | undefined;
  let rightVal: BExpr | undefined;
  if (sub.k === 'insub') {
    if (right.columns.length !== k + 1) throw new SqlError('The subquery of IN must return exactly one column', sub.pos, 'type');
    const lb = bindExpr(sub.expr, ctx);
    const rb: BExpr = { type: right.columns[k]!.type, fn: (row) => row[k]!, colIdx: k };
    [leftVal, rightVal] = unify(lb, rb, sub.pos, 'IN');
  }
  const spec = {
    leftCorr: corrKey((rw?.outer ?? []).map((b) => b.fn)),
    rightCorr: corrKey(firstCols(k)),
    leftVal: leftVal?.fn,
    rightVal: rightVal?.fn,
  };
  const n = env.session.node({
    kind: 'markjoin',
    inputs: [cur, right.node],
    columns: [...cur.columns, { name: `MARK$${leftWidth}`, type: mk('BOOLEAN', sub.k === 'insub') }],
    make: () => new MarkJoinOp(spec),
  });
  const not = sub.not;
  const expr: BExpr = {
    type: mk('BOOLEAN', sub.k === 'insub'),
    fn: not
      ? (row) => {
          const v = row[leftWidth]!;
          return v === null ? null : !v;
        }
      : (row) => row[leftWidth]!,
  };
  return { node: n, expr };
}

/**
 * The subquery's value over no rows: its text with WHERE FALSE, bound alone; when its FROM reads outer columns
 * (UNNEST(t.arr)), the rewritten text with WHERE FALSE (its outer values relation then gives no row either).
 */
export function emptyValue(empty: Select, rw: Rewritten, env: Env, bindQuery: QueryBinder, bindUncorrelated: (q: Query, env: Env) => BoundQuery): BoundQuery {
  try {
    return bindUncorrelated(asQuery(empty, empty.pos), env);
  } catch (err) {
    if (!(err instanceof SqlError) || !empty.from.some((it) => it.k === 'unnest')) throw err;
    return bindQuery(asQuery({ ...rw.body, where: empty.where }, empty.pos), rw.env);
  }
}

/** A relation of one row holding the single value of `q`'s first column (NULL when not exactly one row). */
function singleValue(session: CompileSession, q: PlanNode, col: number): PlanNode {
  const type = withNull(q.columns[col]!.type, true);
  return session.node({
    kind: 'aggregate',
    inputs: [q],
    columns: [{ name: 'SINGLE$0', type }],
    make: () => new AggregateOp([], [{ make: () => new SingleValueAcc(), arg: (row) => row[col]!, distinct: false, ignoreNulls: false }], true),
    groupKeys: 0,
  });
}

export function crossJoinOne(session: CompileSession, cur: PlanNode, one: PlanNode, name: string): PlanNode {
  const leftWidth = cur.columns.length;
  return session.node({
    kind: 'join',
    inputs: [cur, one],
    columns: [...cur.columns, { name, type: one.columns[0]!.type }],
    make: () => new JoinOp({ leftOuter: false, rightOuter: false, leftKey: () => '', rightKey: () => '', leftWidth, rightWidth: 1 }),
    join: 'CROSS',
    keys: 0,
    residual: false,
  });
}

function attachScalar(
  cur: PlanNode,
  sub: Expr & { k: 'subquery' },
  rw: Rewritten | undefined,
  ctx: BindCtx,
  env: Env,
  bindQuery: QueryBinder,
  bindUncorrelated: (q: Query, env: Env) => BoundQuery,
): { node: PlanNode; expr: BExpr } {
  const leftWidth = cur.columns.length;
  if (!rw) {
    const q = bindUncorrelated(sub.query, env);
    if (q.columns.length !== 1) throw new SqlError(`A scalar subquery must return exactly one column; this one returns ${q.columns.length}`, sub.pos, 'type');
    const joined = crossJoinOne(env.session, cur, singleValue(env.session, q.node, 0), `SCALAR$${leftWidth}`);
    return { node: joined, expr: { type: joined.columns[leftWidth]!.type, fn: (row) => row[leftWidth]! } };
  }
  const b = rw.body;
  const k = rw.outer.length;
  if (b.items.length !== 1 || b.items[0]!.k !== 'expr') throw new SqlError(`A scalar subquery must return exactly one column`, sub.pos, 'type');
  const item = b.items[0]!;
  const ungroupedAgg = containsAgg(item.expr) && !b.groupBy.length;
  const sel: Select = {
    ...b,
    distinct: false,
    items: [...rw.dCols.map((e) => ({ k: 'expr' as const, expr: e, pos: sub.pos })), item],
    groupBy: ungroupedAgg || b.groupBy.length ? [...rw.dCols, ...b.groupBy] : [],
  };
  const q = bindQuery(asQuery(sel, sub.pos), rw.env);
  const type = withNull(q.columns[k]!.type, true);
  // one row per correlation key: its single value and its row count (non-NULL marks a match)
  const keyFns = firstCols(k);
  const groupCols: PlanColumn[] = [...q.columns.slice(0, k), { name: 'V', type }, { name: 'N', type: mk('BIGINT', false) }];
  const groups = env.session.node({
    kind: 'aggregate',
    inputs: [q.node],
    columns: groupCols,
    make: () =>
      new AggregateOp(
        keyFns,
        [
          { make: () => new SingleValueAcc(), arg: (row) => row[k]!, distinct: false, ignoreNulls: false },
          { make: () => new CountAcc(), distinct: false, ignoreNulls: false },
        ],
        false,
      ),
    groupKeys: k,
  });
  const outerKey = corrKey(rw.outer.map((o) => o.fn));
  const groupKey = corrKey(keyFns);
  let joined: PlanNode = env.session.node({
    kind: 'join',
    inputs: [cur, groups],
    columns: [...cur.columns, ...groupCols.map((c) => ({ ...c, type: withNull(c.type, true) }))],
    make: () => new JoinOp({ leftOuter: true, rightOuter: false, leftKey: outerKey, rightKey: groupKey, leftWidth, rightWidth: k + 2 }),
    join: 'LEFT',
    keys: k,
    residual: false,
  });
  const vIdx = leftWidth + k;
  const nIdx = vIdx + 1;
  if (!ungroupedAgg) return { node: joined, expr: { type, fn: (row) => row[vIdx]! } };
  // a key without rows takes the aggregate's value over no rows: the subquery with WHERE FALSE
  const empty: Select = { ...(sub.query.body as Select), where: { k: 'bool', value: false, pos: sub.pos } };
  let eq: BoundQuery;
  try {
    eq = emptyValue(empty, rw, env, bindQuery, bindUncorrelated);
  } catch (err) {
    if (err instanceof SqlError) throw new SqlError('A correlated aggregate subquery may use outer columns only in its WHERE clause', sub.pos, 'unsupported');
    throw err;
  }
  joined = crossJoinOne(env.session, joined, singleValue(env.session, eq.node, 0), `EMPTY$${joined.columns.length}`);
  const eIdx = joined.columns.length - 1;
  return { node: joined, expr: { type, fn: (row) => (row[nIdx] !== null ? row[vIdx]! : row[eIdx]!) } };
}
