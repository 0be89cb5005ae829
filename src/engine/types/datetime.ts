/** DATE (days), TIME (nanoseconds), TIMESTAMP (milliseconds) parsing and formatting, all without time zones. */

const MS_PER_DAY = 86_400_000;

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil), month 1-12. */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in month `mo` (1-12) of year `y` (proleptic Gregorian). */
function daysInMonth(y: number, mo: number): number {
  return DAYS_IN_MONTH[mo - 1]! + (mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 1 : 0);
}

/**
 * The days of `YYYY-MM-DD` at `from` in `src` (a string's character codes or a buffer's Latin-1 bytes; a year
 * from 1000 on), or undefined when it is not that or not a date: the common form read without a regular
 * expression or a Date (the general reader below takes what this does not, with the same results).
 */
function canonicalDays(src: string | Uint8Array, from: number): number | undefined {
  if (codeAt(src, from + 4) !== 45 || codeAt(src, from + 7) !== 45) return undefined;
  const y = digitsAt(src, from, 4);
  const mo = digitsAt(src, from + 5, 2);
  const d = digitsAt(src, from + 8, 2);
  if (y < 1000 || mo < 1 || mo > 12 || d < 1) return undefined;
  if (d > daysInMonth(y, mo)) return undefined;
  return daysFromCivil(y, mo, d);
}

export function parseDate(text: string): number | undefined {
  return (text.length === 10 ? canonicalDays(text, 0) : undefined) ?? readDate(text);
}

/** parseDate's general reader (any spacing, 1-4 digit years, 1-2 digit months and days); exported for tests. */
export function readDate(text: string): number | undefined {
  const m = /^\s*(-?\d{1,4})-(\d{1,2})-(\d{1,2})\s*$/.exec(text);
  if (!m) return undefined;
  const y = +m[1]!;
  const mo = +m[2]!;
  const d = +m[3]!;
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return undefined;
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCDate() !== d) return undefined;
  return Math.round(ms / MS_PER_DAY);
}

