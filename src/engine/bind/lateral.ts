/**
 * Lateral FROM items: `UNNEST(expr, ...) [WITH ORDINALITY]` and `LATERAL (subquery)`, which may read columns of
 * the FROM items before them (Feldera's grammar: `UNNEST '(' expression ')' [WITH ORDINALITY]` and
 * `[LATERAL] '(' query ')'` as table primaries; docs/sql/array.md and map.md for UNNEST).
 *
 * Rules:
 * - UNNEST of an ARRAY gives one row per element (duplicates kept); of a MAP one row per (key, value) pair in key
 *   order; of NULL or an empty array no rows. Several arrays are zipped (as Postgres and Calcite): as many rows as
 *   the longest, the shorter padded with NULL. WITH ORDINALITY adds the element's position, from 1.
 * - An ARRAY of ROWs gives one column per field, named as the fields (a NULL element: a row of NULLs).
 * - Column names: the alias's column list; otherwise an alias without a column list names the single element
 *   column (`UNNEST(cities) AS city`), else EXPR$i (KEY and VALUE for a map) and ORDINALITY.
 * - `t, UNNEST(t.arr)`, `t CROSS JOIN UNNEST(t.arr)`, `t CROSS APPLY UNNEST(t.arr)` and `t JOIN UNNEST(t.arr) ON c`
 *   are one linear flat-map over t's rows (a change of a row of t retracts or inserts all its elements: no state).
 *   An UNNEST that reads no column is a constant relation. LEFT JOIN UNNEST and OUTER APPLY are refused, as Feldera
 *   refuses them.
 * - LATERAL (subquery) reading outer columns o1..ok is decorrelated as the subqueries of expressions are
 *   (decorrelate.ts): the subquery runs once per distinct (o1..ok) and is joined back on those values
 *   (IS NOT DISTINCT FROM). One that aggregates without GROUP BY gives one row per outer row (lateralAggregate).
 * - LATERAL (VALUES ...) reading the items before it is a linear flat-map too (bindLateralValues).
 * - LEFT JOIN LATERAL (subquery) [ON cond] keeps each outer row without a matching row once, with NULLs (the
 *   decorrelated join made a left outer join with ON as its residual condition).
 * - In a comma list, a lateral item is merged into the items it reads (a cross product when it reads several);
 *   the joined row keeps FROM order.
 */
import { SqlError, type Expr, type FromItem, type Pos, type Query, type Select } from '../parse/ast.js';
import { type PlanColumn } from '../plan/nodes.js';
import { commonType, mk, withNull, type SqlType } from '../types/types.js';
import type { Row, Value } from '../types/values.js';
import { FlatMapOp } from '../ops/linear.js';
import { JoinOp } from '../ops/join.js';
import { corrKey } from '../ops/markjoin.js';
import { canon, Scope, type ScopeColumn } from './scope.js';
import { mapNode, walkExpr, filterNode, type Env, type Rel } from './env.js';
import { bindCondition, bindExpr, type BindCtx } from './expr.js';
import { coerce } from './operators.js';
import { containsAgg } from './aggs.js';
import { correlatedRewrite, emptyValue } from './decorrelate.js';
import type { QueryBinder } from './env.js';
import { joinRels } from './join.js';
import type { BExpr } from './bexpr.js';

export type LateralItem = FromItem & ({ k: 'unnest' } | { k: 'derived'; lateral?: boolean });

export function isLateral(f: FromItem): f is LateralItem {
  return f.k === 'unnest' || (f.k === 'derived' && f.lateral === true);
}

/** `left` followed by the rows of the lateral item for each of its rows; `left` undefined: the item alone. */
export function applyLateral(left: Rel | undefined, f: LateralItem, env: Env, bindQuery: QueryBinder): Rel {
  if (f.k === 'unnest') return bindUnnest(left, f, env);
  return bindLateralQuery(left ?? env.binders.emptyRowRel(env), f, env, bindQuery);
}

