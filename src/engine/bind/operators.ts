/** Operators and literals: implicit coercions, comparisons, arithmetic (Calcite typing), AND/OR, LIKE, intervals. */
import { SqlError, type Expr, type Pos } from '../parse/ast.js';
import { type SqlType, mk, commonType, isFloat, isDecimal, isNumeric, isString, isTemporal, isUnsigned, intResultKind, intDigits, withNull } from '../types/types.js';
import { compareValues, type Value } from '../types/values.js';
import { INT_BOUNDS, intBinary, normInt, type IntSite } from '../types/int64.js';
import { posSite } from './expr-text.js';
import { parseDecimal, pow10, rescale, rescaleRound } from '../types/decimal.js';
import { addMonthsTs, DAY_MS, tsMicrosBetween, tsPlusMs } from '../types/datetime.js';
import { intervalQualifier, intervalUnit, unionQualifier } from '../types/interval-text.js';

const DAY_NS = DAY_MS * 1e6;
import { castFn } from './cast.js';
import { isIntervalScaling, scaleInterval } from './interval-scale.js';
import { type BExpr, constant, strict1, strict2 } from './bexpr.js';

export function coerce(e: BExpr, to: SqlType, pos: Pos): BExpr {
  if (e.type.kind === to.kind && e.type.scale === to.scale && to.kind !== 'ARRAY') return { ...e, type: withNull(to, e.type.nullable) };
  const c = castFn(e.type, to, pos);
  const r = strict1(e, withNull(to, e.type.nullable), c);
  return r;
}

export function typeName(t: SqlType): string {
  return t.kind === 'INTERVAL_DT' || t.kind === 'INTERVAL_YM' ? 'INTERVAL' : t.kind;
}

/** Bring two operands of a comparison to one type; string literals are coerced to temporal types. */
/** A string as the bytes its hex digits spell (NULL when they do not). */
const hexBytes = (e: BExpr): BExpr => strict1(e, mk('VARBINARY', e.type.nullable), (v) => (/^(?:[0-9a-fA-F]{2})*$/.test(v as string) ? (v as string).toLowerCase() : null));

export function unify(a: BExpr, b: BExpr, pos: Pos, what: string): [BExpr, BExpr, SqlType] {
  if (isTemporal(a.type) && isString(b.type)) b = coerce(b, mk(a.type.kind), pos);
  else if (isTemporal(b.type) && isString(a.type)) a = coerce(a, mk(b.type.kind), pos);
  else if (a.type.kind === 'BOOLEAN' && isString(b.type) && b.constant) b = coerce(b, mk('BOOLEAN'), pos);
  else if (b.type.kind === 'BOOLEAN' && isString(a.type) && a.constant) a = coerce(a, mk('BOOLEAN'), pos);
  // a string constant met with bytes is read as hex digits, as Calcite reads it: bin = '0b1620'
  else if (a.type.kind === 'VARBINARY' && isString(b.type) && b.constant) b = hexBytes(b);
  else if (b.type.kind === 'VARBINARY' && isString(a.type) && a.constant) a = hexBytes(a);
  const t = commonType(a.type, b.type);
  if (!t) throw new SqlError(`Cannot apply '${what}' to arguments of type <${typeName(a.type)}> and <${typeName(b.type)}>`, pos, 'type');
  return [coerce(a, t, pos), coerce(b, t, pos), t];
}

export function numLiteral(text: string, pos: Pos): BExpr {
  if (/[eE]/.test(text)) return constant(mk('DOUBLE', false), Number(text));
  if (text.includes('.')) {
    const [i, f] = text.split('.');
    const scale = f!.length;
    const precision = Math.max(i!.replace(/^0+/, '').length + scale, 1);
    return constant(mk('DECIMAL', false, { precision, scale }), parseDecimal(text, scale)!);
  }
  const n = Number(text);
  if (!Number.isSafeInteger(n)) {
    // a literal that fits BIGINT is a BIGINT (exact, a bigint beyond 2^53), a longer one a DECIMAL
    const b = /^\d+$/.test(text) ? BigInt(text) : undefined;
    if (b !== undefined && b <= INT_BOUNDS.BIGINT!.bhi) return constant(mk('BIGINT', false), normInt(b));
    const d = parseDecimal(text, 0);
    if (d === undefined) throw new SqlError(`bad number ${text}`, pos, 'syntax');
    return constant(mk('DECIMAL', false, { precision: text.length, scale: 0 }), d);
  }
  if (n >= -2147483648 && n <= 2147483647) return constant(mk('INTEGER', false), n);
  return constant(mk('BIGINT', false), n);
}

const DT_UNITS: Record<string, number> = {
  SECOND: 1000,
  SECONDS: 1000,
  MINUTE: 60_000,
  MINUTES: 60_000,
  HOUR: 3_600_000,
  HOURS: 3_600_000,
  DAY: DAY_MS,
  DAYS: DAY_MS,
  WEEK: 7 * DAY_MS,
  MILLISECOND: 1,
  MILLISECONDS: 1,
};

