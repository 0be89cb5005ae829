/**
 * Watermark lineage of an expression (plan/waterline.ts Watermarked): which LATENESS column its values follow
 * and by how much, so that a view's `emit_final` column, a GROUP BY key or a DISTINCT column computed from a
 * LATENESS column knows when a value is final (Feldera: expressions that keep a column monotone keep its
 * waterline). Contract: `exprLineage(e, column)` gives the lineage of `e` or undefined (then nothing is ever
 * final by it, the safe answer); `column` tells the lineage and type of a column reference in the caller's
 * scope. Followed, and nothing else:
 *  - a column: its own lineage (any type);
 *  - over a TIMESTAMP with a plain lineage (no calendar unit, no scale): `x + INTERVAL`, `INTERVAL + x`,
 *    `x - INTERVAL` with a literal day-time interval, and `TIMESTAMPADD(unit, n, x)` for units of fixed length
 *    (a value v comes from x = v - shift, so its slack is the column's minus the shift);
 *  - `TIMESTAMP_TRUNC(x, unit)` / `DATE_TRUNC(unit, x)` of a TIMESTAMP: v gets rows from x in [v, v + one unit),
 *    so v + one unit - 1 + x's slack is when it is final (for a LATENESS column, slack 1: once v + one unit <=
 *    the waterline, as Feldera's docs' emit_final table has it). MONTH, QUARTER and YEAR count their longest
 *    length and name their unit, so that waterline.ts finalFrom takes v's own length;
 *  - `CAST(x AS DATE)` of a TIMESTAMP: the day d is final as TIMESTAMP_TRUNC(x, DAY) is, its value counted in days.
 * Pure: reads the syntax tree and what `column` answers.
 */
import type { Expr } from '../parse/ast.js';
import { CALENDAR_LONGEST, type CalendarUnit, type Watermarked } from '../plan/waterline.js';
import type { SqlType } from '../types/types.js';
import { dataTypeToSql } from '../types/parse-type.js';
import { intervalLiteral, isIntervalLiteral } from './operators.js';

/** What the caller's scope knows of a column reference: its type and lineage; undefined when it does not resolve. */
export type ColumnLineage = (col: Expr & { k: 'col' }) => { type: SqlType; wm?: Watermarked } | undefined;

const DAY_MS = 86_400_000;

/** Fixed lengths of units, in milliseconds (TIMESTAMP_TRUNC's longest for the calendar ones). */
const FIXED_MS: Record<string, number> = { MILLISECOND: 1, SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000, DAY: DAY_MS, WEEK: 7 * DAY_MS };
const TRUNC_MS: Record<string, number> = { ...FIXED_MS, ...CALENDAR_LONGEST };

export function exprLineage(e: Expr, column: ColumnLineage): Watermarked | undefined {
  if (e.k === 'col') return safe(() => column(e)?.wm);
  if (e.k === 'cast') return dateCast(e, column);
  return timestampLineage(e, column);
}

/** Lineage of an expression known to be a TIMESTAMP; undefined when it is not known to be one or has none. */
function timestampLineage(e: Expr, column: ColumnLineage): Watermarked | undefined {
  switch (e.k) {
    case 'col': {
      const c = safe(() => column(e));
      return c && c.type.kind === 'TIMESTAMP' ? c.wm : undefined;
    }
    case 'bin': {
      if (e.op !== 'Plus' && e.op !== 'Minus') return undefined;
      const rightShift = intervalMs(e.right);
      if (rightShift !== undefined) return shifted(timestampLineage(e.left, column), e.op === 'Plus' ? rightShift : -rightShift);
      const leftShift = e.op === 'Plus' ? intervalMs(e.left) : undefined;
      return leftShift !== undefined ? shifted(timestampLineage(e.right, column), leftShift) : undefined;
    }
    case 'func': {
      const name = e.name.toUpperCase();
      if (e.over || e.args.length !== 3 || name !== 'TIMESTAMPADD') return name === 'TIMESTAMP_TRUNC' || name === 'DATE_TRUNC' ? truncated(e, column) : undefined;
      const unit = unitOf(e.args[0]!);
      const n = integerOf(e.args[1]!);
      if (!unit || FIXED_MS[unit] === undefined || n === undefined) return undefined;
      return shifted(timestampLineage(e.args[2]!, column), n * FIXED_MS[unit]);
    }
    default:
      return undefined;
  }
}

function truncated(e: Expr & { k: 'func' }, column: ColumnLineage): Watermarked | undefined {
  if (e.args.length !== 2) return undefined;
  const [x, y] = e.args as [Expr, Expr];
  // TIMESTAMP_TRUNC(ts, unit) or DATE_TRUNC(unit, ts), whichever argument is the unit
  const unitX = unitOf(x);
  const [valueArg, unit] = unitX && TRUNC_MS[unitX] && !(x.k === 'col' && safe(() => column(x))) ? [y, unitX] : [x, unitOf(y)];
  if (!unit || TRUNC_MS[unit] === undefined) return undefined;
  const wm = timestampLineage(valueArg, column);
  if (!wm || wm.scale || wm.calendar) return undefined;
  const slack = wm.slack - 1 + TRUNC_MS[unit];
  return unit in CALENDAR_LONGEST ? { table: wm.table, col: wm.col, slack, calendar: unit as CalendarUnit } : { table: wm.table, col: wm.col, slack };
}

function dateCast(e: Expr & { k: 'cast' }, column: ColumnLineage): Watermarked | undefined {
  const target = safe(() => dataTypeToSql(e.type));
  if (!target || target.kind !== 'DATE') return undefined;
  const wm = timestampLineage(e.expr, column);
  if (!wm || wm.scale || wm.calendar) return undefined;
  return { table: wm.table, col: wm.col, slack: wm.slack - 1 + DAY_MS, scale: DAY_MS };
}

/** A value v = x + shift comes from x = v - shift: final when x's lineage says, at slack - shift. */
function shifted(wm: Watermarked | undefined, shiftMs: number): Watermarked | undefined {
  if (!wm || wm.scale || wm.calendar || !Number.isFinite(shiftMs)) return undefined;
  return { table: wm.table, col: wm.col, slack: wm.slack - shiftMs };
}

/** The milliseconds of a literal day-time INTERVAL; undefined for anything else (YEAR/MONTH intervals vary). */
function intervalMs(e: Expr): number | undefined {
  if (e.k !== 'interval' || !isIntervalLiteral(e)) return undefined;
  const b = safe(() => intervalLiteral(e));
  if (!b || b.type.kind !== 'INTERVAL_DT') return undefined;
  const v = b.fn([]);
  return typeof v === 'number' ? v : undefined;
}

function unitOf(e: Expr): string | undefined {
  if (e.k === 'str') return e.value.toUpperCase();
  if (e.k === 'col' && e.parts.length === 1) return e.parts[0]!.value.toUpperCase();
  return undefined;
}

function integerOf(e: Expr): number | undefined {
  if (e.k === 'num' && /^\d+$/.test(e.text)) return Number(e.text);
  if (e.k === 'un' && e.op === 'NEG' && e.expr.k === 'num' && /^\d+$/.test(e.expr.text)) return -Number(e.expr.text);
  return undefined;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
