/**
 * Date and time functions (Feldera docs/sql/datetime.md). DATE is days, TIME nanoseconds and TIMESTAMP
 * milliseconds, all without time zone (types/datetime.ts). Units are bare words (TIMESTAMPDIFF(DAY, a, b)) or
 * strings; UNIT_ARG says which argument of which function is a unit, so the binder does not read it as a column.
 * Format strings are strftime's (%Y %m %d %H %M %S %f %j %y %b %B %a %A %e %I %p %F %T %D %%).
 */
import { SqlError, type Pos } from '../../parse/ast.js';
import { mk, isString } from '../../types/types.js';
import type { Value } from '../../types/values.js';
import { DAY_MS, addMonthsTs, extractField, truncTimestamp, tsFrom, tsSplit, type DateField } from '../../types/datetime.js';
import { decimalToNumber } from '../../types/decimal.js';
import { type BExpr, strict1, strict2, strictN } from '../bexpr.js';
import { arithmetic } from '../operators.js';
import { argc, coerceTo, constArg, int, nullableOf, num, str, toMs, typeErr } from './args.js';
import { aliases, type FnTable, type ScalarFn } from './registry.js';

/** Arguments that are time units spelled as bare words: function -> argument index. */
export const UNIT_ARG: Record<string, number> = { TIMESTAMP_TRUNC: 1, DATE_TRUNC: 1, TIME_TRUNC: 1, TIMESTAMPADD: 0, TIMESTAMPDIFF: 0, DATEDIFF: 0, DATE_PART: 0 };

const FIELD_ALIASES: Record<string, DateField> = {
  YEAR: 'YEAR',
  YEARS: 'YEAR',
  QUARTER: 'QUARTER',
  MONTH: 'MONTH',
  MONTHS: 'MONTH',
  WEEK: 'WEEK',
  DAY: 'DAY',
  DAYS: 'DAY',
  DAYOFMONTH: 'DAY',
  DOW: 'DOW',
  DAYOFWEEK: 'DOW',
  DOY: 'DOY',
  DAYOFYEAR: 'DOY',
  HOUR: 'HOUR',
  HOURS: 'HOUR',
  MINUTE: 'MINUTE',
  MINUTES: 'MINUTE',
  SECOND: 'SECOND',
  SECONDS: 'SECOND',
  MILLISECOND: 'MILLISECOND',
  MILLISECONDS: 'MILLISECOND',
  MICROSECOND: 'MICROSECOND',
  MICROSECONDS: 'MICROSECOND',
  EPOCH: 'EPOCH',
  DECADE: 'DECADE',
  CENTURY: 'CENTURY',
  MILLENNIUM: 'MILLENNIUM',
  ISODOW: 'ISODOW',
  ISOYEAR: 'ISOYEAR',
};

/** Unit names (incl. Calcite's SQL_TSI_ spellings) to the length in ms (short units) or months (long units). */
function unitOf(text: string, pos: Pos): { ms?: number; months?: number; unit: string } {
  const u = text
    .toUpperCase()
    .replace(/^SQL_TSI_/, '')
    .replace(/S$/, '');
  const MS: Record<string, number> = { WEEK: 7 * DAY_MS, DAY: DAY_MS, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1000, MILLISECOND: 1, MICROSECOND: 0.001, NANOSECOND: 1e-6 };
  const MO: Record<string, number> = { YEAR: 12, QUARTER: 3, MONTH: 1, DECADE: 120, CENTURY: 1200, MILLENNIUM: 12000 };
  if (MS[u] !== undefined) return { ms: MS[u], unit: u };
  if (MO[u] !== undefined) return { months: MO[u], unit: u };
  throw new SqlError(`Unsupported time unit ${text}`, pos, 'unsupported');
}

export function extract(fieldName: string, e: BExpr, pos: Pos): BExpr {
  const f = FIELD_ALIASES[fieldName.toUpperCase()];
  if (!f) throw new SqlError(`Unsupported EXTRACT field ${fieldName}`, pos, 'unsupported');
  if (e.type.kind === 'TIME') {
    if (!['HOUR', 'MINUTE', 'SECOND', 'MILLISECOND', 'MICROSECOND', 'EPOCH'].includes(f)) throw new SqlError(`Cannot extract ${f} from a TIME`, pos, 'type');
    return strict1(e, mk('BIGINT', e.type.nullable), (v) => extractField(f, Math.floor((v as number) / 1e6)));
  }
  const ms = toMs(e, 'EXTRACT', pos);
  return strict1(ms, mk('BIGINT', e.type.nullable), (v) => extractField(f, v as number));
}

