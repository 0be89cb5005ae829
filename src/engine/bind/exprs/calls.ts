/** Calls: functions (built-in, user, lambda-taking, ROW), CAST and EXTRACT. Each binder takes the expression binder (bind/expr.ts bindExpr) for its operands. */
import { SqlError, type Expr } from '../../parse/ast.js';
import { mk, withNull } from '../../types/types.js';
import { castFn } from '../cast.js';
import { type BExpr, constant, strict1 } from '../bexpr.js';
import { bindFunction, UNIT_ARG } from '../functions.js';
import type { BindCtx, ExprBinder } from '../bind-ctx.js';
import { bindLambdaCall } from '../fns/lambda.js';
import { exprSite } from '../expr-text.js';
import { IntOverflow } from '../../types/int64.js';
import { isNowCall, nowNotHere } from '../now-call.js';
import { AGG_NAMES } from '../fns/aggregate.js';
import { parseTypeAt } from '../parse-type-at.js';
import { rowConstructor } from './values.js';

/** Functions that exist only with an OVER clause. */
export const WINDOW_ONLY = new Set(['ROW_NUMBER', 'RANK', 'DENSE_RANK', 'LAG', 'LEAD', 'FIRST_VALUE', 'LAST_VALUE']);

/** A function call that is neither an aggregate nor a window function: a lambda call, ROW(...), a user function, a built-in. */
export function bindCall(e: Expr & { k: 'func' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  if (isNowCall(e)) throw nowNotHere(ctx.clause, e.pos); // where a query reads NOW(), ctx.special gives its value (bind/now.ts)
  if (e.over) throw new SqlError(`Window function ${e.name} is not allowed in ${ctx.clause}`, e.pos, 'unsupported');
  if (AGG_NAMES.has(e.name)) throw new SqlError(`Aggregate function ${e.name} is not allowed in ${ctx.clause}`, e.pos, 'unsupported');
  if (WINDOW_ONLY.has(e.name)) throw new SqlError(`${e.name} requires an OVER clause`, e.pos, 'unsupported');
  if (e.star || e.distinct || e.filter || e.orderBy || e.ignoreNulls !== undefined) throw new SqlError(`Bad call of ${e.name}`, e.pos, 'syntax');
  if (e.args.some((a) => a.k === 'lambda')) return bindLambdaCall(e, ctx, bind);
  if (e.name === 'ROW') return rowConstructor(e.args.map((a) => bind(a, ctx)));
  const unitIdx = UNIT_ARG[e.name];
  const args = e.args.map((a, i) => {
    // Calcite spells time units as bare words: TIMESTAMP_TRUNC(ts, HOUR)
    if (i === unitIdx && a.k === 'col' && a.parts.length === 1 && !a.parts[0]!.quoted && !ctx.scope.tryResolve(a.parts, a.pos)) {
      return constant(mk('VARCHAR', false), a.parts[0]!.value.toUpperCase());
    }
    return bind(a, ctx);
  });
  return ctx.session.userFunctionCall(e.name, args, e.pos) ?? bindFunction(e.name, args, e.pos);
}

/** `CAST(x AS type)`. */
export function bindCast(e: Expr & { k: 'cast' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  const a = bind(e.expr, ctx);
  const t = parseTypeAt(e.type, e.pos, ctx.session);
  // a SQL NULL cast to VARIANT is a VARIANT holding it, written as JSON null (Feldera's sqllib: Variant::SqlNull)
  if (t.kind === 'VARIANT') {
    if (a.type.kind === 'NULL') return constant(withNull(t, false), 'null');
    const toVariant = castFn(a.type, t, e.pos, exprSite(e));
    const f = a.fn;
    return {
      type: withNull(t, false),
      fn: (r) => {
        const v = f(r);
        return v === null ? 'null' : toVariant(v);
      },
    };
  }
  if (a.type.kind === 'NULL') return constant(t, null);
  const c = castFn(a.type, t, e.pos, exprSite(e), e.safe === true);
  if (!e.safe) return strict1(a, withNull(t, true), c);
  // SAFE_CAST: a value that does not fit its type is NULL rather than an error
  return strict1(a, withNull(t, true), (v) => {
    try {
      return c(v);
    } catch (err) {
      if (err instanceof IntOverflow) return null;
      throw err;
    }
  });
}

/** `EXTRACT(field FROM x)`, as the EXTRACT function. */
export function bindExtract(e: Expr & { k: 'extract' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  return bindFunction('EXTRACT', [constant(mk('VARCHAR', false), e.field), bind(e.expr, ctx)], e.pos);
}
