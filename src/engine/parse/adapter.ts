/**
 * Adapter from @guanmingchiu/sqlparser-ts (datafusion-sqlparser-rs 0.62 in WASM, generic dialect) to our own AST.
 * The parser's JSON is a serde encoding of Rust enums: each node is `{Variant: payload}` or a bare string.
 * The package's bundled TypeScript types do not match that JSON, so this module treats it as `any`, narrowly.
 */
import { parseSql } from './wasm-parser.js';
import { rewriteLongChains } from './chains.js';
import type { Expr, FromItem, Ident, OrderItem, Pos, Query, SelectItem, SetBody, Statement, WindowSpec, FrameBound, ColumnDef } from './ast.js';
import { SqlError } from './ast.js';
import { PERIOD_OPERATORS } from './prepass.js';

/** Parser operator name -> period predicate, for the operators the pre-pass writes (prepass.ts PERIOD_OPERATORS). */
const OPERATOR_NAMES: Record<string, string> = { '@>': 'AtArrow', '@@': 'AtAt', '<<': 'PGBitwiseShiftLeft', '>>': 'PGBitwiseShiftRight', '<@': 'ArrowAt', '@?': 'AtQuestion' };
const PERIOD_BY_OPERATOR: Record<string, string> = Object.fromEntries(Object.entries(PERIOD_OPERATORS).map(([name, sym]) => [OPERATOR_NAMES[sym]!, name]));

/* eslint-disable @typescript-eslint/no-explicit-any */
type J = any;

function variant(o: J): [string, J] {
  if (typeof o === 'string') return [o, undefined];
  if (o === null || o === undefined) return ['', undefined];
  const k = Object.keys(o)[0]!;
  return [k, o[k]];
}

/** First source position found in a parser subtree. */
function findPos(o: J, depth = 0): Pos | undefined {
  if (o === null || typeof o !== 'object' || depth > 30) return undefined;
  if (o.span && o.span.start && o.span.start.line > 0) return { line: o.span.start.line, column: o.span.start.column };
  for (const k of Object.keys(o)) {
    if (k === 'span') continue;
    const p = findPos(o[k], depth + 1);
    if (p) return p;
  }
  return undefined;
}

/** The parser's one-operand IS tests and what each tests. */
const IS_TESTS = new Map<string, Extract<Expr, { k: 'is' }>['what']>([
  ['IsNull', 'NULL'],
  ['IsNotNull', 'NOT NULL'],
  ['IsUnknown', 'UNKNOWN'],
  ['IsNotUnknown', 'NOT UNKNOWN'],
  ['IsTrue', 'TRUE'],
  ['IsNotTrue', 'NOT TRUE'],
  ['IsFalse', 'FALSE'],
  ['IsNotFalse', 'NOT FALSE'],
]);

export class Adapter {
  /**
   * `renamed`: the pre-pass's placeholders for words the parser reserves (PreStatement.renamed); `leftAsof`:
   * where (from, to: end exclusive) the MATCH_CONDITION of each LEFT ASOF JOIN is written (PreStatement.leftAsof).
   */
  constructor(
    private readonly fallback: Pos,
    private readonly renamed?: ReadonlyMap<string, string>,
    private readonly leftAsof?: ReadonlyArray<[Pos, Pos]>,
  ) {}

  pos(o: J): Pos {
    return findPos(o) ?? this.fallback;
  }

  ident(o: J): Ident {
    const word = this.renamed?.get(o.value);
    if (word !== undefined && (o.quote_style === undefined || o.quote_style === null)) return { value: word, quoted: false, pos: this.pos(o) };
    return { value: o.value, quoted: o.quote_style !== undefined && o.quote_style !== null, pos: this.pos(o) };
  }

  objectName(parts: J[]): Ident[] {
    return parts.map((p: J) => {
      const [k, v] = variant(p);
      if (k === 'Identifier') return this.ident(v);
      throw new SqlError('unsupported object name', this.pos(p));
    });
  }

  unsupported(what: string, o: J): never {
    throw new SqlError(`${what} is not supported`, this.pos(o), 'unsupported');
  }

  statement(o: J, local: boolean): Statement {
    const [k, v] = variant(o);
    if (k === 'CreateTable') return this.createTable(v);
    if (k === 'CreateView') {
      const name = this.objectName(v.name);
      if (name.length !== 1) this.unsupported('a qualified view name', v.name);
      return {
        k: 'createView',
        name: name[0]!,
        columns: (v.columns ?? []).map((c: J) => this.ident(c.name)),
        materialized: !!v.materialized,
        local,
        query: this.query(v.query),
        options: this.sqlOptions(v.options),
        pos: name[0]!.pos,
      };
    }
    if (k === 'Query') throw new SqlError('a bare query is not a program statement: use CREATE VIEW name AS ...', this.pos(v), 'unsupported');
    throw new SqlError(`statement ${k} is not supported`, this.pos(v), 'unsupported');
  }