const extractFn: ScalarFn = {
  sig: 'EXTRACT(unit FROM datetime) -> BIGINT; DATE_PART(unit, datetime)',
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 2, 2, pos);
    return extract(String(args[0]!.fn([])), args[1]!, pos);
  },
};

const fieldFn: ScalarFn = {
  sig: 'YEAR(datetime) ... SECOND(datetime) -> BIGINT',
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 1, 1, pos);
    return extract(name, args[0]!, pos);
  },
};

const truncFn: ScalarFn = {
  sig: 'DATE_TRUNC(datetime, unit), TIMESTAMP_TRUNC(timestamp, unit), TIME_TRUNC(time, unit)',
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 2, 2, pos);
    // DATE_TRUNC('day', ts) (Postgres) or TIMESTAMP_TRUNC(ts, DAY) (Calcite; the unit arrives as a constant)
    let unitArg = args[0]!;
    let tsArg = args[1]!;
    if (!unitArg.constant || !isString(unitArg.type)) [unitArg, tsArg] = [tsArg, unitArg];
    const unit = String(unitArg.fn([])).toUpperCase();
    if (truncTimestamp(unit, 0) === undefined) throw new SqlError(`Unsupported unit ${unit}`, pos, 'unsupported');
    const n = nullableOf(args);
    // TIME_TRUNC takes a TIME, TIMESTAMP_TRUNC does not (Calcite's text)
    if ((name === 'TIME_TRUNC') !== (tsArg.type.kind === 'TIME') && (name === 'TIME_TRUNC' || name === 'TIMESTAMP_TRUNC') && tsArg.type.kind !== 'NULL')
      throw new SqlError(`Cannot apply '${name}' to arguments of type <${tsArg.type.kind}>, <SYMBOL>`, pos, 'type');
    if (tsArg.type.kind === 'TIME') {
      const step = { HOUR: 3_600e9, MINUTE: 60e9, SECOND: 1e9 }[unit];
      if (!step) throw new SqlError(`${name} of a TIME takes HOUR, MINUTE or SECOND`, pos, 'type');
      return strict1(tsArg, mk('TIME', n), (v) => Math.floor((v as number) / step) * step);
    }
    const ms = toMs(tsArg, name, pos);
    // DATE_TRUNC of a DATE is a DATE; TIMESTAMP_TRUNC of one a TIMESTAMP
    if (tsArg.type.kind === 'DATE' && name !== 'TIMESTAMP_TRUNC') return strict1(ms, mk('DATE', n), (v) => Math.floor(truncTimestamp(unit, v as number)! / DAY_MS));
    return strict1(ms, mk('TIMESTAMP', n, tsArg.type.tz ? { tz: true } : {}), (v) => truncTimestamp(unit, v as number)!);
  },
};

/** Whole months from a to b (ms), counting a month only when its calendar day and time are reached. */
export function monthsBetween(a: number, b: number): number {
  const da = new Date(a);
  const db = new Date(b);
  let m = (db.getUTCFullYear() - da.getUTCFullYear()) * 12 + db.getUTCMonth() - da.getUTCMonth();
  const restA = a - Date.UTC(da.getUTCFullYear(), da.getUTCMonth(), 1);
  const restB = b - Date.UTC(db.getUTCFullYear(), db.getUTCMonth(), 1);
  if (m > 0 && restB < restA) m--;
  if (m < 0 && restB > restA) m++;
  return m;
}

const diffFn: ScalarFn = {
  sig: 'TIMESTAMPDIFF(unit, left, right) -> INTEGER (right - left in whole units); DATEDIFF is a synonym',
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 3, 3, pos);
    const u = unitOf(String(constArg(name, args[0]!, pos)), pos);
    const asMs = (e: BExpr): BExpr => (e.type.kind === 'TIME' ? strict1(e, mk('TIMESTAMP', e.type.nullable), (t) => (t as number) / 1e6) : toMs(e, name, pos));
    return strict2(asMs(args[1]!), asMs(args[2]!), mk('INTEGER', nullableOf(args)), (a, b) => {
      // + 0 turns a -0 into 0
      if (u.months) return Math.trunc(monthsBetween(a as number, b as number) / u.months) + 0;
      return Math.trunc(((b as number) - (a as number)) / u.ms!) + 0;
    });
  },
};