/** `left JOIN|CROSS JOIN|CROSS APPLY lateral [ON cond]`. */
export function joinLateral(left: Rel, f: LateralItem, kind: string, on: Expr | undefined, env: Env, bindQuery: QueryBinder, pos: Pos): Rel {
  if (kind === 'LEFT' && f.k === 'derived') return bindLateralQuery(left, f, env, bindQuery, { on });
  if (kind !== 'CROSS' && kind !== 'INNER') {
    const what = f.k === 'unnest' ? 'UNNEST' : 'LATERAL';
    throw new SqlError(`${kind} JOIN ${what} is not supported${f.k === 'unnest' ? ' (as in Feldera); UNNEST(COALESCE(arr, ARRAY[NULL])) keeps the rows whose array is NULL' : ''}`, pos, 'unsupported');
  }
  const rel = applyLateral(left, f, env, bindQuery);
  if (!on) return rel;
  const pred = bindCondition(on, { scope: rel.scope, session: env.session, clause: 'ON' });
  return { node: filterNode(env.session, rel.node, pred), scope: rel.scope };
}

function bindUnnest(left: Rel | undefined, f: FromItem & { k: 'unnest' }, env: Env): Rel {
  const base = left ?? env.binders.emptyRowRel(env);
  const ctx: BindCtx = { scope: base.scope, session: env.session, clause: 'UNNEST' };
  const args = f.exprs.map((e) => bindExpr(e, ctx));
  if (args.length === 0) throw new SqlError('UNNEST needs an argument', f.pos, 'syntax');
  const isMap = args.length === 1 && args[0]!.type.kind === 'MAP';
  for (const [i, a] of args.entries()) {
    if (a.type.kind === 'MAP' && args.length > 1) throw new SqlError('UNNEST of a MAP takes that one argument', f.exprs[i]!.pos, 'type');
    if (a.type.kind !== 'ARRAY' && a.type.kind !== 'MAP') throw new SqlError(`UNNEST needs an ARRAY or a MAP, not ${a.type.kind}`, f.exprs[i]!.pos, 'type');
  }
  const up = (s: string): string => (env.casing === 'upper' ? s.toUpperCase() : s.toLowerCase());
  const elemType = (t: SqlType): SqlType => withNull(t.elem ?? mk('NULL'), args.length > 1 || (t.elem?.nullable ?? true));
  // an array of ROWs gives one column per field (Feldera docs/sql/array.md); a NULL element, a row of NULLs
  const rowFields = !isMap && args.length === 1 ? rowFieldsOf(args[0]!.type.elem) : undefined;
  const valueCols: Array<{ name: string; type: SqlType }> = isMap
    ? [
        { name: up('key'), type: withNull(args[0]!.type.key ?? mk('NULL'), false) },
        { name: up('value'), type: withNull(args[0]!.type.elem ?? mk('NULL'), true) },
      ]
    : rowFields
      ? rowFields.map((fld) => ({ name: fld.name, type: withNull(fld.type, fld.type.nullable || (args[0]!.type.elem?.nullable ?? true)) }))
      : args.map((a, i) => ({ name: `EXPR$${i}`, type: elemType(a.type) }));
  const newCols = f.ordinality ? [...valueCols, { name: up('ordinality'), type: mk('INTEGER', false) }] : valueCols;
  if (f.columnAliases.length) {
    if (f.columnAliases.length !== newCols.length)
      throw new SqlError(`List of column aliases must have same degree as table; UNNEST here returns ${newCols.length} column${newCols.length > 1 ? 's' : ''}`, f.pos, 'type');
    f.columnAliases.forEach((a, i) => (newCols[i]!.name = canon(a, env.casing)));
  } else if (f.alias && valueCols.length === 1) newCols[0]!.name = canon(f.alias, env.casing);
  const fns = args.map((a) => a.fn);
  const ordinality = f.ordinality;
  let fn: (row: Row) => Row[];
  if (isMap) {
    const m = fns[0]!;
    fn = (row) => {
      const pairs = m(row) as Array<[Value, Value]> | null;
      if (pairs === null) return [];
      return pairs.map(([k, v], i) => (ordinality ? row.concat([k, v, i + 1]) : row.concat([k, v])));
    };
  } else if (rowFields) {
    const a = fns[0]!;
    const nulls: Value[] = rowFields.map(() => null);
    fn = (row) => {
      const arr = a(row) as Array<Value[] | null> | null;
      if (arr === null) return [];
      return arr.map((v, i) => (ordinality ? row.concat(v ?? nulls, [i + 1]) : row.concat(v ?? nulls)));
    };
  } else if (fns.length === 1) {
    const a = fns[0]!;
    fn = (row) => {
      const arr = a(row) as Value[] | null;
      if (arr === null) return [];
      return arr.map((v, i) => (ordinality ? row.concat([v, i + 1]) : row.concat([v])));
    };
  } else {
    fn = (row) => {
      const arrs = fns.map((a) => a(row) as Value[] | null);
      const n = Math.max(0, ...arrs.map((x) => x?.length ?? 0));
      const out: Row[] = [];
      for (let i = 0; i < n; i++) {
        const vals = arrs.map((x) => (x && i < x.length ? x[i]! : null));
        out.push(row.concat(ordinality ? [...vals, i + 1] : vals));
      }
      return out;
    };
  }
  const relName = f.alias ? canon(f.alias, env.casing) : undefined;
  const w = base.scope.width;
  const cols: ScopeColumn[] = [...base.scope.cols, ...newCols.map((c, i) => ({ rel: relName, name: c.name, type: c.type, idx: w + i }))];
  const columns: PlanColumn[] = [...base.node.columns, ...newCols];
  const n = env.session.node({ kind: 'unnest', inputs: [base.node], columns, make: () => new FlatMapOp(fn), of: isMap ? 'map' : args.length > 1 ? 'arrays' : 'array', args: args.length, ordinality });
  return { node: n, scope: new Scope(cols, env.casing) };
}

