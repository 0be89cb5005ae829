/** Binding scalar expressions: name resolution, typing (Calcite-like rules), compilation to closures. */
import { SqlError, type Expr, type Ident, type Pos } from '../parse/ast.js';
import { type SqlType, mk, commonType, isInteger, isFloat, isDecimal, isNumeric, isString, isTemporal, isUnsigned, withNull, typeToString } from '../types/types.js';
import { compareValues, type Row, type Value } from '../types/values.js';
import { rescale } from '../types/decimal.js';
import { parseDate, parseTime, parseTimestamp } from '../types/datetime.js';
import { dataTypeToSql, TypeSyntaxError } from '../types/parse-type.js';
import { castFn } from './cast.js';
import { differenceInterval, intervalOfValue } from './interval-forms.js';
import { rowFieldAt } from './row-index.js';
import { andFn, arithmetic, coerce, comparison, intervalLiteral, isIntervalLiteral, numLiteral, orFn, requireBool, typeName, unify } from './operators.js';
export { arithmetic, coerce, comparison, unify } from './operators.js';
import { type BExpr, constant, strict1, strict2 } from './bexpr.js';
import { canon, type Scope } from './scope.js';
import { bindFunction, UNIT_ARG } from './functions.js';
import { userFunctionCall } from './udf-scope.js';
import { bindLambdaCall } from './fns/lambda.js';
import { compileLike, patternCache } from './fns/regex.js';
import { checkSize } from '../types/value-limits.js';
import { exprSite } from './expr-text.js';
import { intNegate } from '../types/int64.js';
import { isNowCall, nowNotHere } from './now-call.js';

export { AGG_NAMES } from './fns/aggregate.js';
import { AGG_NAMES } from './fns/aggregate.js';
export const WINDOW_ONLY = new Set(['ROW_NUMBER', 'RANK', 'DENSE_RANK', 'LAG', 'LEAD', 'FIRST_VALUE', 'LAST_VALUE']);

export interface BindCtx {
  scope: Scope;
  /** Replacement for special sub-expressions (group keys, aggregate calls, window calls). */
  special?: (e: Expr) => BExpr | undefined;
  /** Where we are, for "not allowed here" messages. */
  clause: string;
}

/** Structural key of an expression (positions dropped, identifiers canonicalised). */
export function exprKey(e: Expr, scope: Scope): string {
  return JSON.stringify(e, (k, v) => {
    if (k === 'pos') return undefined;
    if (v && typeof v === 'object' && 'quoted' in v && 'value' in v) return canon(v, scope.casing);
    return v;
  });
}

export function parseTypeAt(t: unknown, pos: Pos): SqlType {
  try {
    return dataTypeToSql(t);
  } catch (e) {
    if (e instanceof TypeSyntaxError) throw new SqlError(e.message, pos, 'type');
    throw e;
  }
}