/** A TIMESTAMP moved by whole microseconds. */
function addMicros(v: number, micros: number): number {
  const [ms, us] = tsSplit(v);
  const total = us + micros;
  const carry = Math.floor(total / 1000);
  return tsFrom(ms + carry, total - carry * 1000);
}

const addFn: ScalarFn = {
  sig: 'TIMESTAMPADD(unit, integer, datetime): DATE + hours/minutes/seconds gives a TIMESTAMP',
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 3, 3, pos);
    const u = unitOf(String(constArg(name, args[0]!, pos)), pos);
    const k = int(name, args[1]!, pos);
    const t = args[2]!;
    const n = nullableOf(args);
    if (t.type.kind === 'TIME') {
      if (u.months) throw typeErr(name, args, pos, ': a TIME takes units up to DAY');
      const dayNs = DAY_MS * 1e6;
      return strict2(t, k, mk('TIME', n), (v, x) => ((((v as number) + (x as number) * u.ms! * 1e6) % dayNs) + dayNs) % dayNs);
    }
    const dateOut = t.type.kind === 'DATE' && (u.months !== undefined || u.ms! % DAY_MS === 0);
    const ms = toMs(t, name, pos);
    return strict2(ms, k, mk(dateOut ? 'DATE' : 'TIMESTAMP', n, t.type.tz ? { tz: true } : {}), (v, x) => {
      const r = u.months ? addMonthsTs(v as number, (x as number) * u.months) : addMicros(v as number, Math.trunc((x as number) * u.ms! * 1000));
      return dateOut ? Math.floor(r / DAY_MS) : r;
    });
  },
};

function dateArith(op: 'Plus' | 'Minus'): ScalarFn {
  return {
    sig: `${op === 'Plus' ? 'DATE_ADD' : 'DATE_SUB'}(datetime, interval): datetime ${op === 'Plus' ? '+' : '-'} interval`,
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      return arithmetic(op, args[0]!, args[1]!, pos);
    },
  };
}

/** Seconds argument of MAKE_TIME/MAKE_TIMESTAMP (any numeric type, may be fractional) as nanoseconds. */
function secondsNs(e: BExpr): (v: Value) => number {
  if (e.type.kind === 'DECIMAL') return (v) => Math.round(decimalToNumber(v as bigint, e.type.scale ?? 0) * 1e9);
  return (v) => Math.round((v as number) * 1e9);
}

function validDate(y: number, mo: number, d: number): number | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCDate() !== d || back.getUTCFullYear() !== y) return null;
  return Math.round(ms / DAY_MS);
}

function validTimeNs(h: number, mi: number, sNs: number): number | null {
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || sNs < 0 || sNs >= 60e9) return null;
  return (h * 3600 + mi * 60) * 1e9 + sNs;
}

/* ---------- strftime formatting and parsing ---------- */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const p2 = (n: number, w = 2): string => String(n).padStart(w, '0');

function strftime(fmt: string, ms: number, subMsNs = 0): string | null {
  const d = new Date(ms);
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    const f = fmt[++i];
    const h = d.getUTCHours();
    switch (f) {
      case 'Y':
        out += p2(d.getUTCFullYear(), 4);
        break;
      case 'y':
        out += p2(d.getUTCFullYear() % 100);
        break;
      case 'm':
        out += p2(d.getUTCMonth() + 1);
        break;
      case 'd':
        out += p2(d.getUTCDate());
        break;
      case 'e':
        out += String(d.getUTCDate()).padStart(2, ' ');
        break;
      case 'H':
        out += p2(h);
        break;
      case 'I':
        out += p2(h % 12 === 0 ? 12 : h % 12);
        break;
      case 'p':
        out += h < 12 ? 'AM' : 'PM';
        break;
      case 'M':
        out += p2(d.getUTCMinutes());
        break;
      case 'S':
        out += p2(d.getUTCSeconds());
        break;
      case 'f':
        out += p2(d.getUTCMilliseconds() * 1e6 + subMsNs, 9);
        break;
      case 'j':
        out += p2(extractField('DOY', ms), 3);
        break;
      case 'b':
        out += MONTHS[d.getUTCMonth()]!.slice(0, 3);
        break;
      case 'B':
        out += MONTHS[d.getUTCMonth()]!;
        break;
      case 'a':
        out += DAYS[d.getUTCDay()]!.slice(0, 3);
        break;
      case 'A':
        out += DAYS[d.getUTCDay()]!;
        break;
      case 'F':
        out += `${p2(d.getUTCFullYear(), 4)}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
        break;
      case 'T':
        out += `${p2(h)}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
        break;
      case 'D':
        out += `${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${p2(d.getUTCFullYear() % 100)}`;
        break;
      case '%':
        out += '%';
        break;
      default:
        return null;
    }
  }
  return out;
}