  sqlOptions(o: J): { key: string; value: string; pos: Pos }[] {
    const out: { key: string; value: string; pos: Pos }[] = [];
    if (!o || typeof o !== 'object') return out;
    const [k, v] = variant(o);
    const list: J[] = k === 'With' || k === 'Options' ? v : Array.isArray(o) ? o : [];
    for (const item of list) {
      const [ik, iv] = variant(item);
      if (ik !== 'KeyValue') continue;
      const key = iv.key.value as string;
      const [vk, vv] = variant(iv.value);
      let value = '';
      if (vk === 'Value') {
        const [lk, lv] = variant(vv.value);
        value = lk === 'SingleQuotedString' || lk === 'DoubleQuotedString' ? lv : String(Array.isArray(lv) ? lv[0] : lv);
      } else if (vk === 'Identifier') value = vv.value;
      out.push({ key, value, pos: findPos(iv.value) ?? this.pos(iv.key) });
    }
    return out;
  }

  createTable(v: J): Statement {
    const name = this.objectName(v.name);
    if (name.length !== 1) this.unsupported('a qualified table name', v.name);
    const primaryKey: Ident[] = [];
    const columns: ColumnDef[] = (v.columns ?? []).map((c: J) => {
      let notNull = false;
      let pk = false;
      for (const opt of c.options ?? []) {
        const [ok, ov] = variant(opt.option);
        if (ok === 'NotNull') notNull = true;
        else if (ok === 'PrimaryKey' || (ok === 'Unique' && ov?.is_primary)) pk = true;
        else if (ok === 'Null' || ok === 'ForeignKey' || ok === 'Comment') {
          /* accepted, no effect */
        } else this.unsupported(`column option ${ok}`, opt);
      }
      const col: ColumnDef = { name: this.ident(c.name), type: c.data_type, notNull, primaryKey: pk, pos: this.pos(c.name) };
      if (pk) primaryKey.push(col.name);
      return col;
    });
    for (const con of v.constraints ?? []) {
      const [ck, cv] = variant(con);
      if (ck === 'PrimaryKey') {
        for (const c of cv.columns) {
          const [ek, ev] = variant(c.column.expr);
          if (ek !== 'Identifier') this.unsupported('PRIMARY KEY on an expression', c);
          primaryKey.push(this.ident(ev));
        }
      } else if (ck === 'ForeignKey') {
        /* accepted, not enforced (as Feldera) */
      } else this.unsupported(`table constraint ${ck}`, con);
    }
    return { k: 'createTable', name: name[0]!, columns, primaryKey, options: this.sqlOptions(v.table_options), pos: name[0]!.pos };
  }

  query(q: J): Query {
    const pos = this.pos(q);
    const ctes = q.with ? q.with.cte_tables.map((c: J) => ({ name: this.ident(c.alias.name), columns: (c.alias.columns ?? []).map((x: J) => this.ident(x.name)), query: this.query(c.query) })) : [];
    if (q.with?.recursive) this.unsupported('WITH RECURSIVE', q.with);
    const orderBy: OrderItem[] = [];
    if (q.order_by) {
      const [ok, ov] = variant(q.order_by.kind);
      if (ok !== 'Expressions') this.unsupported('ORDER BY ALL', q.order_by);
      for (const item of ov) orderBy.push(this.orderItem(item));
    }
    let limit: Expr | undefined;
    let offset: Expr | undefined;
    if (q.limit_clause) {
      const [lk, lv] = variant(q.limit_clause);
      if (lk === 'LimitOffset') {
        if (lv.limit) limit = this.expr(lv.limit);
        if (lv.offset) offset = this.expr(lv.offset.value);
      } else this.unsupported('this LIMIT form', q.limit_clause);
    }
    if (q.fetch) this.unsupported('FETCH', q.fetch);
    return { with: ctes, body: this.setBody(q.body), orderBy, limit, offset, pos };
  }

  orderItem(item: J): OrderItem {
    const o: OrderItem = { expr: this.expr(item.expr), asc: item.options?.asc !== false };
    if (item.options?.nulls_first !== undefined && item.options?.nulls_first !== null) o.nullsFirst = item.options.nulls_first;
    return o;
  }

  setBody(b: J): SetBody {
    const [k, v] = variant(b);
    const pos = this.pos(v);
    switch (k) {
      case 'Select':
        return this.select(v);
      case 'Query':
        return { k: 'query', query: this.query(v), pos };
      case 'SetOperation': {
        const written = String(v.op).toUpperCase();
        const op = written === 'MINUS' ? 'EXCEPT' : written; // MINUS is EXCEPT (Calcite)
        if (op !== 'UNION' && op !== 'EXCEPT' && op !== 'INTERSECT') this.unsupported(`set operation ${v.op}`, v);
        const q = String(v.set_quantifier);
        if (q !== 'None' && q !== 'All' && q !== 'Distinct') this.unsupported(`${op} ${q}`, v);
        return { k: 'setop', op: op as 'UNION', all: q === 'All', left: this.setBody(v.left), right: this.setBody(v.right), pos };
      }
      case 'Values':
        return { k: 'values', rows: v.rows.map((r: J) => (r.content ?? r).map((e: J) => this.expr(e))), pos };
      default:
        this.unsupported(k, v);
    }
  }