const asQuery = (body: Select, pos: Pos): Query => ({ with: [], body, orderBy: [], pos });

/** The fields of a ROW type (its values are arrays of the field values in order), else undefined. */
function rowFieldsOf(t: SqlType | undefined): Array<{ name: string; type: SqlType }> | undefined {
  const fields = (t as (SqlType & { fields?: Array<{ name: string; type: SqlType }> }) | undefined)?.fields;
  return (t?.kind as string) === 'ROW' && Array.isArray(fields) ? fields : undefined;
}

/** LEFT JOIN LATERAL ... [ON cond]: outer rows without a matching row keep NULLs. */
interface LeftJoin {
  on?: Expr;
}

function bindLateralQuery(left: Rel, f: FromItem & { k: 'derived' }, env: Env, bindQuery: QueryBinder, outer?: LeftJoin): Rel {
  const q0 = f.query;
  if (q0.body.k === 'values' && !q0.with.length && !q0.orderBy.length && q0.limit === undefined && q0.offset === undefined) return bindLateralValues(left, f, q0.body, env, outer);
  const rw = correlatedRewrite(f.query, left.node, { scope: left.scope, session: env.session, clause: 'LATERAL' }, env, bindQuery);
  if (!rw) {
    // reads nothing of the items before it: an ordinary derived table
    const derived: FromItem = { ...f, lateral: false };
    const right = env.binders.bindFromItem(derived, env, bindQuery);
    if (outer) return joinRels(left, right, 'LEFT', outer.on ?? { k: 'bool', value: true, pos: f.pos }, env, f.pos);
    return left.scope.width === 0 && left.node.kind === 'values' ? right : joinRels(left, right, 'CROSS', undefined, env, f.pos);
  }
  const b = rw.body;
  const k = rw.outer.length;
  const aggs = b.items.some((i) => i.k === 'expr' && containsAgg(i.expr)) || (b.having !== undefined && containsAgg(b.having));
  if (aggs && !b.groupBy.length) return withLeftOn(lateralAggregate(left, f, rw, env, bindQuery), left.scope.width, env, outer);
  const sel: Select = { ...b, items: [...rw.dCols.map((e) => ({ k: 'expr' as const, expr: e, pos: f.pos })), ...b.items], groupBy: b.groupBy.length ? [...rw.dCols, ...b.groupBy] : [] };
  const q = bindQuery(asQuery(sel, f.pos), rw.env);
  let subCols = q.columns.slice(k);
  if (f.columnAliases.length) {
    if (f.columnAliases.length !== subCols.length) throw new SqlError('List of column aliases must have same degree as table', f.pos, 'type');
    subCols = subCols.map((c, i) => ({ ...c, name: canon(f.columnAliases[i]!, env.casing) }));
  }
  const lw = left.scope.width;
  const qw = q.columns.length;
  if (outer) subCols = subCols.map((c) => ({ ...c, type: withNull(c.type, true) }));
  const relName0 = f.alias ? canon(f.alias, env.casing) : undefined;
  let residual: ((row: Row) => Value) | undefined;
  if (outer?.on) {
    // ON over the joined row: the outer columns, the subquery's keys (hidden), its columns
    const onScope = new Scope([...left.scope.cols, ...subCols.map((c, i) => ({ rel: relName0, name: c.name, type: c.type, idx: lw + k + i }))], env.casing);
    residual = bindCondition(outer.on, { scope: onScope, session: env.session, clause: 'ON' }).fn;
  }
  const spec = {
    leftOuter: outer !== undefined,
    rightOuter: false,
    leftKey: corrKey(rw.outer.map((o) => o.fn)),
    rightKey: corrKey(Array.from({ length: k }, (_x, i) => (row: Row) => row[i]!)),
    residual,
    leftWidth: lw,
    rightWidth: qw,
  };
  const joined = env.session.node({
    kind: 'join',
    inputs: [left.node, q.node],
    columns: [...left.node.columns, ...q.columns.map((c) => (outer ? { ...c, type: withNull(c.type, true) } : c))],
    make: () => new JoinOp(spec),
    join: outer ? 'LEFT' : 'INNER',
    keys: k,
    residual: residual !== undefined,
    lateral: 'subquery',
  });
  // drop the subquery's copies of the outer values
  const keep = [...Array.from({ length: lw }, (_x, i) => i), ...Array.from({ length: qw - k }, (_x, i) => lw + k + i)];
  const exprs: BExpr[] = keep.map((src) => ({ type: joined.columns[src]!.type, fn: (row) => row[src]!, colIdx: src }));
  const n = mapNode(env.session, joined, exprs, [...left.node.columns, ...subCols]);
  const relName = f.alias ? canon(f.alias, env.casing) : undefined;
  const cols: ScopeColumn[] = [...left.scope.cols, ...subCols.map((c, i) => ({ rel: relName, name: c.name, type: c.type, idx: lw + i }))];
  return { node: n, scope: new Scope(cols, env.casing) };
}

