/** Scalar functions: string, numeric, date/time, array, and NULL handling. */
import { SqlError, type Pos } from '../parse/ast.js';
import { type SqlType, mk, commonType, isInteger, isFloat, isDecimal, isNumeric, isString, withNull } from '../types/types.js';
import { compareValues, type Value } from '../types/values.js';
import { pow10, rescale, rescaleRound, decimalToNumber } from '../types/decimal.js';
import { DAY_MS, extractField, truncTimestamp, type DateField } from '../types/datetime.js';
import { type BExpr, strict1, strict2, strictN, constant } from './bexpr.js';
import { castFn } from './cast.js';

function coerceTo(e: BExpr, t: SqlType, pos: Pos): BExpr {
  if (e.type.kind === t.kind && e.type.scale === t.scale) return e;
  return strict1(e, withNull(t, e.type.nullable), castFn(e.type, t, pos));
}

function argc(name: string, args: BExpr[], min: number, max: number, pos: Pos): void {
  if (args.length < min || args.length > max) {
    throw new SqlError(`Invalid number of arguments to function '${name}'. Was expecting ${min === max ? min : `${min} to ${max}`} arguments`, pos, 'type');
  }
}

function str(name: string, e: BExpr, pos: Pos): BExpr {
  if (isString(e.type)) return e;
  if (e.type.kind === 'NULL') return { ...e, type: mk('VARCHAR', true) };
  throw new SqlError(`Cannot apply '${name}' to arguments of type <${e.type.kind}>`, pos, 'type');
}

function num(name: string, e: BExpr, pos: Pos): BExpr {
  if (isNumeric(e.type)) return e;
  throw new SqlError(`Cannot apply '${name}' to arguments of type <${e.type.kind}>`, pos, 'type');
}

function int(name: string, e: BExpr, pos: Pos): BExpr {
  if (isInteger(e.type) || e.type.kind === 'NULL') return e;
  throw new SqlError(`Cannot apply '${name}' to arguments of type <${e.type.kind}>: an integer is needed`, pos, 'type');
}

function nullableOf(args: BExpr[]): boolean {
  return args.some((a) => a.type.nullable);
}

function toMs(e: BExpr, name: string, pos: Pos): BExpr {
  if (e.type.kind === 'TIMESTAMP') return e;
  if (e.type.kind === 'DATE') return strict1(e, mk('TIMESTAMP', e.type.nullable), (d) => (d as number) * DAY_MS);
  if (e.type.kind === 'TIME') return strict1(e, mk('TIMESTAMP', e.type.nullable), (t) => Math.floor((t as number) / 1e6));
  throw new SqlError(`Cannot apply '${name}' to arguments of type <${e.type.kind}>`, pos, 'type');
}

const FIELD_ALIASES: Record<string, DateField> = {
  YEAR: 'YEAR', YEARS: 'YEAR', QUARTER: 'QUARTER', MONTH: 'MONTH', MONTHS: 'MONTH', WEEK: 'WEEK', DAY: 'DAY', DAYS: 'DAY',
  DAYOFMONTH: 'DAY', DOW: 'DOW', DAYOFWEEK: 'DOW', DOY: 'DOY', DAYOFYEAR: 'DOY', HOUR: 'HOUR', HOURS: 'HOUR', MINUTE: 'MINUTE',
  MINUTES: 'MINUTE', SECOND: 'SECOND', SECONDS: 'SECOND', MILLISECOND: 'MILLISECOND', MILLISECONDS: 'MILLISECOND',
  MICROSECOND: 'MICROSECOND', MICROSECONDS: 'MICROSECOND', EPOCH: 'EPOCH', DECADE: 'DECADE', CENTURY: 'CENTURY',
  MILLENNIUM: 'MILLENNIUM', ISODOW: 'ISODOW', ISOYEAR: 'ISOYEAR',
};