  select(s: J): SetBody {
    const pos = this.pos(s);
    if (s.distinct && s.distinct !== 'Distinct' && s.distinct !== 'All') this.unsupported('DISTINCT ON', s);
    if (s.top || s.into || s.prewhere || (s.lateral_views ?? []).length || (s.named_window ?? []).length || (s.cluster_by ?? []).length || (s.sort_by ?? []).length) {
      this.unsupported('this SELECT clause', s);
    }
    const items: SelectItem[] = s.projection.map((p: J) => this.selectItem(p));
    const from: FromItem[] = s.from.map((f: J) => this.tableWithJoins(f));
    const [gk, gv] = variant(s.group_by);
    let groupBy: Expr[] = [];
    let groupingSets: Expr[][] | undefined;
    if (gk === 'Expressions') {
      if (gv[1] && gv[1].length) this.unsupported('GROUP BY modifiers', s.group_by);
      const elems: J[] = gv[0];
      if (elems.some((e) => ['Rollup', 'Cube', 'GroupingSets'].includes(variant(e)[0]))) {
        // each element is a list of alternative sets; the grouping sets are their cross product
        let sets: Expr[][] = [[]];
        for (const el of elems) {
          const [ek, ev] = variant(el);
          const groups: Expr[][] = ek === 'Rollup' || ek === 'Cube' || ek === 'GroupingSets' ? (ev as J[][]).map((g) => g.map((x) => this.expr(x))) : [[this.expr(el)]];
          let alts: Expr[][];
          if (ek === 'Rollup') alts = groups.map((_g, i) => groups.slice(0, groups.length - i).flat()).concat([[]]);
          else if (ek === 'Cube') {
            alts = [];
            for (let m = (1 << groups.length) - 1; m >= 0; m--) alts.push(groups.filter((_g, i) => m & (1 << (groups.length - 1 - i))).flat());
          } else alts = groups;
          sets = sets.flatMap((a) => alts.map((b) => [...a, ...b]));
        }
        if (sets.length > 256) this.unsupported('more than 256 grouping sets', s.group_by);
        groupingSets = sets;
        groupBy = sets.flat();
      } else groupBy = elems.map((e: J) => this.expr(e));
    } else if (gk === 'All') this.unsupported('GROUP BY ALL', s.group_by);
    return {
      ...(groupingSets ? { groupingSets } : {}),
      k: 'select',
      distinct: s.distinct === 'Distinct',
      items,
      from,
      where: s.selection ? this.expr(s.selection) : undefined,
      groupBy,
      having: s.having ? this.expr(s.having) : undefined,
      qualify: s.qualify ? this.expr(s.qualify) : undefined,
      pos,
    };
  }

  selectItem(p: J): SelectItem {
    const [k, v] = variant(p);
    switch (k) {
      case 'UnnamedExpr':
        return { k: 'expr', expr: this.expr(v), pos: this.pos(v) };
      case 'ExprWithAlias':
        return { k: 'expr', expr: this.expr(v.expr), alias: this.ident(v.alias), pos: this.pos(v.expr) };
      case 'Wildcard':
        this.checkWildcard(v);
        return { k: 'star', pos: this.pos(v) };
      case 'QualifiedWildcard': {
        const [qk, qv] = variant(v[0]);
        if (qk !== 'ObjectName') this.unsupported('this wildcard', v);
        this.checkWildcard(v[1]);
        return { k: 'star', qualifier: this.objectName(qv), pos: this.pos(v) };
      }
      default:
        this.unsupported(`select item ${k}`, v);
    }
  }

  checkWildcard(w: J): void {
    if (w && (w.opt_exclude || w.opt_except || w.opt_replace || w.opt_rename || w.opt_ilike)) this.unsupported('wildcard options', w);
  }

  alias(a: J): { alias?: Ident; columns: Ident[] } {
    if (!a) return { columns: [] };
    return { alias: this.ident(a.name), columns: (a.columns ?? []).map((c: J) => this.ident(c.name)) };
  }

