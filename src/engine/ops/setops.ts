/**
 * DISTINCT and the set operations. All keep, per distinct row, the integrated weight on each input and
 * emit the change of out = f(weights) (DBSP's H function generalised):
 *   DISTINCT: a > 0 ? 1 : 0            UNION (distinct) is DISTINCT over UNION ALL
 *   EXCEPT: a > 0 && b <= 0 ? 1 : 0     EXCEPT ALL: max(a - b, 0)
 *   INTERSECT: a > 0 && b > 0 ? 1 : 0   INTERSECT ALL: min(a, b)
 */
import { rowKey, type Row } from '../types/values.js';
import type { Watermarked } from '../plan/nodes.js';
import { finalFrom } from '../plan/waterline.js';
import type { Delta, Operator } from './zset.js';

interface SEntry {
  row: Row;
  a: number;
  b: number;
  out: number;
}

export type SetFn = (a: number, b: number) => number;

export const SET_FNS: Record<string, SetFn> = {
  DISTINCT: (a) => (a > 0 ? 1 : 0),
  EXCEPT: (a, b) => (a > 0 && b <= 0 ? 1 : 0),
  EXCEPT_ALL: (a, b) => Math.max(a - Math.max(b, 0), 0),
  INTERSECT: (a, b) => (a > 0 && b > 0 ? 1 : 0),
  INTERSECT_ALL: (a, b) => Math.max(Math.min(a, b), 0),
};

export class SetOp implements Operator {
  private readonly state = new Map<string, SEntry>();
  constructor(
    private readonly f: SetFn,
    /** DISTINCT: columns fed by LATENESS columns; a row whose value there is final can change no more. */
    private readonly gc: Array<Watermarked & { pos: number }> = [],
  ) {}

  /** Drops the rows that can get no more changes (LATENESS); their output stays in the views' contents. */
  release(watermark: (table: string, col: number) => number | undefined): void {
    if (!this.gc.length) return;
    const limits = this.gc.map((g) => ({ g, wm: watermark(g.table, g.col) })).filter((l) => l.wm !== undefined);
    if (!limits.length) return;
    for (const [k, e] of this.state)
      for (const { g, wm } of limits) {
        const v = e.row[g.pos];
        if (typeof v === 'number' && finalFrom(v, g) <= wm!) {
          this.state.delete(k);
          break;
        }
      }
  }

  stateSize(): number {
    return this.state.size;
  }

  step(inputs: Delta[]): Delta {
    const touched = new Map<string, SEntry>();
    inputs.forEach((d, side) => {
      for (const [row, w] of d) {
        const k = rowKey(row);
        let e = this.state.get(k);
        if (!e) {
          e = { row, a: 0, b: 0, out: 0 };
          this.state.set(k, e);
        }
        if (side === 0) e.a += w;
        else e.b += w;
        touched.set(k, e);
      }
    });
    const out: Delta = [];
    for (const [k, e] of touched) {
      const n = this.f(e.a, e.b);
      if (n !== e.out) out.push([e.row, n - e.out]);
      e.out = n;
      if (e.a === 0 && e.b === 0) this.state.delete(k);
    }
    return out;
  }
}