/** LEFT JOIN LATERAL over a relation with exactly one row per outer row: rows failing ON keep NULLs instead. */
function withLeftOn(rel: Rel, lw: number, env: Env, outer: LeftJoin | undefined): Rel {
  if (!outer) return rel;
  const cols = rel.scope.cols.map((c) => (c.idx >= lw ? { ...c, type: withNull(c.type, true) } : c));
  const scope = new Scope(cols, rel.scope.casing);
  if (!outer.on) return { node: rel.node, scope };
  const on = bindCondition(outer.on, { scope, session: env.session, clause: 'ON' }).fn;
  const exprs: BExpr[] = rel.node.columns.map((c, i): BExpr =>
    i < lw ? { type: c.type, fn: (row) => row[i]!, colIdx: i } : { type: withNull(c.type, true), fn: (row) => (on(row) === true ? row[i]! : null) },
  );
  const n = mapNode(
    env.session,
    rel.node,
    exprs,
    rel.node.columns.map((c, i) => (i < lw ? c : { ...c, type: withNull(c.type, true) })),
  );
  return { node: n, scope };
}

/**
 * LATERAL (VALUES (e1, ...), ...) whose expressions may read the items before it: each outer row followed by one
 * row per VALUES row, evaluated over it (a linear flat-map, as UNNEST). Column types: the common type per column.
 */
function bindLateralValues(left: Rel, f: FromItem & { k: 'derived' }, body: { rows: Expr[][]; pos: Pos }, env: Env, outer?: LeftJoin): Rel {
  const ctx: BindCtx = { scope: left.scope, session: env.session, clause: 'VALUES' };
  const rows = body.rows.map((r) => r.map((e) => bindExpr(e, ctx)));
  const width = rows[0]?.length ?? 0;
  if (rows.some((r) => r.length !== width)) throw new SqlError('Values passed to VALUES operator must have compatible types: its rows have different numbers of columns', body.pos, 'type');
  const types = Array.from({ length: width }, (_x, i) => {
    let t: SqlType | undefined = rows[0]![i]!.type;
    for (const r of rows) {
      t = commonType(t!, r[i]!.type);
      if (!t) throw new SqlError(`Incompatible types in VALUES column ${i + 1}`, body.pos, 'type');
    }
    return t!;
  });
  const fns = rows.map((r) => r.map((e, i) => coerce(e, types[i]!, body.pos).fn));
  let names = types.map((_t, i) => `EXPR$${i}`);
  if (f.columnAliases.length) {
    if (f.columnAliases.length !== width) throw new SqlError('List of column aliases must have same degree as table', f.pos, 'type');
    names = f.columnAliases.map((a) => canon(a, left.scope.casing));
  }
  const lw = left.scope.width;
  const relName = f.alias ? canon(f.alias, left.scope.casing) : undefined;
  const outTypes = outer ? types.map((t) => withNull(t, true)) : types;
  const cols: ScopeColumn[] = [...left.scope.cols, ...names.map((name, i) => ({ rel: relName, name, type: outTypes[i]!, idx: lw + i }))];
  const on = outer?.on ? bindCondition(outer.on, { scope: new Scope(cols, left.scope.casing), session: env.session, clause: 'ON' }).fn : undefined;
  const nulls = types.map(() => null);
  const expand = (row: Row): Row[] => {
    const out = fns.map((r) => row.concat(r.map((fn) => fn(row))));
    if (!outer) return out;
    const kept = on ? out.filter((r) => on(r) === true) : out;
    return kept.length ? kept : [row.concat(nulls)];
  };
  const n = env.session.node({
    kind: 'unnest',
    inputs: [left.node],
    columns: [...left.node.columns, ...names.map((name, i) => ({ name, type: outTypes[i]! }))],
    make: () => new FlatMapOp(expand),
    of: 'values',
    args: rows.length,
    ordinality: false,
  });
  return { node: n, scope: new Scope(cols, left.scope.casing) };
}