  tableWithJoins(f: J): FromItem {
    let left = this.tableFactor(f.relation);
    for (const j of f.joins ?? []) {
      const right = this.tableFactor(j.relation);
      const [ok, ov] = variant(j.join_operator);
      let kind: FromItem & { k: 'join' } extends { kind: infer K } ? K : never;
      switch (ok) {
        case 'Join':
        case 'Inner':
          kind = 'INNER';
          break;
        case 'Left':
        case 'LeftOuter':
          kind = 'LEFT';
          break;
        case 'Right':
        case 'RightOuter':
          kind = 'RIGHT';
          break;
        case 'FullOuter':
          kind = 'FULL';
          break;
        case 'CrossJoin':
        case 'CrossApply':
          kind = 'CROSS';
          break;
        case 'AsOf': {
          const at = this.pos(ov.match_condition);
          const before = (a: Pos, b: Pos): boolean => a.line < b.line || (a.line === b.line && a.column < b.column);
          kind = this.leftAsof?.some(([from, to]) => !before(at, from) && before(at, to)) ? 'LEFT' : 'INNER';
          break;
        }
        case 'OuterApply':
          this.unsupported('OUTER APPLY (as in Feldera; UNNEST(COALESCE(arr, ARRAY[NULL])) keeps the rows whose array is NULL)', j);
        // falls through (unreachable)
        default:
          this.unsupported(`${ok} join`, j);
      }
      const pos = this.pos(j.relation);
      if (ok === 'AsOf') {
        const match = this.expr(ov.match_condition);
        const [ck, cv] = variant(ov.constraint);
        if (ck !== 'On') this.unsupported('an ASOF JOIN without ON', j);
        left = { k: 'join', kind, left, right, on: this.expr(cv), asof: match, pos };
        continue;
      }
      if (kind === 'CROSS') {
        left = { k: 'join', kind, left, right, pos };
        continue;
      }
      const [ck, cv] = variant(ov);
      if (ck === 'On') left = { k: 'join', kind, left, right, on: this.expr(cv), pos };
      else if (ck === 'Using') left = { k: 'join', kind, left, right, using: cv.map((n: J) => this.objectName(n)[0]!), pos };
      else if (ck === 'Natural') left = { k: 'join', kind, left, right, natural: true, pos };
      else if (ck === 'None') left = { k: 'join', kind, left, right, pos };
      else this.unsupported(`join constraint ${ck}`, j);
    }
    return left;
  }

  tableFactor(t: J): FromItem {
    const [k, v] = variant(t);
    switch (k) {
      case 'Table': {
        if (v.args) {
          // TUMBLE(...) / HOP(...) written directly as a table function call in FROM
          const name = this.objectName(v.name);
          const args = (v.args.args ?? []).map((a: J) => this.funcArg(a));
          return {
            k: 'tvf',
            name: name
              .map((n) => n.value)
              .join('.')
              .toUpperCase(),
            args,
            alias: this.alias(v.alias).alias,
            pos: name[0]!.pos,
          };
        }
        const name = this.objectName(v.name);
        const a = this.alias(v.alias);
        if (a.columns.length) this.unsupported('column aliases on a table', v.alias);
        return { k: 'table', name, alias: a.alias, pos: name[0]!.pos };
      }
      case 'Derived': {
        const a = this.alias(v.alias);
        return { k: 'derived', query: this.query(v.subquery), alias: a.alias, columnAliases: a.columns, ...(v.lateral ? { lateral: true } : {}), pos: this.pos(v) };
      }
      case 'UNNEST': {
        if (v.with_offset) this.unsupported('UNNEST WITH OFFSET', v);
        const a = this.alias(v.alias);
        const exprs: Expr[] = v.array_exprs.map((x: J) => this.expr(x));
        return { k: 'unnest', exprs, ordinality: Boolean(v.with_ordinality), alias: a.alias, columnAliases: a.columns, pos: exprs[0]?.pos ?? this.pos(v) };
      }
      case 'TableFunction': {
        const [fk, fv] = variant(v.expr);
        if (fk !== 'Function') this.unsupported('this table function', v);
        const f = this.expr(v.expr);
        if (f.k !== 'func') this.unsupported('this table function', v);
        void fv;
        return { k: 'tvf', name: f.name, args: f.args, alias: this.alias(v.alias).alias, pos: f.pos };
      }
      case 'NestedJoin':
        return this.tableWithJoins(v.table_with_joins);
      case 'Pivot': {
        if (v.default_on_null) this.unsupported('PIVOT DEFAULT ON NULL', v);
        const [sk, sv] = variant(v.value_source);
        if (sk !== 'List') this.unsupported(`PIVOT ... IN (${sk === 'Any' ? 'ANY' : 'a subquery'})`, v);
        const a = this.alias(v.alias);
        const values = (sv as J[]).map((item: J) => {
          const [ek, ev] = variant(item.expr);
          const exprs: Expr[] = ek === 'Tuple' ? ev.map((x: J) => this.expr(x)) : [this.expr(item.expr)];
          const [lk, lv] = ek === 'Value' ? variant(ev.value) : ['', undefined];
          const text = lk === 'SingleQuotedString' ? `'${String(lv).replace(/'/g, "''")}'` : lk === 'Number' ? String(lv[0]) : undefined;
          return { exprs, ...(item.alias ? { alias: this.ident(item.alias) } : {}), ...(text !== undefined ? { text } : {}) };
        });
        return {
          k: 'pivot',
          source: this.tableFactor(v.table),
          aggs: v.aggregate_functions.map((f: J) => ({ expr: this.expr(f.expr), ...(f.alias ? { alias: this.ident(f.alias) } : {}) })),
          forCols: v.value_column.map((c: J) => this.expr(c)),
          values,
          alias: a.alias,
          columnAliases: a.columns,
          pos: this.pos(v),
        };
      }
      default:
        this.unsupported(`FROM item ${k}`, v);
    }
  }

