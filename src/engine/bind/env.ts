/** Shared binder structures: the catalog of tables/views, CTE environments, relations with scopes. */
import { SqlError, type Expr, type FromItem, type Ident, type Pos, type Query } from '../parse/ast.js';
import type { PlanColumn, PlanNode } from '../plan/nodes.js';
import type { CompileSession } from './compile-session.js';
import { valueKey, rowKey, type Row, type Value } from '../types/values.js';
import { canon, Scope, type Casing, type ScopeColumn } from './scope.js';
import type { BExpr } from './bexpr.js';
import { MapOp, FilterOp } from '../ops/linear.js';

export interface NamedRelation {
  name: string;
  node: PlanNode;
  columns: PlanColumn[];
  /** Its columns are not expanded by `*` (the outer values of a decorrelated LATERAL subquery). */
  hidden?: boolean;
}

export interface Env {
  casing: Casing;
  /** Tables and views declared so far, by canonical name. */
  catalog: Map<string, NamedRelation>;
  /** CTEs in scope, innermost last. */
  ctes: Map<string, NamedRelation>;
  /** The program's clock node, made when a query first reads NOW() (bind/now.ts); shared by every copy of the env. */
  clock: { node?: PlanNode };
  /** The compile this binding belongs to (node ids, user types and functions, positions). */
  session: CompileSession;
  /** The FROM binders (bind/from.ts), for the FROM items nested in LATERAL, PIVOT and subqueries. */
  binders: FromBinders;
}

/** A query bound to a plan: its node and output columns. */
export interface BoundQuery {
  node: PlanNode;
  columns: PlanColumn[];
}

/** Binds a query (bind/query.ts bindQuery), passed down to the binders of the FROM items it may contain. */
export type QueryBinder = (q: Query, env: Env) => BoundQuery;

/**
 * The FROM binders, passed down on Env: the grammar is recursive (a LATERAL subquery, a PIVOT source or a
 * correlated subquery has FROM items of its own), and the modules that bind those items (lateral.ts, pivot.ts,
 * decorrelate.ts) reach from.ts through here rather than importing it.
 */
export interface FromBinders {
  bindFrom(items: FromItem[], env: Env, bindQuery: QueryBinder, pending?: Expr[]): Rel;
  bindFromItem(f: FromItem, env: Env, bindQuery: QueryBinder): Rel;
  emptyRowRel(env: Env): Rel;
}

/** A relation being built: its plan node and the scope describing its row layout. */
export interface Rel {
  node: PlanNode;
  scope: Scope;
}

export function lookupRelation(env: Env, name: Ident[], pos: Pos): NamedRelation {
  const n = canon(name[name.length - 1]!, env.casing);
  const r = env.ctes.get(n) ?? env.catalog.get(n);
  if (!r) throw new SqlError(`Object '${name.map((x) => x.value).join('.')}' not found`, pos, 'unknown_table');
  return r;
}

export function relFromNamed(r: NamedRelation, relName: string, casing: Casing): Rel {
  const cols: ScopeColumn[] = r.columns.map((c, i) => ({ rel: relName, name: c.name, type: c.type, idx: i, ...(r.hidden ? { hidden: true } : {}) }));
  return { node: r.node, scope: new Scope(cols, casing) };
}

export function colsOf(scope: Scope): PlanColumn[] {
  return scope.cols.map((c) => ({ name: c.name, type: c.type }));
}

export function mapNode(session: CompileSession, input: PlanNode, exprs: BExpr[], columns: PlanColumn[]): PlanNode {
  const fns = exprs.map((e) => e.fn);
  // identity projection: reuse the input
  if (exprs.length === input.columns.length && exprs.every((e, i) => e.colIdx === i)) return input;
  return session.node({ kind: 'map', inputs: [input], columns, make: () => new MapOp(fns), passthrough: exprs.map((e) => e.colIdx) });
}

export function filterNode(session: CompileSession, input: PlanNode, pred: BExpr, atMost?: Array<{ col: number; max: number }>): PlanNode {
  const f = pred.fn;
  return session.node({ kind: 'filter', inputs: [input], columns: input.columns, make: () => new FilterOp(f), ...(atMost?.length ? { atMost } : {}) });
}

/** Key function for joins and semi-joins: NULL if any key value is NULL. */
export type JoinKey = string | number;

/** Key of a row for joins: a number for one numeric column (fast map keys), otherwise a string. */
export function keyFn(exprs: BExpr[]): (row: Row) => JoinKey | null {
  if (exprs.length === 0) return () => '';
  if (exprs.length === 1) {
    const f = exprs[0]!.fn;
    return (row) => {
      const v = f(row);
      return v === null ? null : typeof v === 'number' ? (v === 0 ? 0 : v) : valueKey(v);
    };
  }
  const fns = exprs.map((e) => e.fn);
  return (row) => {
    const vals: Value[] = new Array(fns.length);
    for (let i = 0; i < fns.length; i++) {
      const v = fns[i]!(row);
      if (v === null) return null;
      vals[i] = v;
    }
    return rowKey(vals);
  };
}

/** Split an expression into AND-ed conjuncts. */
export function conjuncts(e: Expr | undefined): Expr[] {
  if (!e) return [];
  if (e.k === 'bin' && e.op === 'And') return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}

/** Visit every sub-expression (not descending into subqueries). */
export function walkExpr(e: Expr, f: (e: Expr) => boolean | void): void {
  if (f(e) === false) return;
  const kids: Expr[] = [];
  switch (e.k) {
    case 'bin':
      kids.push(e.left, e.right);
      break;
    case 'un':
      kids.push(e.expr);
      break;
    case 'is':
      kids.push(e.expr);
      if (e.other) kids.push(e.other);
      break;
    case 'between':
      kids.push(e.expr, e.low, e.high);
      break;
    case 'inlist':
      kids.push(e.expr, ...e.list);
      break;
    case 'insub':
      kids.push(e.expr);
      break;
    case 'like':
      kids.push(e.expr, e.pattern);
      break;
    case 'case':
      if (e.operand) kids.push(e.operand);
      for (const w of e.whens) kids.push(w.cond, w.result);
      if (e.else) kids.push(e.else);
      break;
    case 'cast':
    case 'extract':
      kids.push(e.expr);
      break;
    case 'func':
      kids.push(...e.args);
      if (e.filter) kids.push(e.filter);
      if (e.orderBy) kids.push(...e.orderBy.map((o) => o.expr));
      if (e.over) {
        kids.push(...e.over.partitionBy, ...e.over.orderBy.map((o) => o.expr));
      }
      break;
    case 'array':
      kids.push(...e.elems);
      break;
    case 'index':
      kids.push(e.expr, e.index);
      break;
    case 'field':
      kids.push(e.expr);
      break;
    case 'interval':
      kids.push(e.value);
      break;
    default:
      break;
  }
  for (const k of kids) walkExpr(k, f);
}

/** True when every column reference in e resolves in scope, and e has no subquery (nor anything `reject` refuses). */
export function refsResolve(e: Expr, scope: Scope, reject?: (x: Expr) => boolean): boolean {
  let ok = true;
  walkExpr(e, (x) => {
    if (x.k === 'col') {
      try {
        if (!scope.tryResolvePath(x.parts, x.pos)) ok = false;
      } catch {
        ok = false;
      }
    }
    if (x.k === 'insub' || x.k === 'exists' || x.k === 'subquery' || reject?.(x)) ok = false;
  });
  return ok;
}