/** Below this many ms from the epoch (either way) every instant is a valid Date (ECMAScript's limit, 8.64e15, is whole seconds). */
const DATE_LIMIT_MS = 8.64e15;

/**
 * strftime of whole-ms instants, the last answer kept per caller (one bound FORMAT_* expression): a format
 * without %f gives one text for every instant of a second (Date reads the ms truncated to an integer; its fields
 * below the second show only through %f), so rows of one second in a row (Nexmark's bids: a hundred a second)
 * are formatted once. A format that contains %f is formatted every time.
 */
function secondMemoStrftime(): (fmt: string, ms: number) => string | null {
  let lastFmt: string | undefined;
  let lastSecond = 0;
  let lastText: string | null = null;
  return (fmt, ms) => {
    if (!(Math.abs(ms) < DATE_LIMIT_MS)) return strftime(fmt, ms);
    const second = Math.floor(Math.trunc(ms) / 1000);
    if (fmt === lastFmt && second === lastSecond) return lastText;
    const text = strftime(fmt, ms);
    if (!fmt.includes('%f')) {
      lastFmt = fmt;
      lastSecond = second;
      lastText = text;
    }
    return text;
  };
}

interface Parts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  ns: number;
  pm?: boolean;
}

/** Parse text with a strftime format; a space in the format matches any run of white space (also none). */
function strptime(fmt: string, text: string): Parts | null {
  const p: Parts = { y: 1970, mo: 1, d: 1, h: 0, mi: 0, s: 0, ns: 0 };
  let j = 0;
  const digits = (max: number, sign = false): number | null => {
    const m = new RegExp(`^${sign ? '[-+]?' : ''}\\d{1,${max}}`).exec(text.slice(j));
    if (!m) return null;
    j += m[0].length;
    return +m[0];
  };
  const word = (list: string[], short: boolean): number | null => {
    const rest = text.slice(j).toLowerCase();
    for (let k = 0; k < list.length; k++) {
      const w = (short ? list[k]!.slice(0, 3) : list[k]!).toLowerCase();
      if (rest.startsWith(w)) {
        j += w.length;
        return k;
      }
    }
    return null;
  };
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c === ' ') {
      while (j < text.length && /\s/.test(text[j]!)) j++;
      continue;
    }
    if (c !== '%') {
      if (text[j] !== c) return null;
      j++;
      continue;
    }
    const f = fmt[++i];
    let v: number | null;
    switch (f) {
      case 'Y':
        v = digits(4, true);
        if (v !== null) p.y = v;
        break;
      case 'y':
        v = digits(2);
        if (v !== null) p.y = v < 70 ? 2000 + v : 1900 + v;
        break;
      case 'm':
        v = digits(2);
        if (v !== null) p.mo = v;
        break;
      case 'd':
      case 'e':
        v = digits(2);
        if (v !== null) p.d = v;
        break;
      case 'H':
      case 'I':
        v = digits(2);
        if (v !== null) p.h = v;
        break;
      case 'M':
        v = digits(2);
        if (v !== null) p.mi = v;
        break;
      case 'S':
        v = digits(2);
        if (v !== null) p.s = v;
        break;
      case 'f': {
        const m = /^\d{1,9}/.exec(text.slice(j));
        v = m ? +m[0].padEnd(9, '0') : null;
        if (m) j += m[0].length;
        if (v !== null) p.ns = v;
        break;
      }
      case 'p': {
        const m = /^(am|pm)/i.exec(text.slice(j));
        v = m ? 0 : null;
        if (m) {
          j += 2;
          p.pm = m[0].toLowerCase() === 'pm';
        }
        break;
      }
      case 'b':
        v = word(MONTHS, true);
        if (v !== null) p.mo = v + 1;
        break;
      case 'B':
        v = word(MONTHS, false);
        if (v !== null) p.mo = v + 1;
        break;
      case 'a':
        v = word(DAYS, true);
        break;
      case 'A':
        v = word(DAYS, false);
        break;
      case '%':
        v = text[j] === '%' ? 0 : null;
        j++;
        break;
      default:
        return null;
    }
    if (v === null) return null;
  }
  if (j !== text.length) return null;
  if (p.pm !== undefined) p.h = (p.h % 12) + (p.pm ? 12 : 0);
  return p;
}