  funcArg(a: J): Expr {
    const [k, v] = variant(a);
    if (k === 'Unnamed' || k === 'Named' || k === 'ExprNamed') {
      const arg = k === 'Unnamed' ? v : v.arg;
      const [ak, av] = variant(arg);
      if (ak === 'Expr') return this.expr(av);
      if (ak === 'Wildcard') return { k: 'col', parts: [{ value: '*', quoted: false, pos: this.pos(a) }], pos: this.pos(a) };
      this.unsupported(`function argument ${ak}`, a);
    }
    this.unsupported(`function argument ${k}`, a);
  }

  windowSpec(o: J): WindowSpec {
    const [k, v] = variant(o);
    if (k !== 'WindowSpec') this.unsupported('named windows', o);
    const spec: WindowSpec = { partitionBy: (v.partition_by ?? []).map((e: J) => this.expr(e)), orderBy: (v.order_by ?? []).map((e: J) => this.orderItem(e)) };
    if (v.window_frame) {
      const f = v.window_frame;
      spec.frame = {
        units: String(f.units).toUpperCase() === 'ROWS' ? 'ROWS' : 'RANGE',
        start: this.bound(f.start_bound, true),
        end: f.end_bound ? this.bound(f.end_bound, false) : { kind: 'CURRENT' },
      };
      if (String(f.units).toUpperCase() === 'GROUPS') this.unsupported('GROUPS frames', f);
    }
    return spec;
  }

  bound(b: J, isStart: boolean): FrameBound {
    const [k, v] = variant(b);
    if (k === 'CurrentRow') return { kind: 'CURRENT' };
    if (k === 'Preceding') return v ? { kind: 'PRECEDING', offset: this.expr(v) } : { kind: 'UNBOUNDED_PRECEDING' };
    if (k === 'Following') return v ? { kind: 'FOLLOWING', offset: this.expr(v) } : { kind: 'UNBOUNDED_FOLLOWING' };
    void isStart;
    this.unsupported(`window bound ${k}`, b);
  }

  expr(e: J): Expr {
    const [k, v] = variant(e);
    const pos = this.pos(e);
    const test = IS_TESTS.get(k);
    if (test !== undefined) return { k: 'is', what: test, expr: this.expr(v), pos };
    switch (k) {
      case 'Identifier':
        return { k: 'col', parts: [this.ident(v)], pos };
      case 'CompoundIdentifier':
        return { k: 'col', parts: v.map((i: J) => this.ident(i)), pos };
      case 'Value':
        return this.literal(v, e, pos);
      case 'TypedString': {
        const [lk, lv] = variant(v.value.value ?? v.value);
        if (lk !== 'SingleQuotedString') this.unsupported('this typed literal', e);
        return { k: 'typed', type: v.data_type, value: lv, pos };
      }
      case 'Interval': {
        if (v.leading_precision || v.fractional_seconds_precision) this.unsupported('interval precision', e);
        return { k: 'interval', value: this.expr(v.value), unit: String(v.leading_field ?? 'Second').toUpperCase(), lastUnit: v.last_field ? String(v.last_field).toUpperCase() : undefined, pos };
      }
      case 'BinaryOp':
        return this.binaryOp(v, e);
      case 'UnaryOp': {
        const op = String(v.op);
        return { k: 'un', op: op === 'Not' ? 'NOT' : op === 'Minus' ? 'NEG' : op === 'Plus' ? 'PLUS' : this.unsupported(`operator ${op}`, e), expr: this.expr(v.expr), pos };
      }
      case 'Nested':
        return this.expr(v);
      case 'Tuple':
        // (x, y, ...) is ROW(x, y, ...) where not part of another form (Feldera's types.md)
        return { k: 'func', name: 'ROW', args: (v as J[]).map((x) => this.expr(x)), star: false, distinct: false, pos };
      case 'IsDistinctFrom':
        return { k: 'is', what: 'DISTINCT', expr: this.expr(v[0]), other: this.expr(v[1]), pos };
      case 'IsNotDistinctFrom':
        return { k: 'is', what: 'NOT DISTINCT', expr: this.expr(v[0]), other: this.expr(v[1]), pos };
      case 'Between':
        return this.between(v, pos);
      case 'InList':
        return { k: 'inlist', not: !!v.negated, expr: this.expr(v.expr), list: v.list.map((x: J) => this.expr(x)), pos };
      case 'InSubquery':
        return { k: 'insub', not: !!v.negated, expr: this.expr(v.expr), query: this.query(v.subquery), pos };
      case 'Exists':
        return { k: 'exists', not: !!v.negated, query: this.query(v.subquery), pos };
      case 'Subquery':
        return { k: 'subquery', query: this.query(v), pos };
      case 'Like':
      case 'ILike':
        return this.like(k, v, e, pos);
      case 'Case':
        return {
          k: 'case',
          operand: v.operand ? this.expr(v.operand) : undefined,
          whens: v.conditions.map((c: J) => ({ cond: this.expr(c.condition), result: this.expr(c.result) })),
          else: v.else_result ? this.expr(v.else_result) : undefined,
          pos,
        };
      case 'Cast':
        return this.cast(v, e, pos);
      case 'Extract':
        return { k: 'extract', field: String(typeof v.field === 'string' ? v.field : variant(v.field)[0]).toUpperCase(), expr: this.expr(v.expr), pos };
      case 'Function':
        return this.func(v, pos);
      case 'Substring':
      case 'Trim':
      case 'RLike':
      case 'Overlay':
      case 'Position':
      case 'Ceil':
      case 'Floor':
        return this.functionForm(k, v, e, pos);
      case 'Array':
        return { k: 'array', elems: v.elem.map((x: J) => this.expr(x)), pos };
      case 'CompoundFieldAccess':
        return this.fieldAccess(v, e, pos);
      default:
        this.unsupported(`expression ${k}`, e);
    }
  }