/**
 * A LATERAL subquery that aggregates without GROUP BY gives exactly one row per outer row: the aggregate over
 * the outer values' rows, grouped by those values and LEFT-joined to the outer rows, and for outer values without
 * rows the subquery's value over no rows (its text with WHERE FALSE: COUNT(*) is 0, SUM NULL), as the scalar
 * subqueries of decorrelate.ts do.
 */
function lateralAggregate(left: Rel, f: FromItem & { k: 'derived' }, rw: NonNullable<ReturnType<typeof correlatedRewrite>>, env: Env, bindQuery: QueryBinder): Rel {
  const b = rw.body;
  const k = rw.outer.length;
  if (b.having) throw new SqlError('A LATERAL subquery with an aggregate, HAVING and no GROUP BY is not supported', b.having.pos, 'unsupported');
  const mark: Expr = { k: 'bool', value: true, pos: f.pos };
  const sel: Select = {
    ...b,
    distinct: false,
    items: [...rw.dCols.map((e) => ({ k: 'expr' as const, expr: e, pos: f.pos })), { k: 'expr', expr: mark, pos: f.pos }, ...b.items],
    groupBy: [...rw.dCols],
  };
  const q = bindQuery(asQuery(sel, f.pos), rw.env);
  let empty;
  try {
    empty = emptyValue({ ...(f.query.body as Select), where: { k: 'bool', value: false, pos: f.pos } }, rw, env, bindQuery, bindQuery);
  } catch (err) {
    if (err instanceof SqlError) throw new SqlError('A LATERAL subquery with an aggregate and no GROUP BY may use outer columns only in its WHERE clause', f.pos, 'unsupported');
    throw err;
  }
  const lw = left.scope.width;
  const qw = q.columns.length;
  const m = qw - k - 1;
  const joined = env.session.node({
    kind: 'join',
    inputs: [left.node, q.node],
    columns: [...left.node.columns, ...q.columns.map((c) => ({ ...c, type: withNull(c.type, true) }))],
    make: () =>
      new JoinOp({
        leftOuter: true,
        rightOuter: false,
        leftKey: corrKey(rw.outer.map((o) => o.fn)),
        rightKey: corrKey(Array.from({ length: k }, (_x, i) => (row: Row) => row[i]!)),
        leftWidth: lw,
        rightWidth: qw,
      }),
    join: 'LEFT',
    keys: k,
    residual: false,
    lateral: 'aggregate',
  });
  const withEmpty = env.session.node({
    kind: 'join',
    inputs: [joined, empty.node],
    columns: [...joined.columns, ...empty.columns],
    make: () => new JoinOp({ leftOuter: false, rightOuter: false, leftKey: () => '', rightKey: () => '', leftWidth: lw + qw, rightWidth: m }),
    join: 'CROSS',
    keys: 0,
    residual: false,
  });
  const markIdx = lw + k;
  let subCols = q.columns.slice(k + 1).map((c, i) => ({ ...c, type: withNull(c.type, c.type.nullable || empty.columns[i]!.type.nullable) }));
  if (f.columnAliases.length) {
    if (f.columnAliases.length !== subCols.length) throw new SqlError('List of column aliases must have same degree as table', f.pos, 'type');
    subCols = subCols.map((c, i) => ({ ...c, name: canon(f.columnAliases[i]!, env.casing) }));
  }
  const exprs: BExpr[] = [
    ...Array.from({ length: lw }, (_x, i): BExpr => ({ type: left.node.columns[i]!.type, fn: (row) => row[i]!, colIdx: i })),
    ...subCols.map((c, i): BExpr => {
      const matched = markIdx + 1 + i;
      const fallback = lw + qw + i;
      return { type: c.type, fn: (row) => (row[markIdx] !== null ? row[matched]! : row[fallback]!) };
    }),
  ];
  const n = mapNode(env.session, withEmpty, exprs, [...left.node.columns, ...subCols]);
  const relName = f.alias ? canon(f.alias, env.casing) : undefined;
  const cols: ScopeColumn[] = [...left.scope.cols, ...subCols.map((c, i) => ({ rel: relName, name: c.name, type: c.type, idx: lw + i }))];
  return { node: n, scope: new Scope(cols, env.casing) };
}

