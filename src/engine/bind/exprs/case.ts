/** CASE expressions. Each binder takes the expression binder (bind/expr.ts bindExpr) for its operands. */
import { SqlError, type Expr } from '../../parse/ast.js';
import { type SqlType, mk, commonType, withNull } from '../../types/types.js';
import { coerce, requireBool } from '../operators.js';
import { type BExpr, constant } from '../bexpr.js';
import type { BindCtx, ExprBinder } from '../bind-ctx.js';

/** `CASE [operand] WHEN ... THEN ... [ELSE ...] END`: the branches unified to one type. */
export function bindCase(e: Expr & { k: 'case' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  const whens = e.whens.map((w) => {
    const cond = e.operand ? bind({ k: 'bin', op: 'Eq', left: e.operand, right: w.cond, pos: w.cond.pos }, ctx) : requireBool(bind(w.cond, ctx), w.cond.pos, 'WHEN');
    return { cond, result: bind(w.result, ctx) };
  });
  const els = e.else ? bind(e.else, ctx) : constant(mk('NULL'), null);
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
