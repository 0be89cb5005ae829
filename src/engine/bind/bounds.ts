/** Upper bounds of a filter's conjuncts (`rn <= k`), read by plan/rank-limit.ts. */
import type { Expr } from '../parse/ast.js';
import { isInteger } from '../types/types.js';
import { bindExpr, type BindCtx } from './expr.js';

const MIRROR: Record<string, string> = { Lt: 'Gt', LtEq: 'GtEq', Gt: 'Lt', GtEq: 'LtEq', Eq: 'Eq' };

/**
 * Conjuncts of the form `column <= k`, `column < k` or `column = k` (either way round, k a constant
 * integer): every row that passes has that column at most the bound. plan/rank-limit.ts uses them to
 * compute only the top ranks of a window function.
 */
export function upperBounds(conds: Expr[], ctx: BindCtx): Array<{ col: number; max: number }> {
  const out: Array<{ col: number; max: number }> = [];
  for (const c of conds) {
    if (c.k !== 'bin' || !(c.op in MIRROR)) continue;
    let col = bindExpr(c.left, ctx);
    let k = bindExpr(c.right, ctx);
    let op = c.op;
    if (col.colIdx === undefined) {
      [col, k] = [k, col];
      op = MIRROR[op]!;
    }
    if (col.colIdx === undefined || !k.constant || !isInteger(k.type)) continue;
    const v = k.fn([]);
    if (typeof v !== 'number') continue;
    if (op === 'LtEq' || op === 'Eq') out.push({ col: col.colIdx, max: v });
    else if (op === 'Lt') out.push({ col: col.colIdx, max: v - 1 });
  }
  return out;
}