/** Every column reference anywhere in a FROM item (subqueries included). */
function columnRefs(f: LateralItem): Array<Expr & { k: 'col' }> {
  const out: Array<Expr & { k: 'col' }> = [];
  if (f.k === 'unnest') {
    for (const e of f.exprs) walkExpr(e, (x) => void (x.k === 'col' && out.push(x)));
    return out;
  }
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      if ((v as { k?: string }).k === 'col' && Array.isArray((v as { parts?: unknown }).parts)) out.push(v as Expr & { k: 'col' });
      else Object.values(v).forEach(visit);
    }
  };
  visit(f.query);
  return out;
}

interface Unit {
  rel: Rel;
  /** The FROM items this unit holds, in the order of its columns. */
  members: number[];
}

/**
 * A comma-separated FROM list with lateral items: each lateral item is merged into the units (items, or items
 * already merged) it reads; `plan` joins the units (from.ts's planner); the result is put back in FROM order.
 */
export function bindLateralList(items: FromItem[], env: Env, bindQuery: QueryBinder, plan: (rels: Rel[], positions: Pos[]) => Rel): Rel {
  const units: Unit[] = [];
  const widths: number[] = [];
  for (const [i, it] of items.entries()) {
    if (!isLateral(it)) {
      const rel = env.binders.bindFromItem(it, env, bindQuery);
      widths[i] = rel.scope.width;
      units.push({ rel, members: [i] });
      continue;
    }
    const refs = columnRefs(it);
    const reads = units
      .map((u, ui) => ({ u, ui }))
      .filter(({ u }) =>
        refs.some((r) => {
          try {
            return u.rel.scope.tryResolvePath(r.parts, r.pos) !== undefined; // t.rowcol.field reads t too
          } catch {
            return true; // ambiguous there: it reads that unit
          }
        }),
      );
    if (reads.length === 0) {
      const rel = applyLateral(undefined, it, env, bindQuery);
      widths[i] = rel.scope.width;
      units.push({ rel, members: [i] });
      continue;
    }
    let base = reads[0]!.u.rel;
    const members = [...reads[0]!.u.members];
    for (const { u } of reads.slice(1)) {
      base = joinRels(base, u.rel, 'CROSS', undefined, env, it.pos);
      members.push(...u.members);
    }
    const rel = applyLateral(base, it, env, bindQuery);
    widths[i] = rel.scope.width - base.scope.width;
    const at = reads[0]!.ui;
    for (const { ui } of reads.slice(1).reverse()) units.splice(ui, 1);
    units[at] = { rel, members: [...members, i] };
  }
  const rel = plan(
    units.map((u) => u.rel),
    units.map((u) => items[u.members[0]!]!.pos),
  );
  // columns are in unit order; put them in FROM order
  const order = units.flatMap((u) => u.members);
  if (order.every((m, i) => m === i)) return rel;
  const startNow: number[] = [];
  let w = 0;
  for (const m of order) {
    startNow[m] = w;
    w += widths[m]!;
  }
  const perm: number[] = [];
  items.forEach((_it, i) => {
    for (let c = 0; c < widths[i]!; c++) perm.push(startNow[i]! + c);
  });
  const newIdx = new Map(perm.map((src, dst) => [src, dst]));
  const exprs: BExpr[] = perm.map((src) => ({ type: rel.node.columns[src]!.type, fn: (row) => row[src]!, colIdx: src }));
  const n = mapNode(
    env.session,
    rel.node,
    exprs,
    perm.map((src) => rel.node.columns[src]!),
  );
  const cols = rel.scope.cols.map((c) => ({ ...c, idx: newIdx.get(c.idx)! })).sort((a, b) => a.idx - b.idx);
  return { node: n, scope: new Scope(cols, env.casing) };
}