function formatFn(kind: 'DATE' | 'TIME' | 'TIMESTAMP'): ScalarFn {
  return {
    sig: `FORMAT_${kind}(format, ${kind.toLowerCase()}) -> VARCHAR`,
    nulls: 'strict; NULL for an unknown format directive',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      // FORMAT_DATE takes a TIMESTAMP or a string as their DATE (Calcite's coercion); a TIME is refused
      const asDate = kind === 'DATE' && (args[1]!.type.kind === 'TIMESTAMP' || isString(args[1]!.type));
      const t = asDate ? coerceTo(args[1]!, mk('DATE', args[1]!.type.nullable), pos) : args[1]!;
      if (t.type.kind !== kind && t.type.kind !== 'NULL') throw typeErr(name, args, pos);
      const memo = secondMemoStrftime();
      const toText = (f: string, v: number): string | null => (kind === 'DATE' ? memo(f, v * DAY_MS) : kind === 'TIME' ? strftime(f, Math.floor(v / 1e6), v % 1e6) : memo(f, v));
      return strict2(str(name, args[0]!, pos), t, mk('VARCHAR', nullableOf(args)), (f, v) => toText(f as string, v as number));
    },
  };
}

function parseFn(kind: 'DATE' | 'TIME' | 'TIMESTAMP'): ScalarFn {
  return {
    sig: `PARSE_${kind}(format, string) -> ${kind}`,
    nulls: 'strict; NULL when the text does not match the format',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      return strict2(str(name, args[0]!, pos), str(name, args[1]!, pos), mk(kind, true), (f, s) => {
        const p = strptime(f as string, s as string);
        if (!p) return null;
        const day = validDate(p.y, p.mo, p.d);
        const tod = validTimeNs(p.h, p.mi, p.s * 1e9 + p.ns);
        if (kind === 'TIME') return tod;
        if (day === null) return null;
        if (kind === 'DATE') return day;
        return tod === null ? null : day * DAY_MS + Math.floor(tod / 1e6);
      });
    },
  };
}

/* ---------- time zones (CONVERT_TIMEZONE) ---------- */

const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

/** Offset (ms, local minus UTC) of a zone at an instant: an IANA name or a fixed offset like +08:00; undefined when unknown. */
function zoneOffset(zone: string, instant: number): number | undefined {
  const fixed = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone.trim());
  if (fixed) return (fixed[1] === '-' ? -1 : 1) * (+fixed[2]! * 60 + +(fixed[3] ?? 0)) * 60_000;
  let f = zoneFormats.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    } catch {
      f = null;
    }
    zoneFormats.set(zone, f);
  }
  if (!f) return undefined;
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(instant))) if (part.type !== 'literal') p[part.type] = +part.value;
  const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return local - (instant - (((instant % 1000) + 1000) % 1000));
}

function convertTimezone(from: string, to: string, wall: number): number | null {
  const o1 = zoneOffset(from, wall);
  if (o1 === undefined) return null;
  // the instant whose wall-clock time in `from` is `wall` (one correction step for offset changes)
  let instant = wall - o1;
  const o1b = zoneOffset(from, instant)!;
  instant = wall - o1b;
  const o2 = zoneOffset(to, instant);
  return o2 === undefined ? null : instant + o2;
}