  /** A literal value: number, string, boolean, NULL, hex string. */
  literal(v: J, e: J, pos: Pos): Expr {
    const [lk, lv] = variant(v.value);
    switch (lk) {
      case 'Number':
        return { k: 'num', text: lv[0], pos };
      case 'SingleQuotedString':
      case 'EscapedStringLiteral':
      case 'NationalStringLiteral':
        return { k: 'str', value: lv, pos };
      case 'Boolean':
        return { k: 'bool', value: lv, pos };
      case 'Null':
        return { k: 'null', pos };
      case 'HexStringLiteral':
        return { k: 'typed', type: { Varbinary: null }, value: lv, pos };
      default:
        this.unsupported(`literal ${lk}`, e);
    }
  }

  /** A binary operator; `<=>`, the period predicates (after the pre-pass) and a lambda `x -> body` among them. */
  binaryOp(v: J, e: J): Expr {
    const op = String(v.op);
    // a <=> b: NULL-safe equality
    if (op === 'Spaceship') return { k: 'is', what: 'NOT DISTINCT', expr: this.expr(v.left), other: this.expr(v.right), pos: this.pos(v.left) };
    // period predicates: (s1, e1) OVERLAPS (s2, e2); the others as the pre-pass wrote them (PERIOD_OPERATORS)
    const period = op === 'Overlaps' ? 'OVERLAPS' : PERIOD_BY_OPERATOR[op];
    const [lk, lv] = variant(v.left);
    if (period && (op === 'Overlaps' || (lk === 'Tuple' && lv.length === 2))) {
      const [rk, rv] = variant(v.right);
      const pointOk = period === 'CONTAINS' && rk !== 'Tuple';
      if (lk !== 'Tuple' || lv.length !== 2 || (!pointOk && (rk !== 'Tuple' || rv.length !== 2)))
        this.unsupported(`${period} of anything but (start, end) pairs${period === 'CONTAINS' ? ' or a pair and a value' : ''}`, e);
      const right: J[] = rk === 'Tuple' ? rv : [v.right];
      return { k: 'func', name: period, args: [...lv, ...right].map((x: J) => this.expr(x)), star: false, distinct: false, pos: this.pos(v.left) };
    }
    // x -> body: a lambda (TRANSFORM, ARRAY_EXISTS)
    if (op === 'Arrow') {
      const [pk, pv] = variant(v.left);
      const names: J[] = pk === 'Tuple' ? pv : [v.left];
      const params = names.map((n) => {
        const [nk, nv] = variant(n);
        if (nk !== 'Identifier') this.unsupported('a lambda whose parameter is not a name', e);
        return { value: nv.value as string, quoted: Boolean(nv.quote_style), pos: this.pos(v.left) };
      });
      return { k: 'lambda', params, body: this.expr(v.right), pos: this.pos(v.left) };
    }
    const left = this.expr(v.left);
    // the parser binds `->` tighter than AND/OR/=: `(p, x) -> a OR b` arrives as `((p, x) -> a) OR b`
    if (left.k === 'lambda') return { ...left, body: { k: 'bin', op, left: left.body, right: this.expr(v.right), pos: left.body.pos } };
    return { k: 'bin', op, left, right: this.expr(v.right), pos: this.pos(v.left) };
  }

