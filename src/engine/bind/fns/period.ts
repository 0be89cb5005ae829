/**
 * Period predicates (Feldera docs/sql/datetime.md, "Period predicate DATE/TIME/TIMESTAMP operators"):
 * (s1, e1) OVERLAPS | CONTAINS | EQUALS | PRECEDES | SUCCEEDS | IMMEDIATELY PRECEDES | IMMEDIATELY SUCCEEDS
 * (s2, e2), and (s1, e1) CONTAINS value. The parser adapter turns each into a call of that name with the four
 * (or three) values.
 *
 * Rules, as Calcite's convertlet that Feldera uses:
 * - an end that is an INTERVAL means start + interval (a negative interval is allowed);
 * - each period is put in order: (s, e) with s <= e, swapping when `s <= e` is not TRUE (so also when it is NULL);
 * - then OVERLAPS: e1 >= s2 AND e2 >= s1; CONTAINS: s1 <= s2 AND e1 >= e2; EQUALS: s1 = s2 AND e1 = e2;
 *   PRECEDES: e1 <= s2; IMMEDIATELY PRECEDES: e1 = s2; SUCCEEDS: s1 >= e2; IMMEDIATELY SUCCEEDS: s1 = e2;
 *   with SQL's three-valued AND (NULL unless a FALSE decides).
 * - the values are DATE, TIME or TIMESTAMP, all of one kind.
 */
import type { Pos } from '../../parse/ast.js';
import { mk } from '../../types/types.js';
import { compareValues, type Row, type Value } from '../../types/values.js';
import { arithmetic } from '../operators.js';
import type { BExpr } from '../bexpr.js';
import { argc, nullableOf, typeErr } from './args.js';
import type { FnTable, ScalarFn } from './registry.js';

type Cmp = (a: Value, b: Value) => boolean | null;
const cmp =
  (test: (c: number) => boolean): Cmp =>
  (a, b) =>
    a === null || b === null ? null : test(compareValues(a, b));
const le = cmp((c) => c <= 0);
const ge = cmp((c) => c >= 0);
const eq = cmp((c) => c === 0);

function and(x: boolean | null, y: boolean | null): boolean | null {
  if (x === false || y === false) return false;
  return x === null || y === null ? null : true;
}

/** (s1, e1, s2, e2), both periods in order -> the predicate's value. */
type Rule = (s1: Value, e1: Value, s2: Value, e2: Value) => boolean | null;

const RULES: Record<string, [string, Rule]> = {
  OVERLAPS: ['e1 >= s2 AND e2 >= s1', (s1, e1, s2, e2) => and(ge(e1, s2), ge(e2, s1))],
  CONTAINS: ['s1 <= s2 AND e1 >= e2', (s1, e1, s2, e2) => and(le(s1, s2), ge(e1, e2))],
  EQUALS: ['s1 = s2 AND e1 = e2', (s1, e1, s2, e2) => and(eq(s1, s2), eq(e1, e2))],
  PRECEDES: ['e1 <= s2', (_s1, e1, s2) => le(e1, s2)],
  'IMMEDIATELY PRECEDES': ['e1 = s2', (_s1, e1, s2) => eq(e1, s2)],
  SUCCEEDS: ['s1 >= e2', (s1, _e1, _s2, e2) => ge(s1, e2)],
  'IMMEDIATELY SUCCEEDS': ['s1 = e2', (s1, _e1, _s2, e2) => eq(s1, e2)],
};

/** The end of a period: an INTERVAL end is added to the start. */
function periodEnd(name: string, start: BExpr, end: BExpr, pos: Pos): BExpr {
  if (end.type.kind === 'INTERVAL_DT' || end.type.kind === 'INTERVAL_YM') {
    if (start.type.kind === 'TIME' && end.type.kind === 'INTERVAL_YM') throw typeErr(name, [start, end], pos, ': a TIME period needs a day-time INTERVAL');
    return arithmetic('Plus', start, end, pos);
  }
  return end;
}

function periodFn(name: string): ScalarFn {
  const [text, rule] = RULES[name]!;
  return {
    sig: `(start1, end1) ${name} (start2, end2)${name === 'CONTAINS' ? ' | (start1, end1) CONTAINS value' : ''} -> BOOLEAN: ${text}, each period ordered first; an INTERVAL end means start + interval`,
    nulls: 'three-valued: NULL unless a FALSE comparison decides',
    bind: (args, pos) => {
      argc(name, args, name === 'CONTAINS' ? 3 : 4, 4, pos);
      const vals = args.length === 3 ? [args[0]!, args[1]!, args[2]!, args[2]!] : args;
      const s1 = vals[0]!;
      const e1 = periodEnd(name, s1, vals[1]!, pos);
      const s2 = vals[2]!;
      const e2 = args.length === 3 ? s2 : periodEnd(name, s2, vals[3]!, pos);
      const all = [s1, e1, s2, e2];
      const kinds = new Set(all.map((a) => a.type.kind).filter((k) => k !== 'NULL'));
      if (kinds.size > 1 || [...kinds].some((k) => k !== 'DATE' && k !== 'TIME' && k !== 'TIMESTAMP')) throw typeErr(name, args, pos, ': the periods need DATE, TIME or TIMESTAMP values of one type');
      const [fs1, fe1, fs2, fe2] = all.map((a) => a.fn) as [(r: Row) => Value, (r: Row) => Value, (r: Row) => Value, (r: Row) => Value];
      return {
        type: mk('BOOLEAN', nullableOf(all)),
        fn: (row) => {
          let a = fs1(row);
          let b = fe1(row);
          if (le(a, b) !== true) [a, b] = [b, a];
          let c = fs2(row);
          let d = fe2(row);
          if (le(c, d) !== true) [c, d] = [d, c];
          return rule(a, b, c, d);
        },
      };
    },
  };
}

export const PERIOD_FNS: FnTable = Object.fromEntries(Object.keys(RULES).map((n) => [n, periodFn(n)]));