export const DATETIME_FNS: FnTable = {
  CONVERT_TIMEZONE: {
    sig: 'CONVERT_TIMEZONE(tz1, tz2, timestamp) -> TIMESTAMP: the wall-clock time in tz1 as seen in tz2',
    nulls: 'strict; NULL for a zone that is neither an IANA name nor a fixed offset',
    bind: (args, pos, name) => {
      argc(name, args, 3, 3, pos);
      const ts = args[2]!;
      if (ts.type.kind !== 'TIMESTAMP' && ts.type.kind !== 'NULL') throw typeErr(name, args, pos);
      return strictN([str(name, args[0]!, pos), str(name, args[1]!, pos), ts], mk('TIMESTAMP', true), ([a, b, t]) => convertTimezone(a as string, b as string, t as number));
    },
  },
  ...aliases(['EXTRACT', 'DATE_PART'], extractFn),
  ...aliases(['YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAYOFMONTH', 'DAYOFWEEK', 'DAYOFYEAR', 'DOW', 'DOY', 'HOUR', 'MINUTE', 'SECOND'], fieldFn),
  ...aliases(['DATE_TRUNC', 'TIMESTAMP_TRUNC', 'DATE_TRUNCATE', 'TIME_TRUNC'], truncFn),
  ...aliases(['TIMESTAMPDIFF', 'DATEDIFF'], diffFn),
  TIMESTAMPADD: addFn,
  DATE_ADD: dateArith('Plus'),
  DATE_SUB: dateArith('Minus'),
  MAKE_DATE: {
    sig: 'MAKE_DATE(year, month, day) -> DATE: NULL for an invalid date',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 3, 3, pos);
      return strictN(
        args.map((a) => int(name, a, pos)),
        mk('DATE', true),
        ([y, m, d]) => validDate(y as number, m as number, d as number),
      );
    },
  },
  MAKE_TIME: {
    sig: 'MAKE_TIME(hour, minute, second) -> TIME: second may be fractional; NULL when invalid',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 3, 3, pos);
      const sec = secondsNs(num(name, args[2]!, pos));
      return strictN([int(name, args[0]!, pos), int(name, args[1]!, pos), args[2]!], mk('TIME', true), ([h, m, s]) => validTimeNs(h as number, m as number, sec(s!)));
    },
  },
  MAKE_TIMESTAMP: {
    sig: 'MAKE_TIMESTAMP(year, month, day, hour, minute, second) -> TIMESTAMP: NULL when invalid',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 6, 6, pos);
      const sec = secondsNs(num(name, args[5]!, pos));
      return strictN([...args.slice(0, 5).map((a) => int(name, a, pos)), args[5]!], mk('TIMESTAMP', true), ([y, mo, d, h, mi, s]) => {
        const day = validDate(y as number, mo as number, d as number);
        const tod = validTimeNs(h as number, mi as number, sec(s!));
        return day === null || tod === null ? null : day * DAY_MS + Math.floor(tod / 1e6);
      });
    },
  },
  FORMAT_DATE: formatFn('DATE'),
  FORMAT_TIME: formatFn('TIME'),
  FORMAT_TIMESTAMP: formatFn('TIMESTAMP'),
  PARSE_DATE: parseFn('DATE'),
  PARSE_TIME: parseFn('TIME'),
  PARSE_TIMESTAMP: parseFn('TIMESTAMP'),
  // NOW() is bound by bind/now.ts (the clock joined to the query); this entry names it for the function index
  NOW: {
    sig: 'NOW() -> TIMESTAMP: the clock of the step (bind/now.ts)',
    nulls: '-',
    bind: (_args, pos) => {
      throw new SqlError('NOW() cannot be used here', pos, 'unsupported');
    },
  },
  // not Feldera's (its compiler has no CURRENT_TIMESTAMP / CURRENT_DATE; feldera/feldera#6477)
  CURRENT_TIMESTAMP: notFeldera('NOW()'),
  CURRENT_DATE: notFeldera('CAST(NOW() AS DATE)'),
  ...aliases(['RANDOM', 'RAND'], {
    sig: 'not deterministic',
    nulls: '-',
    bind: (_args, pos, name) => {
      throw new SqlError(`${name} is not deterministic and is not supported in views`, pos, 'unsupported');
    },
  }),
};

function notFeldera(instead: string): ScalarFn {
  return {
    sig: `not supported: use ${instead}`,
    nulls: '-',
    bind: (_args, pos, name) => {
      throw new SqlError(`${name} is not supported (as in Feldera): use ${instead}`, pos, 'unsupported');
    },
  };
}
