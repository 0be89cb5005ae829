/**
 * When a value of a column with LATENESS lineage is final (Feldera's waterline rule: every future row of the
 * table column is at or above its waterline W, so a value is final once no such row can produce it).
 *
 * A lineage (Watermarked, below) says a value v can no longer change once v + slack <= W. A calendar
 * truncation (`TIMESTAMP_TRUNC(ts, MONTH|QUARTER|YEAR)`) counts its unit's longest length in slack, so that
 * anything reading only the slack stays on the safe side, and names its unit: `finalFrom` then takes the
 * length of v's own month, quarter or year (February is final when March begins, not 3 days later). Pure.
 */
const DAY_MS = 86_400_000;

export type CalendarUnit = 'MONTH' | 'QUARTER' | 'YEAR';

/** A column's watermark lineage (carried by plan/nodes.ts PlanColumn.wm): its values come from a LATENESS column. */
export interface Watermarked {
  table: string;
  col: number;
  slack: number;
  /** A calendar truncation's unit: slack counts its longest length, finalFrom v's own. */
  calendar?: CalendarUnit;
  /** Values count units of this many milliseconds of the table column (a DATE cast from a TIMESTAMP: a day); absent: the column's own unit. */
  scale?: number;
}

/** The longest length of each calendar unit, in milliseconds (what its lineage's slack counts). */
export const CALENDAR_LONGEST: Record<CalendarUnit, number> = { MONTH: 31 * DAY_MS, QUARTER: 92 * DAY_MS, YEAR: 366 * DAY_MS };

/** The first day of month `m` of year `y` (months past 11 roll over), UTC; years 0-99 are not read as 19xx. */
function monthStart(y: number, m: number): number {
  const d = new Date(0);
  d.setUTCFullYear(y, m, 1);
  return d.getTime();
}

/** The start of the unit after the one starting at `start` (UTC milliseconds). */
function nextUnit(start: number, unit: CalendarUnit): number {
  const d = new Date(start);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (unit === 'YEAR') return monthStart(y + 1, 0);
  if (unit === 'QUARTER') return monthStart(y, m - (m % 3) + 3);
  return monthStart(y, m + 1);
}

/** The waterline from which the value `v` of a column with lineage `wm` is final: final once this <= W. */
export function finalFrom(v: number, wm: Watermarked): number {
  if (wm.scale) return v * wm.scale + wm.slack;
  if (!wm.calendar) return v + wm.slack;
  const length = nextUnit(v, wm.calendar) - v;
  return v + wm.slack - Math.max(0, CALENDAR_LONGEST[wm.calendar] - length);
}
