/** Predicates: IS, BETWEEN, IN (list) and LIKE. Each binder takes the expression binder (bind/expr.ts bindExpr) for its operands. */
import { SqlError, type Expr } from '../../parse/ast.js';
import { type SqlType, mk, commonType, isString, isTemporal } from '../../types/types.js';
import { compareValues } from '../../types/values.js';
import { coerce, typeName, unify } from '../operators.js';
import { type BExpr, constant, strict1, strict2 } from '../bexpr.js';
import type { BindCtx, ExprBinder } from '../bind-ctx.js';
import { compileLike, patternCache } from '../fns/regex.js';

/** `x IS [NOT] NULL | TRUE | FALSE | DISTINCT FROM y`. */
export function bindIs(e: Expr & { k: 'is' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  const a = bind(e.expr, ctx);
  const af = a.fn;
  const t = mk('BOOLEAN', false);
  // IS [NOT] TRUE/FALSE/UNKNOWN take a BOOLEAN (Calcite's message)
  if (e.what !== 'NULL' && e.what !== 'NOT NULL' && e.what !== 'DISTINCT' && e.what !== 'NOT DISTINCT' && a.type.kind !== 'BOOLEAN' && a.type.kind !== 'NULL')
    throw new SqlError(`Cannot apply 'IS ${e.what}' to arguments of type <${typeName(a.type)}>`, e.pos, 'type');
  switch (e.what) {
    case 'NULL':
    case 'UNKNOWN':
      return { type: t, fn: (r) => af(r) === null };
    case 'NOT NULL':
    case 'NOT UNKNOWN':
      return { type: t, fn: (r) => af(r) !== null };
    case 'TRUE':
      return { type: t, fn: (r) => af(r) === true };
    case 'NOT TRUE':
      return { type: t, fn: (r) => af(r) !== true };
    case 'FALSE':
      return { type: t, fn: (r) => af(r) === false };
    case 'NOT FALSE':
      return { type: t, fn: (r) => af(r) !== false };
    case 'DISTINCT':
    case 'NOT DISTINCT': {
      const [x, y] = unify(a, bind(e.other!, ctx), e.pos, e.symbol ?? (e.what === 'DISTINCT' ? 'IS DISTINCT FROM' : 'IS NOT DISTINCT FROM'));
      const neg = e.what === 'NOT DISTINCT';
      return {
        type: t,
        fn: (r) => {
          const p = x.fn(r);
          const q = y.fn(r);
          const same = p === null || q === null ? p === q : compareValues(p, q) === 0;
          return neg ? same : !same;
        },
      };
    }
  }
  throw new SqlError('Unsupported expression', e.pos, 'unsupported');
}

/** `x [NOT] BETWEEN [SYMMETRIC] a AND b`, as the comparisons it stands for. */
export function bindBetween(e: Expr & { k: 'between' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  // x BETWEEN a AND b: a <= x AND x <= b; SYMMETRIC: (a <= x AND x <= b) OR (b <= x AND x <= a)
  const within = (lo: Expr, hi: Expr): Expr => ({
    k: 'bin',
    op: 'And',
    left: { k: 'bin', op: 'GtEq', left: e.expr, right: lo, pos: e.pos },
    right: { k: 'bin', op: 'LtEq', left: e.expr, right: hi, pos: e.pos },
    pos: e.pos,
  });
  const cond: Expr = e.symmetric ? { k: 'bin', op: 'Or', left: within(e.low, e.high), right: within(e.high, e.low), pos: e.pos } : within(e.low, e.high);
  try {
    return bind(e.not ? { k: 'un', op: 'NOT', expr: cond, pos: e.pos } : cond, ctx);
  } catch (err) {
    // the comparison's refusal named as the operator written (Calcite: 'BETWEEN ASYMMETRIC')
    if (!(err instanceof SqlError) || !err.message.startsWith('Cannot apply ')) throw err;
    const types = [e.expr, e.low, e.high].map((x) => `<${typeName(bind(x, ctx).type)}>`);
    const name = `${e.not ? 'NOT ' : ''}BETWEEN ${e.symmetric ? 'SYMMETRIC' : 'ASYMMETRIC'}`;
    throw new SqlError(`Cannot apply '${name}' to arguments of type ${types.join(', ')}: ${err.message}`, e.pos, 'type');
  }
}

/** `x [NOT] IN (a, b, ...)`: a set lookup when the list is constant. */
export function bindInList(e: Expr & { k: 'inlist' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  let x = bind(e.expr, ctx);
  let items = e.list.map((i) => bind(i, ctx));
  let t: SqlType | undefined = x.type;
  for (const it of items) {
    if (isTemporal(t) && isString(it.type)) continue;
    t = commonType(t, it.type);
    if (!t) throw new SqlError(`Values passed to ${e.not ? 'NOT IN' : 'IN'} operator must have compatible types`, e.pos, 'type');
  }
  if (t.kind === 'ROW') throw new SqlError("ROW values cannot be compared using '='", e.pos, 'type');
  x = coerce(x, t, e.pos);
  items = items.map((i) => coerce(i, t!, e.pos));
  const xf = x.fn;
  const fns = items.map((i) => i.fn);
  const neg = e.not;
  if (items.every((i) => i.constant)) {
    const vals = fns.map((f) => f([]));
    const hasNull = vals.some((v) => v === null);
    const set = new Set(vals.filter((v) => v !== null).map((v) => (typeof v === 'bigint' ? v.toString() + 'n' : typeof v === 'object' ? JSON.stringify(v) : v)));
    return {
      type: mk('BOOLEAN', x.type.nullable || hasNull),
      fn: (r) => {
        const v = xf(r);
        if (v === null) return null;
        const k = typeof v === 'bigint' ? v.toString() + 'n' : typeof v === 'object' ? JSON.stringify(v) : v;
        if (set.has(k as never)) return !neg;
        return hasNull ? null : neg;
      },
    };
  }
  return {
    type: mk('BOOLEAN', true),
    fn: (r) => {
      const v = xf(r);
      if (v === null) return null;
      let sawNull = false;
      for (const f of fns) {
        const w = f(r);
        if (w === null) sawNull = true;
        else if (compareValues(v, w) === 0) return !neg;
      }
      return sawNull ? null : neg;
    },
  };
}

/** `x [NOT] LIKE | ILIKE pattern [ESCAPE c]`: a constant pattern compiled once. */
export function bindLike(e: Expr & { k: 'like' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  const x = bind(e.expr, ctx);
  const p = bind(e.pattern, ctx);
  if (!isString(x.type) && x.type.kind !== 'NULL') throw new SqlError(`LIKE requires a string operand`, e.pos, 'type');
  const esc = e.escape ?? '\\';
  const t = mk('BOOLEAN', x.type.nullable || p.type.nullable);
  if (p.constant) {
    const pv = p.fn([]);
    if (pv === null) return constant(mk('BOOLEAN', true), null);
    const matches = compileLike(pv as string, esc, e.ilike);
    return strict1(x, t, (v) => matches(v as string) !== e.not);
  }
  const like = patternCache((pat) => compileLike(pat, esc, e.ilike));
  return strict2(x, p, t, (v, pat) => like(pat as string)!(v as string) !== e.not);
}