export function bindExpr(e: Expr, ctx: BindCtx): BExpr {
  if (ctx.special) {
    const s = ctx.special(e);
    if (s) return s;
  }
  switch (e.k) {
    case 'col': {
      const path = ctx.scope.tryResolvePath(e.parts, e.pos);
      const c = path?.col ?? ctx.scope.resolve(e.parts, e.pos);
      const idx = c.idx;
      const col: BExpr = { type: c.type, fn: (row: Row) => row[idx]!, colIdx: idx };
      return (path?.fields ?? []).reduce((a, f) => rowField(a, f, ctx.scope.casing, e.pos), col);
    }
    case 'field':
      return differenceInterval(e, (x) => bindExpr(x, ctx)) ?? rowField(bindExpr(e.expr, ctx), e.name, ctx.scope.casing, e.pos);
    case 'num':
      return numLiteral(e.text, e.pos);
    case 'str':
      return constant(mk('VARCHAR', false), e.value);
    case 'bool':
      return constant(mk('BOOLEAN', false), e.value);
    case 'null':
      return constant(mk('NULL', true), null);
    case 'typed': {
      const t = parseTypeAt(e.type, e.pos);
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
    case 'interval':
      return isIntervalLiteral(e) ? intervalLiteral(e) : intervalOfValue(bindExpr(e.value, ctx), e.unit, e.lastUnit, e.pos);
    case 'bin': {
      const a = bindExpr(e.left, ctx);
      const b = bindExpr(e.right, ctx);
      switch (e.op) {
        case 'And':
          return andFn(requireBool(a, e.left.pos, 'AND'), requireBool(b, e.right.pos, 'AND'));
        case 'Or':
          return orFn(requireBool(a, e.left.pos, 'OR'), requireBool(b, e.right.pos, 'OR'));
        case 'Eq':
        case 'NotEq':
        case 'Lt':
        case 'LtEq':
        case 'Gt':
        case 'GtEq':
          return comparison(e.op, a, b, e.pos);
        case 'Plus':
        case 'Minus':
        case 'Multiply':
        case 'Divide':
        case 'Modulo':
          return arithmetic(e.op, a, b, e.pos, exprSite(e));
        case 'StringConcat': {
          if (a.type.kind === 'ARRAY' || b.type.kind === 'ARRAY') {
            const t = commonType(a.type, b.type);
            if (!t) throw new SqlError('Cannot concatenate arrays of different types', e.pos, 'type');
            return strict2(a, b, t, (x, y) => {
              checkSize('||', (x as Value[]).length + (y as Value[]).length, 'elements');
              return (x as Value[]).concat(y as Value[]);
            });
          }
          const x = isString(a.type) ? a : coerce(a, mk('VARCHAR'), e.pos);
          const y = isString(b.type) ? b : coerce(b, mk('VARCHAR'), e.pos);
          return strict2(x, y, mk('VARCHAR', a.type.nullable || b.type.nullable), (p, q) => {
            checkSize('||', (p as string).length + (q as string).length, 'characters');
            return (p as string) + (q as string);
          });
        }
        default:
          throw new SqlError(`Operator ${e.op} is not supported`, e.pos, 'unsupported');
      }
    }
    case 'un': {
      const a = bindExpr(e.expr, ctx);
      if (e.op === 'NOT') return strict1(requireBool(a, e.pos, 'NOT'), mk('BOOLEAN', a.type.nullable), (x) => !x);
      if (e.op === 'PLUS') return a;
      if (!isNumeric(a.type) && a.type.kind !== 'INTERVAL_DT' && a.type.kind !== 'INTERVAL_YM') throw new SqlError(`Cannot apply '-' to ${typeName(a.type)}`, e.pos, 'type');
      if (isDecimal(a.type)) return strict1(a, a.type, (x) => -(x as bigint));
      if (isUnsigned(a.type)) throw new SqlError('Unary minus cannot be applied to unsigned values', e.pos, 'type');
      if (isInteger(a.type)) return strict1(a, a.type, intNegate(a.type.kind, exprSite(e)) as (x: Value) => Value);
      return strict1(a, a.type, (x) => -(x as number));
    }
    case 'is': {
      const a = bindExpr(e.expr, ctx);
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
          const [x, y] = unify(a, bindExpr(e.other!, ctx), e.pos, e.what === 'DISTINCT' ? 'IS DISTINCT FROM' : 'IS NOT DISTINCT FROM');
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
      break;
    }
    case 'between': {
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
        return bindExpr(e.not ? { k: 'un', op: 'NOT', expr: cond, pos: e.pos } : cond, ctx);
      } catch (err) {
        // the comparison's refusal named as the operator written (Calcite: 'BETWEEN ASYMMETRIC')
        if (!(err instanceof SqlError) || !err.message.startsWith('Cannot apply ')) throw err;
        const types = [e.expr, e.low, e.high].map((x) => `<${typeName(bindExpr(x, ctx).type)}>`);
        const name = `${e.not ? 'NOT ' : ''}BETWEEN ${e.symmetric ? 'SYMMETRIC' : 'ASYMMETRIC'}`;
        throw new SqlError(`Cannot apply '${name}' to arguments of type ${types.join(', ')}: ${err.message}`, e.pos, 'type');
      }
    }
    case 'inlist': {
      let x = bindExpr(e.expr, ctx);
      let items = e.list.map((i) => bindExpr(i, ctx));
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
    case 'like': {
      const x = bindExpr(e.expr, ctx);
      const p = bindExpr(e.pattern, ctx);
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
    case 'case': {
      const whens = e.whens.map((w) => {
        const cond = e.operand ? bindExpr({ k: 'bin', op: 'Eq', left: e.operand, right: w.cond, pos: w.cond.pos }, ctx) : requireBool(bindExpr(w.cond, ctx), w.cond.pos, 'WHEN');
        return { cond, result: bindExpr(w.result, ctx) };
      });
      const els = e.else ? bindExpr(e.else, ctx) : constant(mk('NULL'), null);
      let t: SqlType | undefined = els.type;
      for (const w of whens) {
        t = commonType(t, w.result.type);
        if (!t) throw new SqlError('CASE branches have incompatible types', e.pos, 'type');
      }
      const nullable = !e.else || t.nullable || whens.some((w) => w.result.type.nullable);
      t = withNull(t, nullable);
      const conds = whens.map((w) => w.cond.fn);
      const results = whens.map((w) => coerce(w.result, t!, e.pos).fn);
      const ef = coerce(els, t, e.pos).fn;
      return {
        type: t,
        fn: (r) => {
          for (let i = 0; i < conds.length; i++) if (conds[i]!(r) === true) return results[i]!(r);
          return ef(r);
        },
      };
    }
    case 'cast': {
      const a = bindExpr(e.expr, ctx);
      const t = parseTypeAt(e.type, e.pos);
      if (a.type.kind === 'NULL') return constant(t, null);
      const c = castFn(a.type, t, e.pos, exprSite(e));
      return strict1(a, withNull(t, true), c);
    }
    case 'extract': {
      return bindFunction('EXTRACT', [constant(mk('VARCHAR', false), e.field), bindExpr(e.expr, ctx)], e.pos);
    }
    case 'func': {
      if (isNowCall(e)) throw nowNotHere(ctx.clause, e.pos); // where a query reads NOW(), ctx.special gives its value (bind/now.ts)
      if (e.over) throw new SqlError(`Window function ${e.name} is not allowed in ${ctx.clause}`, e.pos, 'unsupported');
      if (AGG_NAMES.has(e.name)) throw new SqlError(`Aggregate function ${e.name} is not allowed in ${ctx.clause}`, e.pos, 'unsupported');
      if (WINDOW_ONLY.has(e.name)) throw new SqlError(`${e.name} requires an OVER clause`, e.pos, 'unsupported');
      if (e.star || e.distinct || e.filter || e.orderBy || e.ignoreNulls !== undefined) throw new SqlError(`Bad call of ${e.name}`, e.pos, 'syntax');
      if (e.args.some((a) => a.k === 'lambda')) return bindLambdaCall(e, ctx, bindExpr);
      if (e.name === 'ROW') return rowConstructor(e.args.map((a) => bindExpr(a, ctx)));
      const unitIdx = UNIT_ARG[e.name];
      const args = e.args.map((a, i) => {
        // Calcite spells time units as bare words: TIMESTAMP_TRUNC(ts, HOUR)
        if (i === unitIdx && a.k === 'col' && a.parts.length === 1 && !a.parts[0]!.quoted && !ctx.scope.tryResolve(a.parts, a.pos)) {
          return constant(mk('VARCHAR', false), a.parts[0]!.value.toUpperCase());
        }
        return bindExpr(a, ctx);
      });
      return userFunctionCall(e.name, args, e.pos) ?? bindFunction(e.name, args, e.pos);
    }
    case 'array': {
      const elems = e.elems.map((x) => bindExpr(x, ctx));
      let t: SqlType | undefined = elems.length ? elems[0]!.type : mk('NULL');
      for (const x of elems) {
        t = commonType(t!, x.type);
        if (!t) throw new SqlError('ARRAY elements have incompatible types', e.pos, 'type');
      }
      const fns = elems.map((x) => coerce(x, t!, e.pos).fn);
      return { type: mk('ARRAY', false, { elem: withNull(t!, true) }), fn: (r) => fns.map((f) => f(r)), constant: elems.every((x) => x.constant) };
    }
    case 'index': {
      // arr[SAFE_OFFSET(i)]: 0-based, NULL when out of range (as arr[i] is)
      if (e.index.k === 'func' && e.index.name === 'SAFE_OFFSET' && e.index.args.length === 1) {
        return bindExpr({ ...e, index: { k: 'bin', op: 'Plus', left: e.index.args[0]!, right: { k: 'num', text: '1', pos: e.pos }, pos: e.pos } }, ctx);
      }
      const a = bindExpr(e.expr, ctx);
      const i = bindExpr(e.index, ctx);
      if (a.type.kind === 'MAP' || a.type.kind === 'VARIANT') return bindFunction('ELEMENT_AT', [a, i], e.pos);
      if (a.type.kind === 'ROW') return rowFieldAt(a, i, e.pos);
      if (a.type.kind !== 'ARRAY') throw new SqlError(`Cannot apply indexing to arguments of type <${typeName(a.type)}>, <${typeName(i.type)}>: subscript on a non-array value`, e.pos, 'type');
      if (!isInteger(i.type)) throw new SqlError('Array index must be an integer', e.pos, 'type');
      return strict2(a, i, withNull(a.type.elem!, true), (arr, idx) => (arr as Value[])[(idx as number) - 1] ?? null);
    }
    case 'insub':
    case 'exists':
      throw new SqlError(`${e.k === 'exists' ? 'EXISTS' : 'IN'} with a subquery is supported only as a top-level WHERE condition (AND-ed)`, e.pos, 'unsupported');
    case 'subquery':
      throw new SqlError('A scalar subquery is supported only in WHERE, SELECT, HAVING and QUALIFY (not in ON, GROUP BY or inside an aggregate)', e.pos, 'unsupported');
    case 'descriptor':
      throw new SqlError('DESCRIPTOR is only allowed in TUMBLE/HOP', e.pos, 'unsupported');
    case 'lambda':
      throw new SqlError('A lambda (x -> ...) is only allowed as an argument of TRANSFORM, ARRAY_EXISTS or VARIANT_FILTER/MAP and their DEEP forms', e.pos, 'unsupported');
  }
  throw new SqlError('Unsupported expression', (e as Expr).pos, 'unsupported');
}

/** WHERE/ON/HAVING conditions: must be BOOLEAN. */
export function bindCondition(e: Expr, ctx: BindCtx): BExpr {
  const b = bindExpr(e, ctx);
  return requireBool(b, e.pos, ctx.clause);
}

export { rescale, isFloat };

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
function rowConstructor(args: BExpr[]): BExpr {
  const fields = args.map((a, i) => ({ name: `EXPR$${i}`, quoted: true, type: a.type.kind === 'NULL' ? mk('NULL', true) : a.type }));
  const fns = args.map((a) => a.fn);
  return { type: mk('ROW', false, { fields }), fn: (r) => fns.map((f) => f(r)), constant: args.every((a) => a.constant) };
}
