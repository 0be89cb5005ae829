/**
 * An INTERVAL times or divided by a number (`i * n`, `n * i`, `i / n`), as Feldera's sqllib computes it: the
 * result keeps the interval's type and qualifier (a DAY TO HOUR interval stays DAY TO HOUR); a day-time
 * interval is scaled in microseconds, a year-month one in months, each truncated toward zero: by an integer
 * exactly; by a DECIMAL exactly (the decimal product or quotient, truncated); by a DOUBLE in floating point
 * (`(microseconds as f64 * n) as i64`). A day-time interval is held in milliseconds here, so the microseconds
 * are truncated again to milliseconds. Division by zero, or a result that is not finite, refuses the step with
 * Feldera's message. Pure.
 */
import { isDecimal, isFloat, isNumeric, type SqlType } from '../types/types.js';
import type { Value } from '../types/values.js';
import { IntOverflow, type IntSite } from '../types/int64.js';
import { pow10 } from '../types/decimal.js';
import { type BExpr, strict2 } from './bexpr.js';

/** `interval op number` (op Multiply or Divide); the caller has put the interval first. */
export function scaleInterval(op: 'Multiply' | 'Divide', interval: BExpr, n: BExpr, site: IntSite): BExpr {
  const ti = interval.type;
  const type: SqlType = { ...ti, nullable: ti.nullable || n.type.nullable };
  const months = ti.kind === 'INTERVAL_YM';
  // the interval in its unit of account: months, or microseconds
  const units = (x: Value): number => (months ? (x as number) : (x as number) * 1000);
  const back = (u: number): number => (months ? u : Math.trunc(u / 1000));
  const fail = (x: Value, y: Value): never => {
    throw new IntOverflow(site.text(), 'INTERVAL', `${op === 'Divide' ? 'overflow while dividing' : 'overflow in'} INTERVAL ${String(x)} ${op === 'Divide' ? '/' : '*'} ${String(y)} (${site.text()})`);
  };
  const finite = (u: number, x: Value, y: Value): number => (Number.isFinite(u) ? Math.trunc(u) + 0 : fail(x, y));
  if (isDecimal(n.type)) {
    const scale = BigInt(n.type.scale ?? 0);
    const one = pow10(Number(scale));
    return strict2(interval, n, type, (x, y) => {
      const d = y as bigint;
      const u = BigInt(units(x));
      if (op === 'Divide' && d === 0n) fail(x, y);
      // bigint division truncates toward zero
      return back(Number(op === 'Multiply' ? (u * d) / one : (u * one) / d)) + 0;
    });
  }
  if (isFloat(n.type)) {
    return strict2(interval, n, type, (x, y) => back(finite(op === 'Multiply' ? units(x) * (y as number) : units(x) / (y as number), x, y)) + 0);
  }
  // an integer (a bigint beyond 2^53)
  return strict2(interval, n, type, (x, y) => {
    const k = Number(y);
    if (op === 'Divide' && k === 0) fail(x, y);
    return back(op === 'Multiply' ? units(x) * k : Math.trunc(units(x) / k)) + 0;
  });
}

/** Whether `a op b` is an interval scaled by a number, either way round for `*`. */
export function isIntervalScaling(op: string, a: SqlType, b: SqlType): 'interval-first' | 'number-first' | undefined {
  const interval = (t: SqlType) => t.kind === 'INTERVAL_DT' || t.kind === 'INTERVAL_YM';
  if ((op === 'Multiply' || op === 'Divide') && interval(a) && isNumeric(b)) return 'interval-first';
  if (op === 'Multiply' && isNumeric(a) && interval(b)) return 'number-first';
  return undefined;
}