/** Whether an INTERVAL's value is a literal (a string or a number, maybe negated); other values are intervalOfValue's. */
export function isIntervalLiteral(e: Expr & { k: 'interval' }): boolean {
  return e.value.k === 'str' || e.value.k === 'num' || (e.value.k === 'un' && e.value.op === 'NEG' && e.value.expr.k === 'num');
}

/** An INTERVAL literal, its type carrying its qualifier (which decides its text: interval-text.ts). */
export function intervalLiteral(e: Expr & { k: 'interval' }): BExpr {
  const r = intervalLiteralValue(e);
  const qualifier = intervalQualifier(e.unit, e.lastUnit);
  return qualifier ? { ...r, type: { ...r.type, qualifier } } : r;
}

function intervalLiteralValue(e: Expr & { k: 'interval' }): BExpr {
  let text: string;
  if (e.value.k === 'str') text = e.value.value;
  else if (e.value.k === 'num') text = e.value.text;
  else if (e.value.k === 'un' && e.value.op === 'NEG' && e.value.expr.k === 'num') text = '-' + e.value.expr.text;
  else throw new SqlError('INTERVAL needs a literal value', e.pos, 'unsupported');
  text = text.trim();
  if (e.lastUnit) {
    // 'D HH:MM:SS' style (DAY TO SECOND etc.) and 'Y-M' (YEAR TO MONTH)
    const startUnit = intervalUnit(e.unit) ?? e.unit; // DAYS TO SECONDS is DAY TO SECOND
    if (startUnit === 'YEAR' && intervalUnit(e.lastUnit) === 'MONTH') {
      const m = /^([+-]?)(\d+)-(\d+)$/.exec(text);
      if (!m) throw new SqlError(`Illegal interval literal '${text}'`, e.pos, 'syntax');
      const v = +m[2]! * 12 + +m[3]!;
      return constant(mk('INTERVAL_YM', false), m[1] === '-' ? -v : v);
    }
    const m = /^([+-]?)(?:(\d+) )?(\d+)(?::(\d+))?(?::(\d+(?:\.\d+)?))?$/.exec(text);
    if (!m) throw new SqlError(`Illegal interval literal '${text}'`, e.pos, 'syntax');
    const nums = [m[2], m[3], m[4], m[5]].filter((x) => x !== undefined).map(Number);
    const units = ['DAY', 'HOUR', 'MINUTE', 'SECOND'];
    const start = units.indexOf(startUnit);
    let ms = 0;
    nums.forEach((n, i) => {
      ms += n * DT_UNITS[units[start + i] ?? 'SECOND']!;
    });
    return constant(mk('INTERVAL_DT', false), m[1] === '-' ? -ms : ms);
  }
  const n = Number(text);
  if (!Number.isFinite(n)) throw new SqlError(`Illegal interval literal '${text}'`, e.pos, 'syntax');
  if (e.unit === 'YEAR' || e.unit === 'YEARS') return constant(mk('INTERVAL_YM', false), n * 12);
  if (e.unit === 'MONTH' || e.unit === 'MONTHS') return constant(mk('INTERVAL_YM', false), n);
  const f = DT_UNITS[e.unit];
  if (f === undefined) throw new SqlError(`Unsupported interval unit ${e.unit}`, e.pos, 'unsupported');
  return constant(mk('INTERVAL_DT', false), Math.round(n * f));
}

/**
 * AND and OR with SQL's three values: `decides` (false for AND, true for OR) on either side is the answer, the
 * right side not computed when the left decides; else NULL if either is NULL, else the other value.
 */
function shortCircuit(decides: boolean, a: BExpr, b: BExpr): BExpr {
  const af = a.fn;
  const bf = b.fn;
  return {
    type: mk('BOOLEAN', a.type.nullable || b.type.nullable),
    fn: (row) => {
      const x = af(row);
      if (x === decides) return decides;
      const y = bf(row);
      if (y === decides) return decides;
      if (x === null || y === null) return null;
      return !decides;
    },
  };
}

export const andFn = (a: BExpr, b: BExpr): BExpr => shortCircuit(false, a, b);
export const orFn = (a: BExpr, b: BExpr): BExpr => shortCircuit(true, a, b);

export function requireBool(e: BExpr, pos: Pos, what: string): BExpr {
  if (e.type.kind !== 'BOOLEAN' && e.type.kind !== 'NULL') throw new SqlError(`${what} requires a BOOLEAN operand, got ${typeName(e.type)}`, pos, 'type');
  return e;
}

const COMPARISON_SYMBOLS: Readonly<Record<string, string>> = { Eq: '=', NotEq: '<>', Lt: '<', LtEq: '<=', Gt: '>', GtEq: '>=' };

