/**
 * Binding scalar expressions: name resolution, typing (Calcite-like rules), compilation to closures. bindExpr
 * dispatches on the expression's kind to the binders in exprs/ (values, operators, predicates, CASE, calls),
 * passing itself down for their operands; a ctx.special replacement (group keys, aggregates, window calls,
 * subquery columns, NOW()) wins over binding.
 */
import { SqlError, type Expr } from '../parse/ast.js';
import { mk, isFloat } from '../types/types.js';
import { rescale } from '../types/decimal.js';
import { intervalLiteral, isIntervalLiteral, numLiteral, requireBool } from './operators.js';
import { intervalOfValue } from './interval-forms.js';
import { type BExpr, constant } from './bexpr.js';
import { canon, type Scope } from './scope.js';
import type { BindCtx } from './bind-ctx.js';
import { bindColumn, bindField, bindTypedLiteral, bindArray, bindIndex } from './exprs/values.js';
import { bindBinary, bindUnary } from './exprs/operators.js';
import { bindIs, bindBetween, bindInList, bindLike } from './exprs/predicates.js';
import { bindCase } from './exprs/case.js';
import { bindCall, bindCast, bindExtract } from './exprs/calls.js';

export { arithmetic, coerce, comparison, unify } from './operators.js';
export type { BindCtx } from './bind-ctx.js';
export { parseTypeAt } from './parse-type-at.js';
export { AGG_NAMES } from './fns/aggregate.js';
export { WINDOW_ONLY } from './exprs/calls.js';

/** Structural key of an expression (positions dropped, identifiers canonicalised). */
export function exprKey(e: Expr, scope: Scope): string {
  return JSON.stringify(e, (k, v) => {
    if (k === 'pos') return undefined;
    if (v && typeof v === 'object' && 'quoted' in v && 'value' in v) return canon(v, scope.casing);
    return v;
  });
}

export function bindExpr(e: Expr, ctx: BindCtx): BExpr {
  if (ctx.special) {
    const s = ctx.special(e);
    if (s) return s;
  }
  switch (e.k) {
    case 'col':
      return bindColumn(e, ctx);
    case 'field':
      return bindField(e, ctx, bindExpr);
    case 'num':
      return numLiteral(e.text, e.pos);
    case 'str':
      return constant(mk('VARCHAR', false), e.value);
    case 'bool':
      return constant(mk('BOOLEAN', false), e.value);
    case 'null':
      return constant(mk('NULL', true), null);
    case 'typed':
      return bindTypedLiteral(e, ctx);
    case 'interval':
      return isIntervalLiteral(e) ? intervalLiteral(e) : intervalOfValue(bindExpr(e.value, ctx), e.unit, e.lastUnit, e.pos);
    case 'bin':
      return bindBinary(e, ctx, bindExpr);
    case 'un':
      return bindUnary(e, ctx, bindExpr);
    case 'is':
      return bindIs(e, ctx, bindExpr);
    case 'between':
      return bindBetween(e, ctx, bindExpr);
    case 'inlist':
      return bindInList(e, ctx, bindExpr);
    case 'like':
      return bindLike(e, ctx, bindExpr);
    case 'case':
      return bindCase(e, ctx, bindExpr);
    case 'cast':
      return bindCast(e, ctx, bindExpr);
    case 'extract':
      return bindExtract(e, ctx, bindExpr);
    case 'func':
      return bindCall(e, ctx, bindExpr);
    case 'array':
      return bindArray(e, ctx, bindExpr);
    case 'index':
      return bindIndex(e, ctx, bindExpr);
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
