/** Queries: WITH, set operations, VALUES, SELECT (WHERE, GROUP BY, HAVING, windows, DISTINCT), ORDER BY ... LIMIT. */
import { SqlError, type Expr, type Query, type Select, type SetBody } from '../parse/ast.js';
import { type PlanColumn, type PlanNode } from '../plan/nodes.js';
import { commonType, commonTypeCoercing, mk, withNull, type SqlType } from '../types/types.js';
import { AggregateOp, type AggSpec } from '../ops/aggregate.js';
import { SetOp, SET_FNS } from '../ops/setops.js';
import { UnionOp, ConstantOp } from '../ops/linear.js';
import { TopKOp } from '../ops/topk.js';
import { canon, Scope, type ScopeColumn } from './scope.js';
import { type BoundQuery, type Env, type Rel, conjuncts, filterNode, mapNode, walkExpr } from './env.js';
import { AGG_NAMES, bindCondition, bindExpr, coerce, exprKey, type BindCtx } from './expr.js';
import type { BExpr } from './bexpr.js';
import { bindAggCall, containsAgg, withInputRowOrder } from './aggs.js';
import { expandGroupingSets } from './grouping-sets.js';
import { addSemiJoin, subqueryConjunct, type SubConjunct } from './subquery-conditions.js';
import { addWindows } from './window.js';
import { orderComparator } from './window-fns.js';
import { bindFrom } from './from.js';
import { attachScalarSubqueries } from './scalar.js';
import { applyGroupWindow, hasGroupWindow, refuseStrayBounds } from './group-window.js';
import { upperBounds } from './bounds.js';
import { exprLineage, type ColumnLineage } from './lineage.js';
import { attachNow, resolvedBy, temporalFilters } from './now.js';
import { temporalAggregate, temporalCall, type TemporalCall } from './now-aggregates.js';

export type { BoundQuery };

export function bindQuery(q: Query, env: Env): BoundQuery {
  let inner = env;
  if (q.with.length) {
    inner = { ...env, ctes: new Map(env.ctes) };
    for (const cte of q.with) {
      const b = bindQuery(cte.query, inner);
      let columns = b.columns;
      if (cte.columns.length) {
        if (cte.columns.length !== columns.length) throw new SqlError('Number of columns must match number of query columns', cte.name.pos, 'type');
        columns = columns.map((c, i) => ({ ...c, name: canon(cte.columns[i]!, env.casing) }));
      }
      const name = canon(cte.name, env.casing);
      inner.ctes.set(name, { name, node: b.node, columns });
    }
  }
  const body = bindSetBody(q.body, inner);
  if (q.limit === undefined) return body; // ORDER BY without LIMIT does not change a view's contents
  return addTopK(body, q, inner);
}

