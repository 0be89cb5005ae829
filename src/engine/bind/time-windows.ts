/**
 * Tumbling and hopping windows over a TIMESTAMP column, written once for both forms Feldera takes:
 * `TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size [, offset]))` / `HOP(..., slide, size [, offset])` in FROM
 * (bind/from.ts) and `GROUP BY TUMBLE(ts, size [, offset])` / `HOP(ts, slide, size [, offset])`
 * (bind/group-window.ts). Contract: `windowsNode` appends each row's window bounds (start, end: TIMESTAMP NOT
 * NULL, ms) as two columns: one row per window holding the row's ts (a HOP row is in size/slide windows, the
 * earliest first); a NULL ts gives no row. Windows start at offset + k * slide (slide = size for TUMBLE). The
 * bounds carry the ts column's watermark lineage (a window whose end is at or before the watermark is final).
 */
import { SqlError, type Expr, type Pos } from '../parse/ast.js';
import { type PlanColumn, type PlanNode } from '../plan/nodes.js';
import type { Row } from '../types/values.js';
import { FlatMapOp } from '../ops/linear.js';
import { bindExpr, type BindCtx } from './expr.js';
import type { CompileSession } from './compile-session.js';

export interface WindowShape {
  kind: 'TUMBLE' | 'HOP';
  /** Milliseconds. */
  size: number;
  slide: number;
  offset: number;
}

/** The shape from the interval arguments after the time column: TUMBLE (size [, offset]), HOP (slide, size [, offset]). */
export function windowShape(kind: 'TUMBLE' | 'HOP', args: Array<Expr | undefined>, ctx: BindCtx, pos: Pos): WindowShape {
  const ival = (e: Expr | undefined, what: string): number => {
    if (!e) throw new SqlError(`${kind} needs ${what}`, pos, 'syntax');
    const b = bindExpr(e, ctx);
    if (!b.constant || b.type.kind !== 'INTERVAL_DT') throw new SqlError(`${kind} ${what} must be a constant day-time INTERVAL`, e.pos, 'type');
    return b.fn([]) as number;
  };
  const max = kind === 'TUMBLE' ? 2 : 3;
  if (args.length > max) throw new SqlError(`${kind} takes at most ${max} intervals after the time column`, args[max]?.pos ?? pos, 'syntax');
  if (kind === 'TUMBLE') {
    const size = ival(args[0], 'a window size');
    const offset = args[1] ? ival(args[1], 'an offset') : 0;
    if (size <= 0) throw new SqlError('TUMBLE size must be positive', pos, 'type');
    return { kind, size, slide: size, offset };
  }
  const slide = ival(args[0], 'a slide');
  const size = ival(args[1], 'a window size');
  const offset = args[2] ? ival(args[2], 'an offset') : 0;
  if (slide <= 0 || size <= 0) throw new SqlError('HOP slide and size must be positive', pos, 'type');
  return { kind, size, slide, offset };
}

/** Each row of `input` followed by the bounds of every window of `shape` holding its column `tsIdx`. */
export function windowsNode(session: CompileSession, input: PlanNode, tsIdx: number, shape: WindowShape, bounds: [PlanColumn, PlanColumn]): PlanNode {
  const { size, slide, offset } = shape;
  const fn = (row: Row): Row[] => {
    const ts = row[tsIdx] as number | null;
    if (ts === null) return [];
    let start = Math.floor((ts - offset) / slide) * slide + offset;
    if (slide === size) return [row.concat([start, start + size])];
    const starts: number[] = [];
    while (start + size > ts) {
      starts.push(start);
      start -= slide;
    }
    const out: Row[] = [];
    for (let i = starts.length - 1; i >= 0; i--) out.push(row.concat([starts[i]!, starts[i]! + size]));
    return out;
  };
  const srcWm = input.columns[tsIdx]?.wm;
  // (a window bound is no calendar unit: a source's calendar refinement does not carry over, its slack does)
  const bound = (extra: number): PlanColumn['wm'] => srcWm && { table: srcWm.table, col: srcWm.col, slack: srcWm.slack - 1 + extra };
  const columns: PlanColumn[] = [...input.columns, { ...bounds[0], wm: bound(size) }, { ...bounds[1], wm: bound(0) }];
  return session.node({ kind: shape.kind === 'TUMBLE' ? 'tumble' : 'hop', inputs: [input], columns, make: () => new FlatMapOp(fn) });
}