  /** BETWEEN [SYMMETRIC]: the pre-pass wrote SYMMETRIC's low bound as the marker call SYMMETRIC(a). */
  between(v: J, pos: Pos): Expr {
    // BETWEEN SYMMETRIC a: the pre-pass wrote it as the marker call SYMMETRIC(a)
    const [lk, lv] = variant(v.low);
    const marker = lk === 'Function' && lv.name?.length === 1 && String(variant(lv.name[0])[1]?.value).toUpperCase() === 'SYMMETRIC' && lv.args?.List?.args?.length === 1;
    const low = marker ? this.funcArg(lv.args.List.args[0]) : this.expr(v.low);
    return { k: 'between', not: !!v.negated, ...(marker ? { symmetric: true } : {}), expr: this.expr(v.expr), low, high: this.expr(v.high), pos };
  }

  /** [NOT] LIKE / ILIKE [ESCAPE c]. */
  like(k: string, v: J, e: J, pos: Pos): Expr {
    if (v.any) this.unsupported('LIKE ANY', e);
    let escape: string | undefined;
    if (v.escape_char) {
      const [ek, ev] = variant(v.escape_char.value ?? v.escape_char); // a value with its span in this parser's version
      escape = ek === 'SingleQuotedString' ? ev : typeof v.escape_char === 'string' ? v.escape_char : undefined;
    }
    return { k: 'like', not: !!v.negated, ilike: k === 'ILike', expr: this.expr(v.expr), pattern: this.expr(v.pattern), escape, pos };
  }

  /** CAST, SAFE_CAST and `::`. */
  cast(v: J, e: J, pos: Pos): Expr {
    if (v.format) this.unsupported('CAST FORMAT', e);
    // SAFE_CAST is CAST here: a CAST that fails at run time already gives NULL
    if (v.kind && v.kind !== 'Cast' && v.kind !== 'SafeCast' && v.kind !== 'DoubleColon') this.unsupported(`${String(v.kind)}`, e);
    const type = v.array ? { Array: { SquareBracket: [v.data_type, undefined] } } : v.data_type;
    return { k: 'cast', expr: this.expr(v.expr), type, pos };
  }

  /** The functions SQL writes with their own syntax (SUBSTRING ... FROM, TRIM, OVERLAY, POSITION ... IN, FLOOR ... TO) as calls. */
  functionForm(k: string, v: J, e: J, pos: Pos): Expr {
    switch (k) {
      case 'Substring': {
        const args = [this.expr(v.expr)];
        if (v.substring_from) args.push(this.expr(v.substring_from));
        else args.push({ k: 'num', text: '1', pos });
        if (v.substring_for) args.push(this.expr(v.substring_for));
        return { k: 'func', name: 'SUBSTRING', args, star: false, distinct: false, pos };
      }
      case 'Trim': {
        const where = v.trim_where ? String(v.trim_where).toUpperCase() : 'BOTH';
        const args: Expr[] = [{ k: 'str', value: where, pos }, this.expr(v.expr)];
        if (v.trim_what) args.push(this.expr(v.trim_what));
        if (v.trim_characters) this.unsupported('TRIM with a character list', e);
        return { k: 'func', name: 'TRIM', args, star: false, distinct: false, pos };
      }
      case 'RLike': {
        const call: Expr = { k: 'func', name: 'RLIKE', args: [this.expr(v.expr), this.expr(v.pattern)], star: false, distinct: false, pos };
        return v.negated ? { k: 'un', op: 'NOT', expr: call, pos } : call;
      }
      case 'Overlay': {
        const args = [this.expr(v.expr), this.expr(v.overlay_what), this.expr(v.overlay_from)];
        if (v.overlay_for) args.push(this.expr(v.overlay_for));
        return { k: 'func', name: 'OVERLAY', args, star: false, distinct: false, pos };
      }
      case 'Position':
        return { k: 'func', name: 'POSITION', args: [this.expr(v.expr), this.expr(v.in)], star: false, distinct: false, pos };
      case 'Ceil':
      case 'Floor': {
        const [fk, fv] = variant(v.field);
        // FLOOR(x TO unit) / CEIL(x TO unit) on datetimes (fns/floor-ceil-to.ts)
        const unit = fk === 'DateTimeField' ? (typeof fv === 'string' ? fv : fv && typeof fv === 'object' ? Object.keys(fv)[0] : undefined) : undefined; // WEEK arrives as { Week: null }
        if (unit && unit !== 'NoDateTime')
          return { k: 'func', name: `${k.toUpperCase()}$TO`, args: [this.expr(v.expr), { k: 'str', value: unit.toUpperCase(), pos }], star: false, distinct: false, pos };
        if (fk && fk !== 'NoDateTime' && !(fk === 'DateTimeField' && fv === 'NoDateTime')) this.unsupported(`${k.toUpperCase()} with a field`, e);
        return { k: 'func', name: k.toUpperCase(), args: [this.expr(v.expr)], star: false, distinct: false, pos };
      }
      default:
        this.unsupported(`expression ${k}`, e);
    }
  }

