/**
 * Band conditions of an inner join (Feldera's JoinFilterMap GC, InsertLimiters/Monotonicity: a filter
 * conjunct `column >= expression` bounds that column below by the expression's waterline). A conjunct
 * `X >= Y + c` (also `>`, `<=`/`<` mirrored, `X BETWEEN Y1 + c1 AND Y2 + c2` as its two halves), X a column of
 * one side, Y a column of the other side with a LATENESS lineage, c a constant (an INTERVAL DAY TO SECOND
 * for TIMESTAMP columns, an integer for integer columns): every future change of Y's side has
 * `Y > W - slack` (W the watermark of Y's lineage; plan/waterline.ts: a value is final once v + slack <= W),
 * so it can only meet rows with `X > W - slack + c`. Rows of X's side with `X <= W - slack + c` can meet no
 * future change: the join operator releases them (ops/join.ts) and plan/retention.ts lets a table forget the
 * rows they came from. Only for inner joins (an outer join's padded rows still need their side). Pure.
 */
import type { Expr } from '../parse/ast.js';
import type { JoinBandRelease, PlanNode } from '../plan/nodes.js';
import { isInteger, type SqlType } from '../types/types.js';
import { bindExpr, type BindCtx } from './expr.js';

/** A band: which side's rows it releases, by which column, against which lineage (plan/nodes.ts). */
export type JoinBand = JoinBandRelease;

const MIRROR: Record<string, string> = { Lt: 'Gt', LtEq: 'GtEq', Gt: 'Lt', GtEq: 'LtEq' };

/** `big >= small` (or `>`) as the comparisons a conjunct holds, its BETWEEN read as its two halves. */
function comparisons(c: Expr): Array<{ big: Expr; small: Expr }> {
  if (c.k === 'between' && !c.not && !c.symmetric)
    return [
      { big: c.expr, small: c.low },
      { big: c.high, small: c.expr },
    ];
  if (c.k !== 'bin' || !(c.op in MIRROR)) return [];
  return c.op === 'Gt' || c.op === 'GtEq' ? [{ big: c.left, small: c.right }] : [{ big: c.right, small: c.left }];
}

/** Whether `constant` may be added to a column of type `col` as a plain number (ms to a TIMESTAMP, an integer to an integer). */
function addable(col: SqlType, constant: SqlType): boolean {
  if (col.kind === 'TIMESTAMP') return constant.kind === 'INTERVAL_DT';
  return isInteger(col) && isInteger(constant);
}

/** A column of the joined row plus a constant: `col`, `col + k`, `col - k`; undefined for anything else. */
function columnPlus(e: Expr, ctx: BindCtx): { idx: number; type: SqlType; offset: number } | undefined {
  if (e.k === 'bin' && (e.op === 'Plus' || e.op === 'Minus')) {
    const inner = columnPlus(e.left, ctx);
    const k = bindExpr(e.right, ctx);
    const v = k.constant ? k.fn([]) : undefined;
    if (!inner || typeof v !== 'number' || !Number.isFinite(v) || !addable(inner.type, k.type)) return undefined;
    return { ...inner, offset: inner.offset + (e.op === 'Plus' ? v : -v) };
  }
  if (e.k !== 'col') return undefined;
  const b = bindExpr(e, ctx);
  return b.colIdx === undefined ? undefined : { idx: b.colIdx, type: b.type, offset: 0 };
}

/** The bands of an inner join's residual conjuncts (names resolved in `ctx`, over the joined row; the left side's width `lw`). */
export function joinBands(conds: Expr[], ctx: BindCtx, lw: number, left: PlanNode, right: PlanNode): JoinBand[] {
  const bands: JoinBand[] = [];
  for (const c of conds) {
    for (const { big, small } of comparisons(c)) {
      let x;
      let y;
      try {
        x = columnPlus(big, ctx);
        y = columnPlus(small, ctx);
      } catch {
        continue; // (not bindable alone: the condition's own binding reports it)
      }
      if (!x || !y || x.type.kind !== y.type.kind || (x.type.kind !== 'TIMESTAMP' && !isInteger(x.type))) continue;
      const xLeft = x.idx < lw;
      if (xLeft === y.idx < lw) continue;
      const other = xLeft ? right.columns[y.idx - lw]?.wm : left.columns[y.idx]?.wm;
      if (!other || other.scale) continue;
      // big + x.offset >= small + y.offset, so big >= small + (y.offset - x.offset)
      bands.push({ side: xLeft ? 'left' : 'right', col: xLeft ? x.idx : x.idx - lw, other, offset: y.offset - x.offset });
    }
  }
  return bands;
}