function extract(fieldName: string, e: BExpr, pos: Pos): BExpr {
  const f = FIELD_ALIASES[fieldName.toUpperCase()];
  if (!f) throw new SqlError(`Unsupported EXTRACT field ${fieldName}`, pos, 'unsupported');
  if (e.type.kind === 'TIME') {
    const g = (ns: number): number => {
      const ms = Math.floor(ns / 1e6);
      return extractField(f, ms);
    };
    if (!['HOUR', 'MINUTE', 'SECOND', 'MILLISECOND', 'MICROSECOND', 'EPOCH'].includes(f)) throw new SqlError(`Cannot extract ${f} from a TIME`, pos, 'type');
    return strict1(e, mk('BIGINT', e.type.nullable), (v) => g(v as number));
  }
  const ms = toMs(e, 'EXTRACT', pos);
  return strict1(ms, mk('BIGINT', e.type.nullable), (v) => extractField(f, v as number));
}

export function bindFunction(name: string, args: BExpr[], pos: Pos): BExpr {
  const n = nullableOf(args);
  switch (name) {
    // ---------- NULL handling ----------
    case 'COALESCE':
    case 'IFNULL':
    case 'NVL': {
      if (args.length < 1) argc(name, args, 1, 99, pos);
      let t: SqlType | undefined = args[0]!.type;
      for (const a of args) {
        t = commonType(t!, a.type);
        if (!t) throw new SqlError(`${name} arguments have incompatible types`, pos, 'type');
      }
      const fns = args.map((a) => coerceTo(a, t!, pos).fn);
      return { type: withNull(t!, args.every((a) => a.type.nullable)), fn: (r) => {
        for (const f of fns) {
          const v = f(r);
          if (v !== null) return v;
        }
        return null;
      } };
    }
    case 'NULLIF': {
      argc(name, args, 2, 2, pos);
      const t = commonType(args[0]!.type, args[1]!.type);
      if (!t) throw new SqlError('NULLIF arguments have incompatible types', pos, 'type');
      const a = coerceTo(args[0]!, t, pos).fn;
      const b = coerceTo(args[1]!, t, pos).fn;
      return { type: withNull(args[0]!.type, true), fn: (r) => {
        const x = a(r);
        if (x === null) return null;
        const y = b(r);
        return y !== null && compareValues(x, y) === 0 ? null : x;
      } };
    }
    case 'GREATEST':
    case 'LEAST': {
      let t: SqlType | undefined = args[0]!.type;
      for (const a of args) {
        t = commonType(t!, a.type);
        if (!t) throw new SqlError(`${name} arguments have incompatible types`, pos, 'type');
      }
      const sign = name === 'GREATEST' ? 1 : -1;
      return strictN(args.map((a) => coerceTo(a, t!, pos)), withNull(t!, n), (xs) => xs.reduce((m, x) => (sign * compareValues(x, m) > 0 ? x : m)));
    }
    // ---------- strings ----------
    case 'UPPER':
      argc(name, args, 1, 1, pos);
      return strict1(str(name, args[0]!, pos), mk('VARCHAR', n), (s) => (s as string).toUpperCase());
    case 'LOWER':
      argc(name, args, 1, 1, pos);
      return strict1(str(name, args[0]!, pos), mk('VARCHAR', n), (s) => (s as string).toLowerCase());
    case 'INITCAP':
      argc(name, args, 1, 1, pos);
      return strict1(str(name, args[0]!, pos), mk('VARCHAR', n), (s) => (s as string).toLowerCase().replace(/(^|[^\p{L}\p{N}])(\p{L})/gu, (_m, p: string, c: string) => p + c.toUpperCase()));
    case 'LENGTH':
    case 'CHAR_LENGTH':
    case 'CHARACTER_LENGTH':
      argc(name, args, 1, 1, pos);
      return strict1(str(name, args[0]!, pos), mk('INTEGER', n), (s) => [...(s as string)].length);
    case 'OCTET_LENGTH':
      return strict1(str(name, args[0]!, pos), mk('INTEGER', n), (s) => Buffer.byteLength(s as string));
    case 'SUBSTRING':
    case 'SUBSTR': {
      argc(name, args, 2, 3, pos);
      const s = str(name, args[0]!, pos);
      int(name, args[1]!, pos);
      if (args[2]) int(name, args[2], pos);
      return strictN([s, ...args.slice(1)], mk('VARCHAR', n), ([v, from, len]) => {
        const chars = [...(v as string)];
        let start = (from as number) - 1;
        let end = len === undefined ? chars.length : start + (len as number);
        if (len !== undefined && (len as number) < 0) return null;
        if (start < 0) start = 0;
        if (end < start) end = start;
        return chars.slice(start, end).join('');
      });
    }
    case 'LEFT':
      argc(name, args, 2, 2, pos);
      return strict2(str(name, args[0]!, pos), int(name, args[1]!, pos), mk('VARCHAR', n), (s, k) => [...(s as string)].slice(0, Math.max(0, k as number)).join(''));
    case 'RIGHT':
      argc(name, args, 2, 2, pos);
      return strict2(str(name, args[0]!, pos), int(name, args[1]!, pos), mk('VARCHAR', n), (s, k) => {
        const c = [...(s as string)];
        return (k as number) <= 0 ? '' : c.slice(Math.max(0, c.length - (k as number))).join('');
      });
    case 'TRIM':
    case 'LTRIM':
    case 'RTRIM':
    case 'BTRIM': {
      let where = name === 'LTRIM' ? 'LEADING' : name === 'RTRIM' ? 'TRAILING' : 'BOTH';
      let rest = args;
      if (name === 'TRIM') {
        where = String(args[0]!.fn([]));
        rest = args.slice(1);
      }
      const s = str(name, rest[0]!, pos);
      const what = rest[1] ? str(name, rest[1], pos) : constant(mk('VARCHAR', false), ' ');
      return strict2(s, what, mk('VARCHAR', n), (v, w) => {
        let x = v as string;
        const cs = new Set([...(w as string)]);
        let a = 0;
        let b = x.length;
        if (where !== 'TRAILING') while (a < b && cs.has(x[a]!)) a++;
        if (where !== 'LEADING') while (b > a && cs.has(x[b - 1]!)) b--;
        x = x.slice(a, b);
        return x;
      });
    }
    case 'CONCAT':
      return strictN(args.map((a) => (isString(a.type) ? a : coerceTo(a, mk('VARCHAR'), pos))), mk('VARCHAR', n), (xs) => xs.join(''));
    case 'POSITION':
    case 'STRPOS': {
      argc(name, args, 2, 2, pos);
      const [needle, hay] = name === 'POSITION' ? [args[0]!, args[1]!] : [args[1]!, args[0]!];
      return strict2(str(name, needle, pos), str(name, hay, pos), mk('INTEGER', n), (a, b) => {
        const i = (b as string).indexOf(a as string);
        return i < 0 ? 0 : [...(b as string).slice(0, i)].length + 1;
      });
    }
    case 'REPLACE':
      argc(name, args, 3, 3, pos);
      return strictN(args.map((a) => str(name, a, pos)), mk('VARCHAR', n), ([s, a, b]) => (a === '' ? s : (s as string).split(a as string).join(b as string)));
    case 'REPEAT':
      argc(name, args, 2, 2, pos);
      return strict2(str(name, args[0]!, pos), int(name, args[1]!, pos), mk('VARCHAR', n), (s, k) => (s as string).repeat(Math.max(0, k as number)));
    case 'REVERSE':
      return strict1(str(name, args[0]!, pos), mk('VARCHAR', n), (s) => [...(s as string)].reverse().join(''));
    case 'LPAD':
    case 'RPAD': {
      argc(name, args, 2, 3, pos);
      const fill = args[2] ? str(name, args[2], pos) : constant(mk('VARCHAR', false), ' ');
      return strictN([str(name, args[0]!, pos), int(name, args[1]!, pos), fill], mk('VARCHAR', n), ([s, k, f]) => {
        const c = [...(s as string)];
        const len = k as number;
        if (c.length >= len) return c.slice(0, len).join('');
        if ((f as string) === '') return s;
        const padLen = len - c.length;
        const pad = (f as string).repeat(Math.ceil(padLen / (f as string).length)).slice(0, padLen);
        return name === 'LPAD' ? pad + s : s + pad;
      });
    }
    case 'SPLIT_PART':
      argc(name, args, 3, 3, pos);
      return strictN([str(name, args[0]!, pos), str(name, args[1]!, pos), int(name, args[2]!, pos)], mk('VARCHAR', n), ([s, d, k]) => (s as string).split(d as string)[(k as number) - 1] ?? '');
    // ---------- numbers ----------
    case 'ABS': {
      argc(name, args, 1, 1, pos);
      const a = num(name, args[0]!, pos);
      if (isDecimal(a.type)) return strict1(a, a.type, (v) => ((v as bigint) < 0n ? -(v as bigint) : v));
      return strict1(a, a.type, (v) => Math.abs(v as number));
    }
    case 'SIGN': {
      const a = num(name, args[0]!, pos);
      if (isDecimal(a.type)) return strict1(a, mk('INTEGER', n), (v) => ((v as bigint) > 0n ? 1 : (v as bigint) < 0n ? -1 : 0));
      return strict1(a, a.type, (v) => Math.sign(v as number));
    }
    case 'CEIL':
    case 'CEILING':
    case 'FLOOR': {
      argc(name, args, 1, 1, pos);
      const a = num(name, args[0]!, pos);
      const up = name !== 'FLOOR';
      if (isDecimal(a.type)) {
        const s = a.type.scale ?? 0;
        const d = pow10(s);
        return strict1(a, mk('DECIMAL', n, { precision: a.type.precision, scale: 0 }), (v) => {
          const x = v as bigint;
          let q = x / d;
          const r = x % d;
          if (r !== 0n && up && x > 0n) q += 1n;
          if (r !== 0n && !up && x < 0n) q -= 1n;
          return q;
        });
      }
      return strict1(a, a.type, (v) => (up ? Math.ceil(v as number) : Math.floor(v as number)));
    }
    case 'ROUND':
    case 'TRUNCATE':
    case 'TRUNC': {
      argc(name, args, 1, 2, pos);
      const a = num(name, args[0]!, pos);
      const digits = args[1] ? args[1].fn([]) : 0;
      if (args[1] && !args[1].constant) throw new SqlError(`${name} needs a constant number of digits`, pos, 'unsupported');
      const k = (digits as number) ?? 0;
      const round = name === 'ROUND';
      if (isDecimal(a.type)) {
        const s = a.type.scale ?? 0;
        const ns = Math.max(0, Math.min(k, s));
        return strict1(a, mk('DECIMAL', n, { precision: a.type.precision, scale: ns }), (v) => (round ? rescaleRound(v as bigint, s, ns) : rescale(v as bigint, s, ns)));
      }
      if (isInteger(a.type)) return a;
      const f = 10 ** k;
      return strict1(a, a.type, (v) => {
        const x = (v as number) * f;
        return (round ? Math.sign(x) * Math.round(Math.abs(x)) : Math.trunc(x)) / f;
      });
    }
    case 'MOD': {
      argc(name, args, 2, 2, pos);
      const [a, b] = [num(name, args[0]!, pos), num(name, args[1]!, pos)];
      if (isInteger(a.type) && isInteger(b.type)) return strict2(a, b, withNull(b.type, true), (x, y) => ((y as number) === 0 ? null : (x as number) % (y as number)));
      const toD = (e: BExpr): BExpr => (isDecimal(e.type) ? strict1(e, mk('DOUBLE', e.type.nullable), (v) => decimalToNumber(v as bigint, e.type.scale ?? 0)) : e);
      return strict2(toD(a), toD(b), mk('DOUBLE', true), (x, y) => ((y as number) === 0 ? null : (x as number) % (y as number)));
    }
    case 'POWER':
    case 'POW':
    case 'SQRT':
    case 'EXP':
    case 'LN':
    case 'LOG10':
    case 'SIN':
    case 'COS':
    case 'TAN':
    case 'ATAN':
    case 'CBRT': {
      const dbl = args.map((a) => {
        num(name, a, pos);
        return isFloat(a.type) ? a : coerceTo(a, mk('DOUBLE'), pos);
      });
      const f: Record<string, (...x: number[]) => number> = {
        POWER: Math.pow, POW: Math.pow, SQRT: Math.sqrt, EXP: Math.exp, LN: Math.log, LOG10: Math.log10, SIN: Math.sin,
        COS: Math.cos, TAN: Math.tan, ATAN: Math.atan, CBRT: Math.cbrt,
      };
      const fn = f[name]!;
      argc(name, args, fn.length || 1, Math.max(fn.length, 1), pos);
      return strictN(dbl, mk('DOUBLE', n), (xs) => {
        const r = fn(...(xs as number[]));
        return Number.isNaN(r) ? null : r;
      });
    }
    // ---------- date / time ----------
    case 'EXTRACT':
    case 'DATE_PART':
      argc(name, args, 2, 2, pos);
      return extract(String(args[0]!.fn([])), args[1]!, pos);
    case 'YEAR':
    case 'QUARTER':
    case 'MONTH':
    case 'WEEK':
    case 'DAYOFMONTH':
    case 'DAYOFWEEK':
    case 'DAYOFYEAR':
    case 'HOUR':
    case 'MINUTE':
    case 'SECOND':
      argc(name, args, 1, 1, pos);
      return extract(name, args[0]!, pos);
    case 'DATE_TRUNC':
    case 'TIMESTAMP_TRUNC':
    case 'DATE_TRUNCATE': {
      argc(name, args, 2, 2, pos);
      // DATE_TRUNC('day', ts) (Postgres) or TIMESTAMP_TRUNC(ts, DAY) (Calcite; the unit arrives as a column reference)
      let unitArg = args[0]!;
      let tsArg = args[1]!;
      if (!unitArg.constant) [unitArg, tsArg] = [tsArg, unitArg];
      const unit = String(unitArg.fn([])).toUpperCase();
      const ms = toMs(tsArg, name, pos);
      if (truncTimestamp(unit, 0) === undefined) throw new SqlError(`Unsupported unit ${unit}`, pos, 'unsupported');
      if (tsArg.type.kind === 'DATE') return strict1(ms, mk('DATE', n), (v) => Math.floor(truncTimestamp(unit, v as number)! / DAY_MS));
      return strict1(ms, mk('TIMESTAMP', n), (v) => truncTimestamp(unit, v as number)!);
    }
    case 'NOW':
    case 'CURRENT_TIMESTAMP':
    case 'CURRENT_DATE':
    case 'RANDOM':
    case 'RAND':
      throw new SqlError(`${name} is not deterministic and is not supported in views`, pos, 'unsupported');
    // ---------- arrays ----------
    case 'CARDINALITY':
    case 'ARRAY_LENGTH': {
      const a = args[0]!;
      if (a.type.kind !== 'ARRAY') throw new SqlError(`${name} needs an ARRAY`, pos, 'type');
      return strict1(a, mk('INTEGER', n), (v) => (v as Value[]).length);
    }
    case 'ARRAY_CONTAINS': {
      argc(name, args, 2, 2, pos);
      const a = args[0]!;
      if (a.type.kind !== 'ARRAY') throw new SqlError(`${name} needs an ARRAY`, pos, 'type');
      const x = coerceTo(args[1]!, a.type.elem!, pos);
      return strict2(a, x, mk('BOOLEAN', n), (arr, v) => (arr as Value[]).some((e) => e !== null && compareValues(e, v) === 0));
    }
    default:
      throw new SqlError(`No match found for function signature ${name}(${args.map((a) => a.type.kind).join(', ')})`, pos, 'unsupported');
  }
}

export { isNumeric };
