/** Value-making expressions: column references and ROW fields, typed literals, ARRAY constructors, subscripts. Each binder takes the expression binder (bind/expr.ts bindExpr) for its operands. */
import { SqlError, type Expr, type Ident, type Pos } from '../../parse/ast.js';
import { type SqlType, mk, commonType, isInteger, withNull, typeToString } from '../../types/types.js';
import { type Row, type Value } from '../../types/values.js';
import { parseDate, parseTime, parseTimestamp } from '../../types/datetime.js';
import { coerce } from '../operators.js';
import { type BExpr, constant, strict2 } from '../bexpr.js';
import { canon } from '../scope.js';
import { bindFunction } from '../functions.js';
import type { BindCtx, ExprBinder } from '../bind-ctx.js';
import { parseTypeAt } from '../parse-type-at.js';
import { differenceInterval } from '../interval-forms.js';
import { rowFieldAt } from '../row-index.js';

/** A column reference, and the ROW fields read after it (`t.c.f1`). */
export function bindColumn(e: Expr & { k: 'col' }, ctx: BindCtx): BExpr {
  const path = ctx.scope.tryResolvePath(e.parts, e.pos);
  const c = path?.col ?? ctx.scope.resolve(e.parts, e.pos);
  const idx = c.idx;
  const col: BExpr = { type: c.type, fn: (row: Row) => row[idx]!, colIdx: idx };
  return (path?.fields ?? []).reduce((a, f) => rowField(a, f, ctx.scope.casing, e.pos), col);
}

/** A typed literal: `DATE '...'`, `TIMESTAMP '...'`, `TIME '...'`, `x'..'` and the other types' (a cast of the text). */
export function bindTypedLiteral(e: Expr & { k: 'typed' }, ctx: BindCtx): BExpr {
  const t = parseTypeAt(e.type, e.pos, ctx.session);
  let v: number | undefined;
  if (t.kind === 'DATE') v = parseDate(e.value);
  else if (t.kind === 'TIMESTAMP') v = parseTimestamp(e.value);
  else if (t.kind === 'TIME') v = parseTime(e.value);
  else if (t.kind === 'VARBINARY') {
    if (e.value.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(e.value)) throw new SqlError(`Illegal binary literal x'${e.value}': an even number of hexadecimal digits is needed`, e.pos, 'syntax');
    return constant(mk('VARBINARY', false), e.value.toLowerCase());
  } else return coerce(constant(mk('VARCHAR', false), e.value), withNull(t, false), e.pos);
  if (v === undefined) throw new SqlError(`Illegal ${t.kind} literal '${e.value}'`, e.pos, 'syntax');
  return constant(withNull(t, false), v);
}

/** `ARRAY[a, b, ...]`: the elements unified to one type. */
export function bindArray(e: Expr & { k: 'array' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  const elems = e.elems.map((x) => bind(x, ctx));
  let t: SqlType | undefined = elems.length ? elems[0]!.type : mk('NULL');
  for (const x of elems) {
    t = commonType(t!, x.type);
    if (!t) throw new SqlError('ARRAY elements have incompatible types', e.pos, 'type');
  }
  const fns = elems.map((x) => coerce(x, t!, e.pos).fn);
  return { type: mk('ARRAY', false, { elem: withNull(t!, true) }), fn: (r) => fns.map((f) => f(r)), constant: elems.every((x) => x.constant) };
}

/** `a[i]` on an array (1-based, NULL out of range), a map or a VARIANT; `a[SAFE_OFFSET(i)]` 0-based. */
export function bindIndex(e: Expr & { k: 'index' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  // arr[SAFE_OFFSET(i)]: 0-based, NULL when out of range (as arr[i] is)
  if (e.index.k === 'func' && e.index.name === 'SAFE_OFFSET' && e.index.args.length === 1) {
    return bind({ ...e, index: { k: 'bin', op: 'Plus', left: e.index.args[0]!, right: { k: 'num', text: '1', pos: e.pos }, pos: e.pos } }, ctx);
  }
  const a = bind(e.expr, ctx);
  const i = bind(e.index, ctx);
  if (a.type.kind === 'MAP' || a.type.kind === 'VARIANT') return bindFunction('ELEMENT_AT', [a, i], e.pos);
  if (a.type.kind === 'ROW') return rowFieldAt(a, i, e.pos);
  if (a.type.kind !== 'ARRAY') throw new SqlError(`Cannot apply indexing to arguments of type <${typeToString(a.type)}>, <${typeToString(i.type)}>: subscript on a non-array value`, e.pos, 'type');
  if (!isInteger(i.type)) throw new SqlError('Array index must be an integer', e.pos, 'type');
  return strict2(a, i, withNull(a.type.elem!, true), (arr, idx) => (arr as Value[])[(idx as number) - 1] ?? null);
}

/** `(expr).f`: a field of a ROW value. */
export function bindField(e: Expr & { k: 'field' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  // `(a - b).DAY` is the pre-pass's `(a - b) DAY` (interval-forms.ts)
  return differenceInterval(e, (x) => bind(x, ctx)) ?? rowField(bind(e.expr, ctx), e.name, ctx.scope.casing, e.pos);
}

/**
 * A field of a ROW value: NULL when the row is NULL (so nullable then, whatever the field's type); an
 * unquoted name matches the field's name in any case, a quoted one exactly.
 */
function rowField(a: BExpr, name: Ident, casing: 'upper' | 'lower', pos: Pos): BExpr {
  if (a.type.kind !== 'ROW') throw new SqlError(`Field access '.${name.value}' on a value of type ${typeToString(a.type)}, which is not a ROW`, name.pos ?? pos, 'type');
  const want = canon(name, casing);
  const fields = a.type.fields!;
  let i = fields.findIndex((f) => f.name === want);
  if (i < 0 && !name.quoted) i = fields.findIndex((f) => f.name.toLowerCase() === name.value.toLowerCase());
  if (i < 0) throw new SqlError(`Unknown field '${name.value}' of type ${typeToString(a.type)}`, name.pos ?? pos, 'unknown_column');
  const f = fields[i]!;
  const fn = a.fn;
  return { type: a.type.nullable ? withNull(f.type, true) : f.type, fn: (r) => (fn(r) as Value[] | null)?.[i] ?? null, constant: a.constant };
}

/** `ROW(a, b, ...)`: a ROW value (never NULL) with fields named EXPR$0, EXPR$1, ... as Calcite names them. */
export function rowConstructor(args: BExpr[]): BExpr {
  const fields = args.map((a, i) => ({ name: `EXPR$${i}`, quoted: true, type: a.type.kind === 'NULL' ? mk('NULL', true) : a.type }));
  const fns = args.map((a) => a.fn);
  return { type: mk('ROW', false, { fields }), fn: (r) => fns.map((f) => f(r)), constant: args.every((a) => a.constant) };
}
