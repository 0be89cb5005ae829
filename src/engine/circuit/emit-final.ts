/**
 * emit_final views (Feldera's `emit_final` property): a view's changes are held back until their row is final,
 * that is until the waterline of the LATENESS column its emit_final column comes from has passed it
 * (plan/waterline.ts finalFrom). Contract: `takeFinal` adds a step's changes to the held ones (a row whose
 * weights cancel is dropped) and returns, and stops holding, those final under the waterline given (none
 * while the table has no waterline). Held rows are part of a checkpoint (circuit/checkpoint.ts).
 */
import type { Watermarked } from '../plan/nodes.js';
import { finalFrom } from '../plan/waterline.js';
import type { Delta } from '../ops/zset.js';
import { rowKey, type Row } from '../types/values.js';

export interface HeldRows {
  /** The view's emit_final column. */
  col: number;
  /** The table and column of the LATENESS waterline it follows, and its lineage. */
  table: string;
  wmCol: number;
  lineage: Watermarked;
  /** The changes not yet final, by row key. */
  held: Map<string, [Row, number]>;
}

export function heldRows(emitFinal: { col: number; wm: Watermarked }): HeldRows {
  return { col: emitFinal.col, table: emitFinal.wm.table, wmCol: emitFinal.wm.col, lineage: emitFinal.wm, held: new Map() };
}

/** Holds the changes `d` and returns the held changes that became final under the waterline `wm`. */
export function takeFinal(f: HeldRows, d: Delta | undefined, wm: number | undefined): Delta {
  for (const [row, w] of d ?? []) {
    const k = rowKey(row);
    const e = f.held.get(k);
    if (!e) f.held.set(k, [row, w]);
    else if ((e[1] += w) === 0) f.held.delete(k);
  }
  const out: Delta = [];
  if (wm === undefined || !f.held.size) return out;
  for (const [k, e] of f.held) {
    const v = e[0][f.col];
    if (typeof v === 'number' && finalFrom(v, f.lineage) <= wm) {
      out.push(e);
      f.held.delete(k);
    }
  }
  return out;
}