function constNonNegInt(e: Expr | undefined, env: Env, what: string): number {
  if (!e) return 0;
  const b = bindExpr(e, { scope: new Scope([], env.casing), session: env.session, clause: what });
  const v = b.fn([]);
  if (!b.constant || typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new SqlError(`${what} must be a non-negative integer constant`, e.pos, 'unsupported');
  return v;
}

/** ORDER BY ... LIMIT: incremental top-k over the whole relation (ops/topk.ts). */
function addTopK(body: BoundQuery, q: Query, env: Env): BoundQuery {
  const limit = constNonNegInt(q.limit, env, 'LIMIT');
  const offset = constNonNegInt(q.offset, env, 'OFFSET');
  const scope = new Scope(
    body.columns.map((c, i) => ({ name: c.name, type: c.type, idx: i })),
    env.casing,
  );
  const items = q.orderBy.map((o) => {
    if (o.expr.k === 'num') {
      const i = Number(o.expr.text);
      if (!Number.isInteger(i) || i < 1 || i > body.columns.length) throw new SqlError(`Ordinal ${o.expr.text} out of range`, o.expr.pos, 'type');
      const c = body.columns[i - 1]!;
      return { ...o, expr: { k: 'col' as const, parts: [{ value: c.name, quoted: true, pos: o.expr.pos }], pos: o.expr.pos } };
    }
    return o;
  });
  const { cmp } = orderComparator(items, { scope, session: env.session, clause: 'ORDER BY' }, 'query');
  const n = env.session.node({ kind: 'topk', inputs: [body.node], columns: body.columns, make: () => new TopKOp(cmp, limit, offset), limit, offset });
  return { node: n, columns: body.columns };
}

function bindSetBody(b: SetBody, env: Env): BoundQuery {
  switch (b.k) {
    case 'select':
      return b.groupingSets ? bindSetBody(expandGroupingSets(b), env) : bindSelect(b, env);
    case 'query':
      return bindQuery(b.query, env);
    case 'values':
      return bindValues(b, env);
    case 'setop': {
      const l = bindSetBody(b.left, env);
      const r = bindSetBody(b.right, env);
      if (l.columns.length !== r.columns.length) throw new SqlError(`Column count mismatch in ${b.op}`, b.pos, 'type');
      const types: SqlType[] = l.columns.map((c, i) => {
        const t = commonTypeCoercing(c.type, r.columns[i]!.type); // INTERSECT of VARCHAR and BOOLEAN is VARCHAR, as Calcite
        if (!t) throw new SqlError(`Type mismatch in column ${i + 1} of ${b.op}: ${c.type.kind} and ${r.columns[i]!.type.kind}`, b.pos, 'type');
        return t;
      });
      const columns = l.columns.map((c, i) => ({ name: c.name, type: types[i]! }));
      const ln = castTo(l, types, b.pos, env);
      const rn = castTo(r, types, b.pos, env);
      if (b.op === 'UNION') {
        const u = env.session.node({ kind: 'union', inputs: [ln, rn], columns, make: () => new UnionOp([1, 1]) });
        if (b.all) return { node: u, columns };
        return { node: env.session.node({ kind: 'distinct', inputs: [u], columns, make: () => new SetOp(SET_FNS.DISTINCT!) }), columns };
      }
      const f = SET_FNS[b.op + (b.all ? '_ALL' : '')]!;
      return { node: env.session.node({ kind: b.op === 'EXCEPT' ? 'except' : 'intersect', inputs: [ln, rn], columns, make: () => new SetOp(f), all: b.all }), columns };
    }
  }
}

function castTo(q: BoundQuery, types: SqlType[], pos: { line: number; column: number }, env: Env): PlanNode {
  if (q.columns.every((c, i) => c.type.kind === types[i]!.kind && c.type.scale === types[i]!.scale)) return q.node;
  const exprs: BExpr[] = q.columns.map((c, i) => coerce({ type: c.type, fn: (row) => row[i]!, colIdx: i }, types[i]!, pos));
  return mapNode(
    env.session,
    q.node,
    exprs,
    q.columns.map((c, i) => ({ name: c.name, type: types[i]! })),
  );
}

function bindValues(b: SetBody & { k: 'values' }, env: Env): BoundQuery {
  const scope = new Scope([], env.casing);
  const rows = b.rows.map((r) => r.map((e) => bindExpr(e, { scope, session: env.session, clause: 'VALUES' })));
  const width = rows[0]?.length ?? 0;
  if (rows.some((r) => r.length !== width)) throw new SqlError('Values passed to VALUES operator must have compatible types: its rows have different numbers of columns', b.pos, 'type');
  const types = Array.from({ length: width }, (_, i) => {
    let t: SqlType | undefined = rows[0]![i]!.type;
    for (const r of rows) {
      t = commonType(t!, r[i]!.type);
      if (!t) throw new SqlError(`Incompatible types in VALUES column ${i + 1}`, b.pos, 'type');
    }
    return t!;
  });
  const data = rows.map((r) => r.map((e, i) => coerce(e, types[i]!, b.pos).fn([])));
  const columns = types.map((t, i) => ({ name: `EXPR$${i}`, type: t }));
  return { node: env.session.node({ kind: 'values', inputs: [], columns, make: () => new ConstantOp(data) }), columns };
}

/** A relation being bound with the context that binds expressions over it. */
interface BoundRows {
  node: PlanNode;
  ctx: BindCtx;
}

/** A select-list item: its expression and the column name it gives (undefined: `EXPR$i`). */
interface SelectItem {
  expr: Expr;
  name?: string;
}

/** Errors of a correlated subquery conjunct that a semi join cannot take: it is decorrelated with the other subqueries. */
const DECORRELATED_LATER = ['unsupported', 'unknown_column', 'unknown_table'];

/**
 * A SELECT, phase by phase: FROM with WHERE's joins, what WHERE reads (temporal filters, scalar subqueries,
 * NOW()), WHERE's filter, group windows, the select list, grouping (HAVING), windows (QUALIFY), the projection
 * and DISTINCT.
 */
function bindSelect(select: Select, env: Env): BoundQuery {
  let s = select;
  const selectExprs = s.items.flatMap((i) => (i.k === 'star' ? [] : [i.expr]));
  const hasAgg = s.groupBy.length > 0 || selectExprs.some(containsAgg) || (s.having !== undefined && containsAgg(s.having));
  const from = bindFromWhere(s, env);
  const read = attachWhereReads(s, selectExprs, hasAgg, from.rel, from.plain, env);
  let rel = filterWhere(read.rel, from.plain, read.scalars, env);
  // GROUP BY TUMBLE(...)/HOP(...): the rows get their windows' bounds, which GROUP BY and *_START/*_END read
  if (hasGroupWindow(s)) ({ select: s, rel } = applyGroupWindow(s, rel, env));
  else refuseStrayBounds(s);
  const items = selectItems(s, rel.scope, env);
  const grouped = bindGrouping(s, items, rel, hasAgg, read.scalars, env);
  const windowed = bindWindowsAndQualify(s, items, grouped, env);
  return project(s, items, windowed, env);
}

/**
 * FROM with WHERE's conjuncts: subquery conjuncts become semi/anti joins, join conditions of comma lists go into
 * the joins; the rest (`plain`, with the subqueries a semi join cannot take) is left for one filter.
 */
function bindFromWhere(s: Select, env: Env): { rel: Rel; plain: Expr[] } {
  const plain: Expr[] = [];
  const subs: Array<{ sub: SubConjunct; conjunct: Expr }> = [];
  for (const c of conjuncts(s.where)) {
    const sub = subqueryConjunct(c);
    if (sub) subs.push({ sub, conjunct: c });
    else plain.push(c);
  }
  let rel: Rel = bindFrom(s.from, env, bindQuery, plain);
  for (const { sub, conjunct } of subs) {
    try {
      rel = addSemiJoin(rel, sub, env, bindQuery);
    } catch (err) {
      // correlated beyond equalities, or correlated IN: decorrelated with the other subqueries below
      if (!(err instanceof SqlError) || !DECORRELATED_LATER.includes(err.kind ?? '')) throw err;
      plain.push(conjunct);
    }
  }
  return { rel, plain };
}

/**
 * What WHERE and the rows before grouping read beside the columns: temporal filters (ts >= NOW() - INTERVAL ...)
 * as their own operator, which a move of the clock costs only the rows it changes; scalar subqueries of WHERE
 * (and, without aggregates, of SELECT and QUALIFY); the clock, where WHERE or the rows before grouping read NOW()
 * (aggregate arguments, GROUP BY; NOW() read only after grouping is joined to the groups in bindAggregate).
 */
function attachWhereReads(s: Select, selectExprs: Expr[], hasAgg: boolean, from: Rel, plain: Expr[], env: Env): { rel: Rel; scalars: BindCtx['special'] } {
  const rel: Rel = { node: temporalFilters(from.node, plain, from.scope, env), scope: from.scope };
  const qualify = s.qualify ? [s.qualify] : [];
  const early = attachScalarSubqueries(rel.node, [...plain, ...(hasAgg ? [] : [...selectExprs, ...qualify])], { scope: rel.scope, session: env.session, clause: 'WHERE' }, env, bindQuery);
  const clocked = attachNow(early.node, hasAgg ? [...plain, ...preAggregate(s, selectExprs, rel, env)] : [...plain, ...selectExprs, ...qualify], early.ctx, env);
  return { rel: { node: clocked.node, scope: rel.scope }, scalars: clocked.ctx.special };
}

/** WHERE's remaining conjuncts as one filter (none: the rows as they are). */
function filterWhere(rel: Rel, plain: Expr[], scalars: BindCtx['special'], env: Env): Rel {
  if (!plain.length) return rel;
  const ctx: BindCtx = { scope: rel.scope, session: env.session, clause: 'WHERE', special: scalars };
  const preds = plain.map((c) => bindCondition(c, ctx));
  const fns = preds.map((p) => p.fn);
  const pred: BExpr = fns.length === 1 ? preds[0]! : { type: mk('BOOLEAN'), fn: (row) => (fns.every((f) => f(row) === true) ? true : false) };
  return { node: filterNode(env.session, rel.node, pred, upperBounds(plain, ctx)), scope: rel.scope };
}

/** The select list with each `*` and `t.*` expanded to the columns it stands for. */
function selectItems(s: Select, scope: Scope, env: Env): SelectItem[] {
  return s.items.flatMap((it): SelectItem[] => {
    if (it.k === 'star') return starItems(it, scope, env);
    let name: string | undefined;
    if (it.alias) name = canon(it.alias, env.casing);
    else if (it.expr.k === 'col') name = canon(it.expr.parts[it.expr.parts.length - 1]!, env.casing);
    return [{ expr: it.expr, name }];
  });
}

/** The visible columns `*` (or `t.*`: those of t, which must be there) stands for, each by its quoted name. */
function starItems(it: Extract<Select['items'][number], { k: 'star' }>, scope: Scope, env: Env): SelectItem[] {
  const rn = it.qualifier ? canon(it.qualifier[it.qualifier.length - 1]!, env.casing) : undefined;
  const cols = scope.cols.filter((c) => !c.hidden && (rn === undefined || c.rel === rn));
  if (rn !== undefined && cols.length === 0 && !scope.cols.some((c) => c.rel === rn)) throw new SqlError(`Table '${it.qualifier!.map((q) => q.value).join('.')}' not found`, it.pos, 'unknown_table');
  return cols.map((c): SelectItem => {
    const column = { value: c.name, quoted: true, pos: it.pos };
    const parts = c.rel !== undefined ? [{ value: c.rel, quoted: true, pos: it.pos }, column] : [column];
    return { expr: { k: 'col', parts, pos: it.pos }, name: c.name };
  });
}

/** GROUP BY, aggregates and HAVING (bindAggregate), the select list's scalar subqueries joined to the groups; HAVING without them is refused. */
function bindGrouping(s: Select, items: SelectItem[], rel: Rel, hasAgg: boolean, scalars: BindCtx['special'], env: Env): BoundRows {
  if (!hasAgg) {
    if (s.having) throw new SqlError('HAVING without GROUP BY or aggregates', s.having.pos, 'unsupported');
    return { node: rel.node, ctx: { scope: rel.scope, session: env.session, clause: 'SELECT', special: scalars } };
  }
  const exprs = items.map((i) => i.expr);
  const grouped = bindAggregate(s, exprs, rel, env, scalars);
  return attachScalarSubqueries(grouped.node, exprs, grouped.ctx, env, bindQuery);
}

/** The window functions of the select list and QUALIFY, then QUALIFY's filter. */
function bindWindowsAndQualify(s: Select, items: SelectItem[], rows: BoundRows, env: Env): BoundRows {
  const w = addWindows(rows.node, [...items.map((i) => i.expr), ...(s.qualify ? [s.qualify] : [])], rows.ctx);
  if (!s.qualify) return w;
  const qctx: BindCtx = { ...w.ctx, clause: 'QUALIFY' };
  return { node: filterNode(env.session, w.node, bindCondition(s.qualify, qctx), upperBounds(conjuncts(s.qualify), qctx)), ctx: w.ctx };
}

/** The select list's columns (a repeated name gets a number: A, A0, A1 ...), then DISTINCT. */
function project(s: Select, items: SelectItem[], rows: BoundRows, env: Env): BoundQuery {
  const { node, ctx } = rows;
  const exprs = items.map((i) => bindExpr(i.expr, { ...ctx, clause: 'SELECT' }));
  const used = new Map<string, number>();
  const columns: PlanColumn[] = items.map((it, i) => {
    let name = it.name ?? `EXPR$${i}`;
    const n = used.get(name) ?? 0;
    used.set(name, n + 1);
    if (n > 0) name = `${name}${n - 1}`;
    const src = exprs[i]!.colIdx;
    return { name, type: exprs[i]!.type, wm: src !== undefined ? node.columns[src]?.wm : exprLineage(it.expr, boundLineage(ctx, node)) };
  });
  const projected = mapNode(env.session, node, exprs, columns);
  if (!s.distinct) return { node: projected, columns };
  // LATENESS: rows final in a column with a waterline can change no more (DISTINCT releases them)
  const gc = columns.flatMap((c, pos) => (c.wm ? [{ ...c.wm, pos }] : []));
  return { node: env.session.node({ kind: 'distinct', inputs: [projected], columns, make: () => new SetOp(SET_FNS.DISTINCT!, gc), releases: gc }), columns };
}

/**
 * What a grouped SELECT evaluates on the rows before grouping, as far as NOW() is concerned: WHERE aside, the
 * GROUP BY expressions (an ordinal or a select alias among them: every select item, to be safe) and the
 * aggregate calls' arguments and FILTERs.
 */
function preAggregate(s: Select, selectExprs: Expr[], rel: Rel, env: Env): Expr[] {
  const out: Expr[] = [...s.groupBy];
  if (s.groupBy.some((g) => g.k === 'num' || (g.k === 'col' && g.parts.length === 1 && !rel.scope.tryResolve(g.parts, g.pos)))) out.push(...selectExprs);
  for (const e of [...selectExprs, ...(s.having ? [s.having] : []), ...(s.qualify ? [s.qualify] : [])])
    walkExpr(e, (x) => {
      if (x.k === 'func' && !x.over && AGG_NAMES.has(x.name)) {
        out.push(temporalCall(x, rel.scope, env.session)?.rest ?? x); // a temporal FILTER reads the clock in its own operator (now-aggregates.ts)
        return false;
      }
      return undefined;
    });
  return out;
}

/** `pre`: the values the rows before grouping have beside their columns (NOW(), WHERE's subqueries). */
function bindAggregate(s: Select, itemExprs: Expr[], rel: Rel, env: Env, pre: BindCtx['special']): { node: PlanNode; ctx: BindCtx } {
  const inCtx: BindCtx = { scope: rel.scope, session: env.session, clause: 'GROUP BY', special: pre };
  // GROUP BY may name a select alias or an ordinal (Calcite allows both in its lenient conformance)
  const groupExprs = s.groupBy.map((g) => {
    if (g.k === 'num' && Number.isInteger(Number(g.text))) {
      const i = Number(g.text);
      if (i < 1 || i > itemExprs.length) throw new SqlError(`Ordinal ${g.text} out of range`, g.pos, 'type');
      return itemExprs[i - 1]!;
    }
    // a select-list alias that is not an input column
    if (g.k === 'col' && g.parts.length === 1 && !rel.scope.tryResolve(g.parts, g.pos)) {
      const name = canon(g.parts[0]!, env.casing);
      const i = s.items.findIndex((it) => it.k === 'expr' && it.alias && canon(it.alias, env.casing) === name);
      if (i >= 0) return (s.items[i] as { expr: Expr }).expr;
    }
    return g;
  });
  const keys = groupExprs.map((g) => {
    if (containsAgg(g)) throw new SqlError('Aggregate functions are not allowed in GROUP BY', g.pos, 'unsupported');
    return bindExpr(g, inCtx);
  });
  const groupByKey = new Map<string, number>();
  const groupByCol = new Map<number, number>();
  groupExprs.forEach((g, i) => {
    groupByKey.set(exprKey(g, rel.scope), i);
    if (keys[i]!.colIdx !== undefined && !groupByCol.has(keys[i]!.colIdx!)) groupByCol.set(keys[i]!.colIdx!, i);
  });
  // collect aggregate calls
  const calls: Array<Expr & { k: 'func' }> = [];
  const callIdx = new Map<string, number>();
  const collect = (e: Expr): void =>
    walkExpr(e, (x) => {
      if (x.k === 'func' && x.over) {
        x.args.forEach(collect);
        return false;
      }
      if (x.k === 'func' && AGG_NAMES.has(x.name)) {
        const k = exprKey(x, rel.scope);
        if (!callIdx.has(k)) {
          callIdx.set(k, calls.length);
          calls.push(x);
        }
        return false;
      }
      return undefined;
    });
  itemExprs.forEach(collect);
  if (s.having) collect(s.having);
  if (s.qualify) collect(s.qualify);
  // calls whose FILTER is a temporal filter: computed over the filtered rows (now-aggregates.ts), bound without it
  const temporal = new Map<number, TemporalCall>();
  calls.forEach((c, i) => {
    const t = temporalCall(c, rel.scope, env.session);
    if (t) temporal.set(i, t);
  });
  const ordered = withInputRowOrder(calls, (e) => exprKey(e, rel.scope));
  const bound = calls.map((c, i) => {
    for (const a of c.args) if (containsAgg(a)) throw new SqlError('Aggregate expressions cannot be nested', a.pos, 'unsupported');
    return bindAggCall(temporal.get(i)?.rest ?? ordered[i]!, { scope: rel.scope, session: env.session, clause: 'an aggregate', special: pre });
  });
  const global = s.groupBy.length === 0;
  const specs: AggSpec[] = bound.map((b) => b.spec);
  const nG = keys.length;
  const columns: PlanColumn[] = [
    ...keys.map((k, i) => ({
      name: `G$${i}`,
      type: k.type,
      wm: k.colIdx !== undefined ? rel.node.columns[k.colIdx]?.wm : exprLineage(groupExprs[i]!, scopeLineage(rel.scope, rel.node)),
    })),
    ...bound.map((b, i) => ({ name: `A$${i}`, type: global && b.type.kind !== 'BIGINT' ? withNull(b.type, true) : b.type })),
  ];
  const keyFns = keys.map((k) => k.fn);
  const gc = columns.slice(0, nG).flatMap((c, i) => (c.wm ? [{ keyIdx: i, ...c.wm }] : []));
  const aggNode = temporal.size
    ? temporalAggregate(rel, env, keyFns, calls, specs, temporal, columns, global, gc)
    : env.session.node({ kind: 'aggregate', inputs: [rel.node], columns, make: () => new AggregateOp(keyFns, specs, global, gc), groupKeys: nG, releases: gc });
  const ref = (i: number, type: SqlType): BExpr => ({ type, fn: (row) => row[i]!, colIdx: i });
  const special = (e: Expr): BExpr | undefined => {
    if (e.k === 'func' && !e.over && AGG_NAMES.has(e.name)) {
      const i = callIdx.get(exprKey(e, rel.scope));
      if (i === undefined) throw new SqlError('internal: aggregate not collected', e.pos, 'unsupported');
      return ref(nG + i, columns[nG + i]!.type);
    }
    const g = groupByKey.get(exprKey(e, rel.scope));
    if (g !== undefined) return ref(g, columns[g]!.type);
    if (e.k === 'col') {
      const c = rel.scope.resolve(e.parts, e.pos);
      const gi = groupByCol.get(c.idx);
      if (gi !== undefined) return ref(gi, columns[gi]!.type);
      throw new SqlError(`Expression '${e.parts.map((p) => p.value).join('.')}' is not being grouped`, e.pos, 'type');
    }
    return undefined;
  };
  // NOW() outside the aggregate calls and group keys: the clock joined to the groups
  const grouped: BindCtx = { scope: rel.scope, session: env.session, clause: 'SELECT', special };
  const clocked = attachNow(aggNode, [...itemExprs, ...(s.having ? [s.having] : []), ...(s.qualify ? [s.qualify] : [])], grouped, env, resolvedBy(grouped));
  let cur: PlanNode = clocked.node;
  let ctx: BindCtx = clocked.ctx;
  if (s.having) {
    const h = attachScalarSubqueries(cur, [s.having], ctx, env, bindQuery);
    cur = filterNode(env.session, h.node, bindCondition(s.having, { ...h.ctx, clause: 'HAVING' }));
    ctx = h.ctx;
  }
  return { node: cur, ctx };
}

export type { ScopeColumn };

/** Column lineage for exprLineage through the bound select: a column as `ctx` binds it, read from `node`'s columns. */
function boundLineage(ctx: BindCtx, node: PlanNode): ColumnLineage {
  return (col) => {
    const b = bindExpr(col, ctx);
    return b.colIdx === undefined ? undefined : { type: b.type, wm: node.columns[b.colIdx]?.wm };
  };
}

/** Column lineage for exprLineage through a relation's scope (GROUP BY keys, before grouping). */
function scopeLineage(scope: Scope, node: PlanNode): ColumnLineage {
  return (col) => {
    const c = scope.tryResolve(col.parts, col.pos);
    return c && { type: c.type, wm: node.columns[c.idx]?.wm };
  };
}
