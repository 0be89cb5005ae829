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

/** The number the `len` digits of `text` from `at` spell, or -1 where one is not a digit. */
function digits(text: string, at: number, len: number): number {
  let n = 0;
  for (let i = at; i < at + len; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * The days of `YYYY-MM-DD` at the start of `text` (a year from 1000 on), or undefined when it is not that or
 * not a date: the common form read without a regular expression or a Date (the general reader below takes
 * what this does not, with the same results).
 */
function canonicalDays(text: string): number | undefined {
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return undefined;
  const y = digits(text, 0, 4);
  const mo = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  if (y < 1000 || mo < 1 || mo > 12 || d < 1) return undefined;
  if (d > daysInMonth(y, mo)) return undefined;
  return daysFromCivil(y, mo, d);
}

export function parseDate(text: string): number | undefined {
  return (text.length === 10 ? canonicalDays(text) : undefined) ?? readDate(text);
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

/** TIMESTAMP text 'YYYY-MM-DD[ T]HH:MM:SS[.ffffff]' (or a bare date, or RFC 3339 with an offset, or a trailing UTC as TIMESTAMP WITH TIME ZONE literals write it) to ms since the epoch. */
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
  const ms = m[7] ? Math.floor(+m[7].padEnd(9, '0') / 1e6) : 0;
  let offset = 0;
  if (m[8] && m[8] !== 'Z' && m[8] !== 'UTC') {
    const sign = m[8][0] === '-' ? -1 : 1;
    const digits = m[8].slice(1).replace(':', '');
    offset = sign * (+digits.slice(0, 2) * 60 + +digits.slice(2)) * 60_000;
  }
  return days * MS_PER_DAY + ((h * 60 + mi) * 60 + s) * 1000 + ms - offset;
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
  let end = Math.min(n, 23);
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
  const len = text.length;
  if (len < 19 || len === 20 || len > 29) return undefined;
  const sep = text.charCodeAt(10);
  if ((sep !== 32 && sep !== 84) || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  const days = canonicalDays(text);
  const h = digits(text, 11, 2);
  const mi = digits(text, 14, 2);
  const s = digits(text, 17, 2);
  if (days === undefined || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return undefined;
  let ms = 0;
  if (len > 19) {
    if (text.charCodeAt(19) !== 46) return undefined;
    // milliseconds: the first three fraction digits (the rest dropped, as the general reader does)
    const frac = digits(text, 20, len - 20);
    if (frac < 0) return undefined;
    const first3 = len - 20 >= 3 ? digits(text, 20, 3) : frac * (len - 20 === 1 ? 100 : 10);
    ms = first3;
  }
  return days * MS_PER_DAY + ((h * 60 + mi) * 60 + s) * 1000 + ms;
}

export function formatTimestamp(ms: number): string {
  const d = new Date(ms);
  let out = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const frac = d.getUTCMilliseconds();
  if (frac) out += '.' + String(frac).padStart(3, '0').replace(/0+$/, '');
  return out;
}

export const DAY_MS = MS_PER_DAY;

/** Add months to a timestamp (ms), clamping the day to the month's end, as SQL does. */
export function addMonthsTs(ms: number, months: number): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth() + months;
  const target = new Date(Date.UTC(y, mo, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), day) + (ms - Date.UTC(y, d.getUTCMonth(), d.getUTCDate()));
}

export type DateField =
  'YEAR' | 'QUARTER' | 'MONTH' | 'WEEK' | 'DAY' | 'DOW' | 'DOY' | 'HOUR' | 'MINUTE' | 'SECOND' | 'MILLISECOND' | 'MICROSECOND' | 'EPOCH' | 'DECADE' | 'CENTURY' | 'MILLENNIUM' | 'ISODOW' | 'ISOYEAR';

/** EXTRACT of a field from a timestamp in ms (dates are converted to ms first). */
export function extractField(field: DateField, ms: number): number {
  const d = new Date(ms);
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
      return (d.getUTCSeconds() * 1000 + d.getUTCMilliseconds()) * 1000;
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
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  switch (unit) {
    case 'YEAR':
      return Date.UTC(y, 0, 1);
    case 'QUARTER':
      return Date.UTC(y, Math.floor(d.getUTCMonth() / 3) * 3, 1);
    case 'MONTH':
      return Date.UTC(y, d.getUTCMonth(), 1);
    case 'WEEK': {
      const day = Date.UTC(y, d.getUTCMonth(), d.getUTCDate());
      const dow = (d.getUTCDay() + 6) % 7; // Monday = 0
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