  /** `a.b.c`, `x[i]`, `(r).f` chains: dotted names after a bare name stay one name, the rest are field and index accesses. */
  fieldAccess(v: J, e: J, pos: Pos): Expr {
    let cur = this.expr(v.root);
    // `t.c.f[2]`: leading dotted names after a bare name stay one name (the binder finds table, column and
    // fields); after a parenthesized one, `(c).f`, they are field accesses
    const rootKind = variant(v.root)[0];
    let named = cur.k === 'col' && (rootKind === 'Identifier' || rootKind === 'CompoundIdentifier');
    for (const acc of v.access_chain) {
      const [ak, av] = variant(acc);
      if (ak === 'Dot' && named && cur.k === 'col' && variant(av)[0] === 'Identifier') {
        cur = { ...cur, parts: [...cur.parts, this.ident(variant(av)[1])] };
        continue;
      }
      named = false;
      if (ak === 'Dot') {
        const [dk, dv] = variant(av);
        if (dk !== 'Identifier') this.unsupported('field access', e);
        cur = { k: 'field', expr: cur, name: this.ident(dv), pos };
        continue;
      }
      if (ak !== 'Subscript') this.unsupported('field access', e);
      const [sk, sv] = variant(av);
      if (sk !== 'Index') this.unsupported('array slices', e);
      cur = { k: 'index', expr: cur, index: this.expr(sv.index), pos };
    }
    return cur;
  }

  func(v: J, pos: Pos): Expr {
    const name = this.objectName(v.name)
      .map((n) => n.value)
      .join('.')
      .toUpperCase();
    const args: Expr[] = [];
    let star = false;
    let distinct = false;
    let orderBy: OrderItem[] | undefined;
    let ignoreNulls: boolean | undefined;
    const [ak, av] = variant(v.args);
    if (ak === 'List') {
      for (const c of av.clauses ?? []) {
        const [ck, cv] = variant(c);
        if (ck === 'OrderBy') orderBy = (cv as J[]).map((o) => this.orderItem(o));
        else if (ck === 'IgnoreOrRespectNulls') ignoreNulls = cv === 'IgnoreNulls';
        else this.unsupported(`${ck} inside ${name}(...)`, v);
      }
      distinct = av.duplicate_treatment === 'Distinct';
      for (const a of av.args) {
        const [k1, v1] = variant(a);
        if (k1 === 'Unnamed' && (v1 === 'Wildcard' || variant(v1)[0] === 'Wildcard')) {
          star = true;
          continue;
        }
        args.push(this.funcArg(a));
      }
    } else if (ak === 'Subquery') this.unsupported('a subquery as a function argument', v);
    const chainOp = CHAIN_OPS[name];
    if (chainOp) return balanced(chainOp, args, pos);
    if (name === 'DESCRIPTOR') {
      return { k: 'descriptor', cols: args.map((a) => (a.k === 'col' ? a.parts[a.parts.length - 1]! : this.unsupported('DESCRIPTOR argument', v))), pos };
    }
    if ((v.within_group ?? []).length) this.unsupported('WITHIN GROUP', v);
    if (v.null_treatment) throw new SqlError(`Cannot specify IGNORE NULLS or RESPECT NULLS following '${name}'`, this.pos(v), 'unsupported');
    const f: Expr = { k: 'func', name, args, star, distinct, pos };
    if (orderBy) f.orderBy = orderBy;
    if (ignoreNulls !== undefined) f.ignoreNulls = ignoreNulls;
    if (v.filter) f.filter = this.expr(v.filter);
    if (v.over) f.over = this.windowSpec(v.over);
    return f;
  }
}

/** The calls parse/chains.ts writes for long chains of one operator. */
const CHAIN_OPS: Record<string, string> = { $CHAIN_OR: 'Or', $CHAIN_AND: 'And', $CHAIN_PLUS: 'Plus' };

/** A balanced tree of `op` over the terms, built without recursion deeper than log2(terms). */
function balanced(op: string, terms: Expr[], pos: Pos): Expr {
  let level = terms;
  while (level.length > 1) {
    const next: Expr[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? { k: 'bin', op, left: level[i]!, right: level[i + 1]!, pos: level[i]!.pos ?? pos } : level[i]!);
    level = next;
  }
  return level[0]!;
}

export interface ParseOutcome {
  statements: J[];
}

/** Parse one statement's text (padded so positions match the whole program) with the generic dialect. */
export function parseRaw(text: string): J[] {
  return parseSql(rewriteLongChains(text)) as J[];
}

export function parserErrorPosition(e: unknown): { message: string; line?: number; column?: number } {
  const msg = e instanceof Error ? e.message : String(e);
  const m = /at Line: (\d+), Column: (\d+)/.exec(msg);
  const clean = msg.replace(/^sql parser error: /, '').replace(/ at Line: \d+, Column: \d+$/, '');
  if (m) return { message: clean, line: +m[1]!, column: +m[2]! };
  return { message: clean };
}