export function formatDate(days: number): string {
  const d = new Date(days * MS_PER_DAY);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** TIME text 'HH:MM[:SS[.fffffffff]]' to nanoseconds since midnight. */
export function parseTime(text: string): number | undefined {
  const m = /^\s*(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*$/.exec(text);
  if (!m) return undefined;
  const h = +m[1]!;
  const mi = +m[2]!;
  const s = m[3] ? +m[3] : 0;
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const frac = m[4] ? +m[4].padEnd(9, '0') : 0;
  return ((h * 60 + mi) * 60 + s) * 1e9 + frac;
}

export function formatTime(ns: number): string {
  const totalS = Math.floor(ns / 1e9);
  const frac = ns - totalS * 1e9;
  const h = Math.floor(totalS / 3600);
  const mi = Math.floor((totalS % 3600) / 60);
  const s = totalS % 60;
  let out = `${pad(h)}:${pad(mi)}:${pad(s)}`;
  if (frac > 0) out += '.' + String(Math.round(frac)).padStart(9, '0').replace(/0+$/, '');
  return out;
}

/**
 * A TIMESTAMP is milliseconds since the epoch with microseconds as its fraction, as Feldera keeps them: the
 * double nearest to ms + µs / 1000, which gives its µs back exactly while |ms| < 2^42 (years 1831 to 2109);
 * past that a double cannot, and a TIMESTAMP keeps whole milliseconds. One instant is one number, whatever
 * computed it (tsFrom after tsSplit).
 */
const MICROS_EXACT = 2 ** 42;

/** The TIMESTAMP of whole milliseconds `ms` and `micros` (0..999) more. */
export function tsFrom(ms: number, micros: number): number {
  return micros !== 0 && Math.abs(ms) < MICROS_EXACT ? (ms * 1000 + micros) / 1000 : ms;
}

/** A TIMESTAMP's whole milliseconds and the microseconds (0..999) after them. */
export function tsSplit(v: number): [number, number] {
  const ms = Math.floor(v);
  const us = Math.round((v - ms) * 1000);
  return us >= 1000 ? [ms + 1, 0] : [ms, us];
}

/** A TIMESTAMP moved by whole milliseconds, its microseconds kept. */
export function tsPlusMs(v: number, ms: number): number {
  const [whole, us] = tsSplit(v);
  return tsFrom(whole + ms, us);
}

/** Microseconds between two TIMESTAMPs (a - b). */
export function tsMicrosBetween(a: number, b: number): number {
  const [ma, ua] = tsSplit(a);
  const [mb, ub] = tsSplit(b);
  return (ma - mb) * 1000 + (ua - ub);
}

/** The microseconds of a fraction's digits (the first six; the rest dropped). */
const microsOfFraction = (digitsText: string): number => +digitsText.slice(0, 6).padEnd(6, '0');

/** TIMESTAMP text 'YYYY-MM-DD[ T]HH:MM:SS[.ffffff]' (or a bare date, or RFC 3339 with an offset, or a trailing UTC as TIMESTAMP WITH TIME ZONE literals write it) to ms since the epoch (microseconds its fraction). */
export function parseTimestamp(text: string): number | undefined {
  return canonicalTimestamp(text) ?? readTimestamp(text);
}

/** parseTimestamp's general reader (every form it takes); exported for tests. */
export function readTimestamp(text: string): number | undefined {
  const m = /^\s*(-?\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?\s*$/.exec(text);
  if (!m) return undefined;
  const days = parseDate(`${m[1]}-${m[2]}-${m[3]}`);
  if (days === undefined) return undefined;
  const h = m[4] ? +m[4] : 0;
  const mi = m[5] ? +m[5] : 0;
  const s = m[6] ? +m[6] : 0;
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const micros = m[7] ? microsOfFraction(m[7]) : 0;
  let offset = 0;
  if (m[8] && m[8] !== 'Z' && m[8] !== 'UTC') {
    const sign = m[8][0] === '-' ? -1 : 1;
    const digits = m[8].slice(1).replace(':', '');
    offset = sign * (+digits.slice(0, 2) * 60 + +digits.slice(2)) * 60_000;
  }
  return tsFrom(days * MS_PER_DAY + ((h * 60 + mi) * 60 + s) * 1000 - offset + Math.floor(micros / 1000), micros % 1000);
}

/** Character code i of a string, or byte i of a buffer (ASCII text either way). */
function codeAt(src: string | Uint8Array, i: number): number {
  return typeof src === 'string' ? src.charCodeAt(i) : src[i]!;
}

/** The value of the `n` ASCII digits at src[at .. at + n), or -1 when one of them is not a digit. */
function digitsAt(src: string | Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = codeAt(src, i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * A TIMESTAMP text in the plain shape clients send, 'YYYY-MM-DD HH:MM:SS' with an optional fraction of 1
 * to 9 digits and a year from 1000, read by hand (no regular expression, no Date, no closure) from the `n`
 * character codes of `src` from `from` on (a string's, or a buffer's bytes): the length of its start that is
 * its output form (formatTimestamp's text of the instant parseTimestamp reads: the fraction cut to
 * milliseconds, trailing zeros not written), or -1 for any other text (then parseTimestamp decides), an
 * invalid date or time included.
 */
export function plainTimestampLength(src: string | Uint8Array, from: number, n: number): number {
  if (n !== 19 && (n < 21 || n > 29)) return -1;
  const f = from;
  if (codeAt(src, f + 4) !== 45 || codeAt(src, f + 7) !== 45 || codeAt(src, f + 10) !== 32 || codeAt(src, f + 13) !== 58 || codeAt(src, f + 16) !== 58) return -1;
  const y = digitsAt(src, f, 4);
  const mo = digitsAt(src, f + 5, 2);
  const d = digitsAt(src, f + 8, 2);
  const h = digitsAt(src, f + 11, 2);
  const mi = digitsAt(src, f + 14, 2);
  const s = digitsAt(src, f + 17, 2);
  if (y < 1000 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return -1;
  if (n === 19) return 19;
  if (codeAt(src, f + 19) !== 46 || digitsAt(src, f + 20, n - 20) < 0) return -1;
  // microseconds are kept within years 1831..2108 (tsFrom), milliseconds outside; 1830 and 2109 straddle the bound
  if (n > 23 && (y === 1830 || y === 2109)) return -1;
  let end = Math.min(n, y >= 1831 && y <= 2108 ? 26 : 23);
  while (end > 20 && codeAt(src, f + end - 1) === 48) end--;
  return end === 20 ? 19 : end;
}

/** plainTimestampLength of a string: its output form, or undefined. */
export function plainTimestampText(text: string): string | undefined {
  const n = plainTimestampLength(text, 0, text.length);
  return n < 0 ? undefined : n === text.length ? text : text.slice(0, n);
}

/**
 * `YYYY-MM-DD HH:MM:SS[.f{1,9}]` (or a `T` between), a year from 1000 on, in ms; undefined for any other form
 * or a value out of range (the general reader then decides). The form generators and formatTimestamp write.
 */
function canonicalTimestamp(text: string): number | undefined {
  return canonicalTimestampAt(text, 0, text.length);
}

/**
 * canonicalTimestamp of the `len` character codes of `src` from `from` on (a string's, or a buffer's Latin-1
 * bytes: the same codes give the same result), read in place: no string is made.
 */
export function canonicalTimestampAt(src: string | Uint8Array, from: number, len: number): number | undefined {
  if (len < 19 || len === 20 || len > 29) return undefined;
  const sep = codeAt(src, from + 10);
  if ((sep !== 32 && sep !== 84) || codeAt(src, from + 13) !== 58 || codeAt(src, from + 16) !== 58) return undefined;
  const days = canonicalDays(src, from);
  const h = digitsAt(src, from + 11, 2);
  const mi = digitsAt(src, from + 14, 2);
  const s = digitsAt(src, from + 17, 2);
  if (days === undefined || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return undefined;
  let micros = 0;
  if (len > 19) {
    if (codeAt(src, from + 19) !== 46) return undefined;
    if (digitsAt(src, from + 20, len - 20) < 0) return undefined;
    // microseconds: the first six fraction digits, as if padded with zeros to six (the rest dropped, as the general reader does)
    const k = Math.min(6, len - 20);
    micros = digitsAt(src, from + 20, k) * MICRO_SCALE[k]!;
  }
  return tsFrom(days * MS_PER_DAY + ((h * 60 + mi) * 60 + s) * 1000 + Math.floor(micros / 1000), micros % 1000);
}

/** What k fraction digits (k = 1..6) are multiplied by to be microseconds. */
const MICRO_SCALE = [1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];

export function formatTimestamp(ms: number): string {
  const [whole, us] = tsSplit(ms);
  const secondMs = Math.floor(whole / 1000) * 1000;
  const frac = (whole - secondMs) * 1000 + us; // microseconds within the second
  const d = new Date(secondMs);
  let out = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (frac) out += '.' + String(frac).padStart(6, '0').replace(/0+$/, '');
  return out;
}

/** Smallest and largest whole milliseconds writeTimestampBytes writes (years 1000 to 9999). */
const BYTES_MIN_MS = Date.UTC(1000, 0, 1);
const BYTES_MAX_MS = Date.UTC(10000, 0, 1) - 1;

/**
 * formatTimestamp of a whole number of milliseconds in years 1000..9999, written as ASCII bytes into `out` from
 * 0 (at least 23 bytes long), without a string or a Date: the byte length written; -1 for any other value
 * (the caller formats it with formatTimestamp). For readers that put timestamps straight into a RowBatch.
 */
export function writeTimestampBytes(ms: number, out: Uint8Array): number {
  if (!Number.isInteger(ms) || ms < BYTES_MIN_MS || ms > BYTES_MAX_MS) return -1;
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  // the civil date of a day count (proleptic Gregorian; eras of 400 years from 0000-03-01)
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const mi = Math.floor(rest / 60_000);
  rest -= mi * 60_000;
  const s = Math.floor(rest / 1000);
  const frac = rest - s * 1000;
  out[0] = 48 + Math.floor(y / 1000);
  out[1] = 48 + (Math.floor(y / 100) % 10);
  out[2] = 48 + (Math.floor(y / 10) % 10);
  out[3] = 48 + (y % 10);
  out[4] = 45;
  two(out, 5, m);
  out[7] = 45;
  two(out, 8, d);
  out[10] = 32;
  two(out, 11, h);
  out[13] = 58;
  two(out, 14, mi);
  out[16] = 58;
  two(out, 17, s);
  if (frac === 0) return 19;
  out[19] = 46;
  out[20] = 48 + Math.floor(frac / 100);
  out[21] = 48 + (Math.floor(frac / 10) % 10);
  out[22] = 48 + (frac % 10);
  // trailing zeros dropped, as formatTimestamp does
  return frac % 100 === 0 ? 21 : frac % 10 === 0 ? 22 : 23;
}

function two(out: Uint8Array, at: number, v: number): void {
  out[at] = 48 + Math.floor(v / 10);
  out[at + 1] = 48 + (v % 10);
}

/** A TIMESTAMP WITH TIME ZONE's JSON text (Feldera's '%F %T%.f%:z': the fraction in 3 or 6 digits, +00:00 after). */
export function formatTimestampTzJson(ms: number): string {
  const [whole, us] = tsSplit(ms);
  const plain = formatTimestamp(Math.floor(whole / 1000) * 1000);
  const micros = (whole - Math.floor(whole / 1000) * 1000) * 1000 + us;
  const frac = micros === 0 ? '' : micros % 1000 === 0 ? '.' + String(micros / 1000).padStart(3, '0') : '.' + String(micros).padStart(6, '0');
  return `${plain}${frac}+00:00`;
}

/** A TIMESTAMP cast to VARCHAR (Feldera's Display: six fraction digits when any). */
export function formatTimestampText(ms: number): string {
  const [whole, us] = tsSplit(ms);
  const plain = formatTimestamp(Math.floor(whole / 1000) * 1000);
  const micros = (whole - Math.floor(whole / 1000) * 1000) * 1000 + us;
  return `${plain}${micros === 0 ? '' : '.' + String(micros).padStart(6, '0')}`;
}

/** A TIMESTAMP WITH TIME ZONE cast to VARCHAR (Feldera's Display: six fraction digits when any, ' +00:00' after). */
export const formatTimestampTzText = (ms: number): string => `${formatTimestampText(ms)} +00:00`;

/** A TIME cast to VARCHAR (Feldera's Display: nine fraction digits when any). */
export function formatTimeText(ns: number): string {
  const frac = ns % 1e9;
  return frac === 0 ? formatTime(ns) : `${formatTime(ns - frac)}.${String(frac).padStart(9, '0')}`;
}

export const DAY_MS = MS_PER_DAY;

/** Add months to a timestamp (ms), clamping the day to the month's end, as SQL does. */
export function addMonthsTs(ms: number, months: number): number {
  const d = new Date(Math.floor(ms));
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth() + months;
  const target = new Date(Date.UTC(y, mo, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return tsPlusMs(ms, Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), day) - Date.UTC(y, d.getUTCMonth(), d.getUTCDate()));
}

export type DateField =
  'YEAR' | 'QUARTER' | 'MONTH' | 'WEEK' | 'DAY' | 'DOW' | 'DOY' | 'HOUR' | 'MINUTE' | 'SECOND' | 'MILLISECOND' | 'MICROSECOND' | 'EPOCH' | 'DECADE' | 'CENTURY' | 'MILLENNIUM' | 'ISODOW' | 'ISOYEAR';

/** EXTRACT of a field from a timestamp in ms (dates are converted to ms first). */
export function extractField(field: DateField, ms: number): number {
  const d = new Date(Math.floor(ms));
  const y = d.getUTCFullYear();
  switch (field) {
    case 'YEAR':
      return y;
    case 'QUARTER':
      return Math.floor(d.getUTCMonth() / 3) + 1;
    case 'MONTH':
      return d.getUTCMonth() + 1;
    case 'DAY':
      return d.getUTCDate();
    case 'DOW':
      return d.getUTCDay() + 1; // Calcite: Sunday = 1
    case 'ISODOW':
      return d.getUTCDay() === 0 ? 7 : d.getUTCDay();
    case 'DOY':
      return Math.floor((Date.UTC(y, d.getUTCMonth(), d.getUTCDate()) - Date.UTC(y, 0, 1)) / MS_PER_DAY) + 1;
    case 'WEEK':
    case 'ISOYEAR': {
      const t = new Date(Date.UTC(y, d.getUTCMonth(), d.getUTCDate()));
      const dayNum = t.getUTCDay() || 7;
      t.setUTCDate(t.getUTCDate() + 4 - dayNum);
      const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
      if (field === 'ISOYEAR') return t.getUTCFullYear();
      return Math.ceil(((t.getTime() - yearStart) / MS_PER_DAY + 1) / 7);
    }
    case 'HOUR':
      return d.getUTCHours();
    case 'MINUTE':
      return d.getUTCMinutes();
    case 'SECOND':
      return d.getUTCSeconds();
    case 'MILLISECOND':
      return d.getUTCSeconds() * 1000 + d.getUTCMilliseconds();
    case 'MICROSECOND':
      return (d.getUTCSeconds() * 1000 + d.getUTCMilliseconds()) * 1000 + tsSplit(ms)[1];
    case 'EPOCH':
      return Math.floor(ms / 1000);
    case 'DECADE':
      return Math.floor(y / 10);
    case 'CENTURY':
      return y > 0 ? Math.floor((y - 1) / 100) + 1 : Math.floor(y / 100);
    case 'MILLENNIUM':
      return y > 0 ? Math.floor((y - 1) / 1000) + 1 : Math.floor(y / 1000);
  }
}

/** Truncate a timestamp (ms) to a unit. */
export function truncTimestamp(unit: string, ms: number): number | undefined {
  const d = new Date(Math.floor(ms));
  const y = d.getUTCFullYear();
  switch (unit) {
    case 'MILLENNIUM':
      return Date.UTC(y - (y % 1000), 0, 1); // year 2000 begins one (Feldera's sqllib floor_millennium), as 1900 a century
    case 'CENTURY':
      return Date.UTC(y - (y % 100), 0, 1);
    case 'DECADE':
      return Date.UTC(y - (y % 10), 0, 1);
    case 'YEAR':
      return Date.UTC(y, 0, 1);
    case 'QUARTER':
      return Date.UTC(y, Math.floor(d.getUTCMonth() / 3) * 3, 1);
    case 'MONTH':
      return Date.UTC(y, d.getUTCMonth(), 1);
    case 'WEEK': {
      const day = Date.UTC(y, d.getUTCMonth(), d.getUTCDate());
      const dow = d.getUTCDay(); // weeks begin on Sunday (Feldera's sqllib floor_week: DOW 1 is Sunday)
      return day - dow * MS_PER_DAY;
    }
    case 'DAY':
      return Math.floor(ms / MS_PER_DAY) * MS_PER_DAY;
    case 'HOUR':
      return Math.floor(ms / 3_600_000) * 3_600_000;
    case 'MINUTE':
      return Math.floor(ms / 60_000) * 60_000;
    case 'SECOND':
      return Math.floor(ms / 1000) * 1000;
    default:
      return undefined;
  }
}
