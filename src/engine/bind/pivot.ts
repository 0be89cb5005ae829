/**
 * PIVOT in FROM (Feldera docs/sql/aggregates.md "Pivots"; Calcite's semantics, which Feldera uses):
 *   source PIVOT (agg1 [AS a1], ... FOR col | (col1, ...) IN (v1 [AS n1], ...)) [AS alias]
 * is the query
 *   SELECT <the other columns>, agg1 FILTER (WHERE col = v1) AS n1_a1, ... FROM source GROUP BY <the other columns>
 * where the other columns are the source's columns that neither an aggregate nor the FOR list reads, in order.
 * Rules:
 * - one output column per value and aggregate, value-major: named `n_a` when the aggregate has an alias, else `n`;
 *   a value without AS is named by its SQL text ('CLERK', 10), as Calcite does; other values need AS;
 * - a row matches a value when every FOR column equals it (`=`: NULL matches nothing); an aggregate's own FILTER
 *   is kept (ANDed);
 * - maintained as that GROUP BY is (incrementally, by the aggregate operator).
 */
import { SqlError, type Expr, type FromItem, type Ident, type Query, type Select, type SelectItem } from '../parse/ast.js';
import { canon, Scope, type ScopeColumn } from './scope.js';
import { walkExpr, type Env, type Rel } from './env.js';
import { AGG_NAMES } from './expr.js';
import type { QueryBinder } from './env.js';

export function bindPivot(f: FromItem & { k: 'pivot' }, env: Env, bindQuery: QueryBinder): Rel {
  const src = env.binders.bindFromItem(f.source, env, bindQuery);
  const pos = f.pos;
  const used = new Set<number>();
  const mark = (e: Expr): void =>
    walkExpr(e, (x) => {
      if (x.k !== 'col') return;
      const c = src.scope.resolve(x.parts, x.pos);
      used.add(c.idx);
    });
  for (const a of f.aggs) {
    if (a.expr.k !== 'func' || !AGG_NAMES.has(a.expr.name) || a.expr.over) throw new SqlError('PIVOT needs aggregate function calls before FOR', a.expr.pos, 'syntax');
    mark(a.expr);
  }
  f.forCols.forEach(mark);
  const ident = (value: string): Ident => ({ value, quoted: true, pos });
  const keep = src.scope.cols.filter((c) => !c.hidden && !used.has(c.idx));
  const keepRefs: Expr[] = keep.map((c) => ({ k: 'col', parts: c.rel !== undefined ? [ident(c.rel), ident(c.name)] : [ident(c.name)], pos }));
  const items: SelectItem[] = keepRefs.map((expr, i) => ({ k: 'expr', expr, alias: ident(keep[i]!.name), pos }));
  for (const v of f.values) {
    if (v.exprs.length !== f.forCols.length)
      throw new SqlError(
        `PIVOT value has ${v.exprs.length} value${v.exprs.length > 1 ? 's' : ''} for ${f.forCols.length} FOR column${f.forCols.length > 1 ? 's' : ''}`,
        v.exprs[0]?.pos ?? pos,
        'type',
      );
    const valueName = v.alias ? canon(v.alias, env.casing) : v.text;
    if (valueName === undefined) throw new SqlError('A PIVOT value that is not a literal needs AS name', v.exprs[0]!.pos, 'syntax');
    const match = v.exprs.map((e, i): Expr => ({ k: 'bin', op: 'Eq', left: f.forCols[i]!, right: e, pos: e.pos })).reduce((acc, c) => ({ k: 'bin', op: 'And', left: acc, right: c, pos: c.pos }));
    for (const a of f.aggs) {
      const call = a.expr as Expr & { k: 'func' };
      const filter: Expr = call.filter ? { k: 'bin', op: 'And', left: call.filter, right: match, pos: match.pos } : match;
      const name = a.alias ? `${valueName}_${canon(a.alias, env.casing)}` : valueName;
      items.push({ k: 'expr', expr: { ...call, filter }, alias: ident(name), pos: call.pos });
    }
  }
  const select: Select = { k: 'select', distinct: false, items, from: [f.source], groupBy: keepRefs, pos };
  const query: Query = { with: [], body: select, orderBy: [], pos };
  const q = bindQuery(query, env);
  let columns = q.columns;
  if (f.columnAliases.length) {
    if (f.columnAliases.length !== columns.length) throw new SqlError(`List of column aliases must have same degree as table; PIVOT here returns ${columns.length} columns`, pos, 'type');
    columns = columns.map((c, i) => ({ ...c, name: canon(f.columnAliases[i]!, env.casing) }));
  }
  const relName = f.alias ? canon(f.alias, env.casing) : undefined;
  const cols: ScopeColumn[] = columns.map((c, i) => ({ rel: relName, name: c.name, type: c.type, idx: i }));
  return { node: q.node, scope: new Scope(cols, env.casing) };
}