export function comparison(op: string, a: BExpr, b: BExpr, pos: Pos): BExpr {
  const symbol = COMPARISON_SYMBOLS[op] ?? op;
  const [x, y] = unify(a, b, pos, symbol);
  // Feldera refuses equality of ROW values (its message); it orders them (<, >= ...)
  if (x.type.kind === 'ROW' && (op === 'Eq' || op === 'NotEq')) throw new SqlError(`ROW values cannot be compared using '${symbol}'`, pos, 'type');
  const t = mk('BOOLEAN', x.type.nullable || y.type.nullable);
  const cmp = compareValues;
  switch (op) {
    case 'Eq':
      return strict2(x, y, t, (p, q) => cmp(p, q) === 0);
    case 'NotEq':
      return strict2(x, y, t, (p, q) => cmp(p, q) !== 0);
    case 'Lt':
      return strict2(x, y, t, (p, q) => cmp(p, q) < 0);
    case 'LtEq':
      return strict2(x, y, t, (p, q) => cmp(p, q) <= 0);
    case 'Gt':
      return strict2(x, y, t, (p, q) => cmp(p, q) > 0);
    case 'GtEq':
      return strict2(x, y, t, (p, q) => cmp(p, q) >= 0);
  }
  throw new SqlError(`unknown comparison ${op}`, pos);
}

function decimalOf(e: BExpr, pos: Pos): BExpr {
  if (isDecimal(e.type)) return e;
  return coerce(e, mk('DECIMAL', e.type.nullable, { precision: intDigits(e.type), scale: 0 }), pos);
}

