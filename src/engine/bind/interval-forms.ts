/**
 * Feldera's interval expressions beyond literals (datetime.md):
 * - `(a - b) UNIT [TO UNIT]` on two DATEs, TIMESTAMPs or TIMEs: the difference as an interval of that qualifier.
 *   The pre-pass writes it as a field access `(a - b).UNIT[.TO.UNIT]` (parse/prepass.ts), so it reaches the
 *   binder as field nodes on a subtraction; `differenceInterval` answers undefined for any other field access.
 *   A day-time difference is exact (milliseconds; the qualifier only decides its text); a year-month one counts
 *   whole months as TIMESTAMPDIFF(MONTH) does (a month once its calendar day and time are reached).
 * - `INTERVAL expr UNIT [TO UNIT]` on a non-literal: a string read as the qualifier's text (NULL when it does
 *   not fit, as the engine's other failed casts), a number as a count of the (single) unit, an interval
 *   re-qualified.
 * Errors are SqlErrors with the form's position.
 */
import { SqlError, type Expr, type Pos } from '../parse/ast.js';
import { isInteger, isDecimal, isFloat, isString, mk, type SqlType } from '../types/types.js';
import { DAY_MS } from '../types/datetime.js';
import { decimalToNumber } from '../types/decimal.js';
import { intervalQualifier, isLongQualifier, parseInterval, unitMs } from '../types/interval-text.js';
import { type BExpr, strict1, strict2 } from './bexpr.js';
import { typeName } from './operators.js';
import { monthsBetween } from './fns/datetime.js';

/** The interval type of a qualifier. */
export function intervalType(qualifier: string, nullable: boolean): SqlType {
  return mk(isLongQualifier(qualifier) ? 'INTERVAL_YM' : 'INTERVAL_DT', nullable, { qualifier });
}

/** The field names of a chain of field accesses, innermost first, and the expression under them. */
function fieldChain(e: Expr): { base: Expr; names: string[] } | undefined {
  const names: string[] = [];
  let cur = e;
  while (cur.k === 'field') {
    if (cur.name.quoted) return undefined;
    names.unshift(cur.name.value.toUpperCase());
    cur = cur.expr;
  }
  return { base: cur, names };
}

/** `(a - b) UNIT [TO UNIT]` written as field accesses on a subtraction, bound; undefined when `e` is not that form. */
export function differenceInterval(e: Expr & { k: 'field' }, bind: (e: Expr) => BExpr): BExpr | undefined {
  const chain = fieldChain(e);
  if (!chain || chain.base.k !== 'bin' || chain.base.op !== 'Minus') return undefined;
  const { names } = chain;
  const qualifier = names.length === 1 ? intervalQualifier(names[0]!) : names.length === 3 && names[1] === 'TO' ? intervalQualifier(names[0]!, names[2]) : undefined;
  if (!qualifier) return undefined;
  const a = bind(chain.base.left);
  const b = bind(chain.base.right);
  const ka = a.type.kind;
  const kb = b.type.kind;
  const temporal = (k: string): boolean => k === 'DATE' || k === 'TIMESTAMP' || k === 'TIME';
  if (!temporal(ka) || !temporal(kb) || (ka === 'TIME') !== (kb === 'TIME')) {
    throw new SqlError(`Cannot apply '-' to arguments of type <${typeName(a.type)}> and <${typeName(b.type)}> in (a - b) ${qualifier}`, e.pos, 'type');
  }
  const type = intervalType(qualifier, a.type.nullable || b.type.nullable);
  if (ka === 'TIME') {
    if (type.kind === 'INTERVAL_YM') throw new SqlError(`The difference of two TIME values cannot be a ${qualifier} interval`, e.pos, 'type');
    return strict2(a, b, type, (x, y) => ((x as number) - (y as number)) / 1e6);
  }
  const ms = (k: string): ((v: number) => number) => (k === 'DATE' ? (v) => v * DAY_MS : (v) => v);
  const [ma, mb] = [ms(ka), ms(kb)];
  if (type.kind === 'INTERVAL_YM') return strict2(a, b, type, (x, y) => monthsBetween(mb(y as number), ma(x as number)));
  return strict2(a, b, type, (x, y) => ma(x as number) - mb(y as number));
}

/** `INTERVAL expr UNIT [TO UNIT]` on a value that is not a literal. */
export function intervalOfValue(v: BExpr, unit: string, lastUnit: string | undefined, pos: Pos): BExpr {
  const qualifier = intervalQualifier(unit, lastUnit);
  if (!qualifier) throw new SqlError(`Unsupported interval qualifier ${unit}${lastUnit ? ` TO ${lastUnit}` : ''}`, pos, 'unsupported');
  const type = intervalType(qualifier, v.type.nullable);
  const t = v.type;
  if (isString(t)) return strict1(v, { ...type, nullable: true }, (s) => parseInterval(s as string, qualifier) ?? null);
  if (t.kind === type.kind) return { ...v, type };
  if ((isInteger(t) || isDecimal(t) || isFloat(t)) && !qualifier.includes(' TO ')) {
    const per = qualifier === 'YEAR' ? 12 : qualifier === 'MONTH' ? 1 : unitMs(qualifier)!;
    const num = isDecimal(t) ? (x: unknown) => decimalToNumber(x as bigint, t.scale ?? 0) : (x: unknown) => Number(x);
    return strict1(v, type, (x) => Math.round(num(x) * per) + 0);
  }
  throw new SqlError(`Cannot apply 'INTERVAL' to arguments of type <${typeName(t)}>`, pos, 'type');
}
