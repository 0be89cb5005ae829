/**
 * `FLOOR(x TO unit)` and `CEIL(x TO unit)` on DATE, TIMESTAMP and TIME (Feldera's datetime.md): the unit
 * boundary at or below / at or above x. The adapter writes them as the calls `FLOOR$TO(x, 'UNIT')` and
 * `CEIL$TO(x, 'UNIT')` (names SQL cannot spell). Units: MILLENNIUM (2000 begins one), CENTURY, DECADE, YEAR, QUARTER, MONTH, WEEK (Sunday), DAY, HOUR, MINUTE,
 * SECOND, MILLISECOND, MICROSECOND (a TIMESTAMP holds microseconds); a TIME
 * takes HOUR to MICROSECOND. Another argument type is refused with Calcite's "Cannot apply" text.
 */
import { SqlError } from '../../parse/ast.js';
import { mk, typeToString } from '../../types/types.js';
import { addMonthsTs, DAY_MS, truncTimestamp, tsSplit } from '../../types/datetime.js';
import { strict1 } from '../bexpr.js';
import { argc, nullableOf } from './args.js';
import type { FnTable, ScalarFn } from './registry.js';

/** Units below a millisecond's boundary, in microseconds (a TIMESTAMP holds microseconds). */
const SUB_MS: Readonly<Record<string, number>> = { MILLISECOND: 1000, MICROSECOND: 1 };
const TIME_STEP_NS: Readonly<Record<string, number>> = { HOUR: 3_600e9, MINUTE: 60e9, SECOND: 1e9, MILLISECOND: 1e6, MICROSECOND: 1e3 };

/** The boundary after `t` (a boundary itself) of `unit`, in milliseconds. */
function nextBoundary(unit: string, t: number): number {
  switch (unit) {
    case 'MILLENNIUM':
      return addMonthsTs(t, 12_000);
    case 'CENTURY':
      return addMonthsTs(t, 1200);
    case 'DECADE':
      return addMonthsTs(t, 120);
    case 'YEAR':
      return addMonthsTs(t, 12);
    case 'QUARTER':
      return addMonthsTs(t, 3);
    case 'MONTH':
      return addMonthsTs(t, 1);
    case 'WEEK':
      return t + 7 * DAY_MS;
    case 'DAY':
      return t + DAY_MS;
    case 'HOUR':
      return t + 3_600_000;
    case 'MINUTE':
      return t + 60_000;
    default:
      return t + 1000;
  }
}

function roundTo(up: boolean): ScalarFn {
  const word = up ? 'CEIL' : 'FLOOR';
  return {
    sig: `${word}(datetime TO unit): the ${up ? 'first' : 'last'} unit boundary ${up ? 'at or above' : 'at or below'} it`,
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const [x, unitArg] = args as [(typeof args)[0], (typeof args)[0]];
      const unit = String(unitArg.fn([])).toUpperCase();
      const n = nullableOf([x]);
      const refuse = (): never => {
        throw new SqlError(`Cannot apply '${word}' to arguments of type '${word}(<${typeToString(x.type)}> TO ${unit})'`, pos, 'type');
      };
      if (x.type.kind === 'TIME') {
        const step = TIME_STEP_NS[unit] ?? refuse();
        return strict1(x, mk('TIME', n), (v) => ((up ? Math.ceil((v as number) / step) : Math.floor((v as number) / step)) * step) % (DAY_MS * 1e6));
      }
      if (x.type.kind !== 'DATE' && x.type.kind !== 'TIMESTAMP') return refuse();
      const round = (ms: number): number => {
        const sub = SUB_MS[unit];
        if (sub) {
          const [whole, us] = tsSplit(ms);
          if (sub === 1 || us === 0) return ms;
          return up ? whole + 1 : whole; // to the millisecond
        }
        const t = truncTimestamp(unit, ms) ?? refuse();
        return up && t !== ms ? nextBoundary(unit, t) : t;
      };
      if (SUB_MS[unit] === undefined && truncTimestamp(unit, 0) === undefined) refuse();
      if (x.type.kind === 'DATE') return strict1(x, mk('DATE', n), (v) => Math.round(round((v as number) * DAY_MS) / DAY_MS));
      return strict1(x, mk('TIMESTAMP', n, x.type.tz ? { tz: true } : {}), (v) => round(v as number));
    },
  };
}

export const FLOOR_CEIL_TO_FNS: FnTable = {
  FLOOR$TO: roundTo(false),
  CEIL$TO: roundTo(true),
};