export function arithmetic(op: string, a: BExpr, b: BExpr, pos: Pos, site: IntSite = posSite(op, pos)): BExpr {
  const nullable = a.type.nullable || b.type.nullable;
  const ta = a.type;
  const tb = b.type;
  const sym = { Plus: '+', Minus: '-', Multiply: '*', Divide: '/', Modulo: '%' }[op] ?? op;
  // temporal arithmetic
  if ((ta.kind === 'TIMESTAMP' || ta.kind === 'DATE') && (tb.kind === 'INTERVAL_DT' || tb.kind === 'INTERVAL_YM') && (op === 'Plus' || op === 'Minus')) {
    const sign = op === 'Plus' ? 1 : -1;
    if (ta.kind === 'TIMESTAMP') {
      const out = mk('TIMESTAMP', nullable, ta.tz ? { tz: true } : {}); // WITH TIME ZONE stays so
      if (tb.kind === 'INTERVAL_DT') return strict2(a, b, out, (x, y) => tsPlusMs(x as number, sign * (y as number)));
      return strict2(a, b, out, (x, y) => addMonthsTs(x as number, sign * (y as number)));
    }
    if (tb.kind === 'INTERVAL_DT') return strict2(a, b, mk('DATE', nullable), (x, y) => (x as number) + Math.trunc((sign * (y as number)) / DAY_MS));
    return strict2(a, b, mk('DATE', nullable), (x, y) => Math.round(addMonthsTs((x as number) * DAY_MS, sign * (y as number)) / DAY_MS));
  }
  if ((tb.kind === 'TIMESTAMP' || tb.kind === 'DATE' || tb.kind === 'TIME') && (ta.kind === 'INTERVAL_DT' || ta.kind === 'INTERVAL_YM') && op === 'Plus') return arithmetic(op, b, a, pos, site);
  if (ta.kind === 'TIME' && (tb.kind === 'INTERVAL_DT' || tb.kind === 'INTERVAL_YM') && (op === 'Plus' || op === 'Minus')) {
    // wrapping within the day (Feldera); a year-month interval is whole days, so it leaves the time as it is
    if (tb.kind === 'INTERVAL_YM') return strict2(a, b, mk('TIME', nullable), (x) => x);
    const sign = op === 'Plus' ? 1 : -1;
    return strict2(a, b, mk('TIME', nullable), (x, y) => ((((x as number) + sign * (y as number) * 1e6) % DAY_NS) + DAY_NS) % DAY_NS);
  }
  if (ta.kind === tb.kind && (ta.kind === 'INTERVAL_DT' || ta.kind === 'INTERVAL_YM') && (op === 'Plus' || op === 'Minus')) {
    const sign = op === 'Plus' ? 1 : -1;
    const qualifier = unionQualifier(ta.qualifier, tb.qualifier);
    return strict2(a, b, mk(ta.kind, nullable, qualifier ? { qualifier } : {}), (x, y) => (x as number) + sign * (y as number));
  }
  const scaling = isIntervalScaling(op, ta, tb);
  if (scaling === 'interval-first') return scaleInterval(op as 'Multiply' | 'Divide', a, b, site);
  if (scaling === 'number-first') return scaleInterval('Multiply', b, a, site);
  if (ta.kind === 'TIMESTAMP' && tb.kind === 'TIMESTAMP' && op === 'Minus') {
    // whole milliseconds (an interval's unit here), toward zero
    return strict2(a, b, mk('INTERVAL_DT', nullable), (x, y) => Math.trunc(tsMicrosBetween(x as number, y as number) / 1000) + 0);
  }
  if (ta.kind === 'DATE' && tb.kind === 'DATE' && op === 'Minus') {
    return strict2(a, b, mk('INTERVAL_DT', nullable), (x, y) => ((x as number) - (y as number)) * DAY_MS);
  }
  if (!isNumeric(ta) || !isNumeric(tb)) {
    throw new SqlError(`Cannot apply '${sym}' to arguments of type <${typeName(ta)}> and <${typeName(tb)}>`, pos, 'type');
  }
  if (ta.kind === 'NULL' || tb.kind === 'NULL') return constant(ta.kind === 'NULL' ? withNull(tb, true) : withNull(ta, true), null);
  if (isFloat(ta) || isFloat(tb)) {
    const t = mk(ta.kind === 'REAL' && tb.kind === 'REAL' ? 'REAL' : 'DOUBLE', nullable);
    const x = coerce(a, t, pos);
    const y = coerce(b, t, pos);
    switch (op) {
      case 'Plus':
        return strict2(x, y, t, (p, q) => (p as number) + (q as number));
      case 'Minus':
        return strict2(x, y, t, (p, q) => (p as number) - (q as number));
      case 'Multiply':
        return strict2(x, y, t, (p, q) => (p as number) * (q as number));
      case 'Divide':
        return strict2(x, y, withNull(t, true), (p, q) => ((q as number) === 0 ? null : (p as number) / (q as number)));
      case 'Modulo':
        return strict2(x, y, withNull(t, true), (p, q) => ((q as number) === 0 ? null : (p as number) % (q as number)));
    }
  }
  if (isDecimal(ta) || isDecimal(tb)) {
    const x = decimalOf(a, pos);
    const y = decimalOf(b, pos);
    const s1 = x.type.scale ?? 0;
    const s2 = y.type.scale ?? 0;
    const p1 = x.type.precision ?? 28;
    const p2 = y.type.precision ?? 28;
    switch (op) {
      case 'Plus':
      case 'Minus': {
        const s = Math.max(s1, s2);
        const t = mk('DECIMAL', nullable, { precision: Math.min(38, Math.max(p1 - s1, p2 - s2) + s + 1), scale: s });
        const sign = op === 'Plus' ? 1n : -1n;
        return strict2(x, y, t, (p, q) => rescale(p as bigint, s1, s) + sign * rescale(q as bigint, s2, s));
      }
      case 'Multiply': {
        const t = mk('DECIMAL', nullable, { precision: Math.min(38, p1 + p2), scale: s1 + s2 });
        return strict2(x, y, t, (p, q) => (p as bigint) * (q as bigint));
      }
      case 'Divide': {
        const s = Math.max(6, s1, s2);
        const t = mk('DECIMAL', true, { precision: 38, scale: s });
        // p/10^s1 / (q/10^s2) = p * 10^(s - s1 + s2) / q, with one extra digit for rounding
        const up = pow10(s - s1 + s2 + 1);
        return strict2(x, y, t, (p, q) => ((q as bigint) === 0n ? null : rescaleRound(((p as bigint) * up) / (q as bigint), s + 1, s)));
      }
      case 'Modulo': {
        const s = Math.max(s1, s2);
        const t = mk('DECIMAL', true, { precision: Math.max(p1, p2), scale: s });
        return strict2(x, y, t, (p, q) => {
          const qq = rescale(q as bigint, s2, s);
          return qq === 0n ? null : rescale(p as bigint, s1, s) % qq;
        });
      }
    }
  }
  // integers: exact and checked against the wider operand type (int64.ts); x / 0 and x % 0 are errors (Feldera).
  // Signed with unsigned: the wider type, the unsigned one of equal widths; an operand of the other signedness is
  // cast to it first (as Feldera's compiler does: -1 + 5u is a conversion error, not 4)
  const t = mk(intResultKind(ta.kind, tb.kind), nullable);
  if (op === 'Plus' || op === 'Minus' || op === 'Multiply' || op === 'Divide' || op === 'Modulo') {
    const f = intBinary(op, t.kind, site);
    const x = isUnsigned(ta) === isUnsigned(t) ? a : coerce(a, t, pos);
    const y = isUnsigned(tb) === isUnsigned(t) ? b : coerce(b, t, pos);
    return strict2(x, y, t, f as (x: Value, y: Value) => Value);
  }
  throw new SqlError(`Unsupported operator ${op}`, pos, 'unsupported');
}
