/** Operator expressions: the binary operators (logic, comparison, arithmetic, concatenation) and the unary ones. Each binder takes the expression binder (bind/expr.ts bindExpr) for its operands. */
import { SqlError, type Expr } from '../../parse/ast.js';
import { mk, commonType, isInteger, isDecimal, isNumeric, isString, isUnsigned } from '../../types/types.js';
import { type Value } from '../../types/values.js';
import { andFn, arithmetic, coerce, comparison, orFn, requireBool, typeName } from '../operators.js';
import { type BExpr, strict1, strict2 } from '../bexpr.js';
import type { BindCtx, ExprBinder } from '../bind-ctx.js';
import { checkSize } from '../../types/value-limits.js';
import { exprSite } from '../expr-text.js';
import { intNegate } from '../../types/int64.js';

/** A binary operator: AND, OR, the comparisons, arithmetic and `||` (strings or arrays). */
export function bindBinary(e: Expr & { k: 'bin' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  const a = bind(e.left, ctx);
  const b = bind(e.right, ctx);
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
      if (a.type.kind === 'VARBINARY' && b.type.kind === 'VARBINARY')
        return strict2(a, b, mk('VARBINARY', a.type.nullable || b.type.nullable), (p, q) => {
          checkSize('||', ((p as string).length + (q as string).length) / 2, 'bytes');
          return (p as string) + (q as string); // hex text: bytes after bytes
        });
      for (const t of [a.type, b.type])
        if (['ROW', 'MAP', 'VARIANT', 'VARBINARY'].includes(t.kind)) throw new SqlError(`Cannot apply '||' to arguments of type <${a.type.kind}> || <${b.type.kind}>`, e.pos, 'type');
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

/** NOT, unary plus and minus. */
export function bindUnary(e: Expr & { k: 'un' }, ctx: BindCtx, bind: ExprBinder): BExpr {
  const a = bind(e.expr, ctx);
  if (e.op === 'NOT') return strict1(requireBool(a, e.pos, 'NOT'), mk('BOOLEAN', a.type.nullable), (x) => !x);
  if (e.op === 'PLUS') return a;
  // a string is read as a DECIMAL (Calcite's implicit cast to NUMERIC's default type; Feldera's DECIMAL default: (28, 0))
  if (isString(a.type)) return bindUnary(e, ctx, () => coerce(a, mk('DECIMAL', a.type.nullable, { precision: 28, scale: 0 }), e.pos));
  if (!isNumeric(a.type) && a.type.kind !== 'INTERVAL_DT' && a.type.kind !== 'INTERVAL_YM') throw new SqlError(`Cannot apply '-' to ${typeName(a.type)}`, e.pos, 'type');
  if (isDecimal(a.type)) return strict1(a, a.type, (x) => -(x as bigint));
  if (isUnsigned(a.type)) throw new SqlError('Unary minus cannot be applied to unsigned values', e.pos, 'type');
  if (isInteger(a.type)) return strict1(a, a.type, intNegate(a.type.kind, exprSite(e)) as (x: Value) => Value);
  return strict1(a, a.type, (x) => -(x as number));
}
