/**
 * Array functions with a lambda argument (Feldera docs/sql/array.md): TRANSFORM(array, x -> expr) and
 * ARRAY_EXISTS(array, x -> condition). The lambda body is bound in the caller's scope plus one column for the
 * parameter (which hides a column of the same name), placed after the row's last column; each element is
 * evaluated on the row extended by that element.
 */
import { SqlError, type Expr } from '../../parse/ast.js';
import { mk, withNull } from '../../types/types.js';
import type { Row, Value } from '../../types/values.js';
import type { BExpr } from '../bexpr.js';
import { canon, Scope } from '../scope.js';
import { bindExpr, type BindCtx } from '../expr.js';
import { arr } from './args.js';

export function bindLambdaCall(e: Expr & { k: 'func' }, ctx: BindCtx): BExpr {
  const name = e.name;
  if ((name !== 'TRANSFORM' && name !== 'ARRAY_EXISTS') || e.args.length !== 2 || e.args[1]!.k !== 'lambda') {
    throw new SqlError(`A lambda (x -> ...) is only allowed as the second argument of TRANSFORM or ARRAY_EXISTS`, e.pos, 'unsupported');
  }
  const a = arr(name, bindExpr(e.args[0]!, ctx), e.pos);
  const lam = e.args[1] as Expr & { k: 'lambda' };
  const param = canon(lam.param, ctx.scope.casing);
  const at = Math.max(ctx.scope.width, ...ctx.scope.cols.map((c) => c.idx + 1));
  const cols = ctx.scope.cols.filter((c) => c.name !== param);
  const scope = new Scope([...cols, { name: param, type: withNull(a.type.elem ?? mk('NULL'), true), idx: at }], ctx.scope.casing);
  const body = bindExpr(lam.body, { ...ctx, scope });
  const bf = body.fn;
  const af = a.fn;
  const at1 = (row: Row, x: Value): Row => {
    const r = row.slice(0, at);
    while (r.length < at) r.push(null);
    r.push(x);
    return r;
  };
  if (name === 'TRANSFORM') {
    return {
      type: mk('ARRAY', a.type.nullable, { elem: withNull(body.type, true) }),
      fn: (row) => {
        const xs = af(row);
        return xs === null ? null : (xs as Value[]).map((x) => bf(at1(row, x)));
      },
    };
  }
  if (body.type.kind !== 'BOOLEAN' && body.type.kind !== 'NULL') throw new SqlError('ARRAY_EXISTS needs a BOOLEAN lambda', lam.pos, 'type');
  return {
    type: mk('BOOLEAN', true),
    fn: (row) => {
      const xs = af(row);
      if (xs === null) return null;
      let sawNull = false;
      for (const x of xs as Value[]) {
        const v = bf(at1(row, x));
        if (v === true) return true;
        if (v === null) sawNull = true;
      }
      return sawNull ? null : false;
    },
  };
}
