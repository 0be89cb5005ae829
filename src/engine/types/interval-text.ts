/**
 * INTERVAL qualifiers and the text of interval values, as Feldera's sqllib writes and reads them.
 * Contract:
 * - A qualifier is 'UNIT' or 'UNIT TO UNIT' with singular units (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND);
 *   intervalQualifier normalizes what SQL accepts (plurals, YEARS TO MONTHS) and refuses other pairs.
 * - Values: a day-time interval is milliseconds, a year-month interval months (types.ts). The qualifier never
 *   changes the value, only its text: `formatInterval` is CAST(interval AS VARCHAR) (e.g. DAY TO MINUTE
 *   '+1855 19:42', MINUTE '+2672382', YEAR TO MONTH '-2-08'); an unqualified day-time interval prints as
 *   DAY TO SECOND, a year-month one as YEAR TO MONTH.
 * - `parseInterval` reads the text of a qualifier ('+5-0' YEAR TO MONTH, '10 10:30:40.999' DAY TO SECOND,
 *   '80.001' SECOND), a leading sign applying to every field; undefined when the text does not fit.
 */

const UNIT_MS: Readonly<Record<string, number>> = { DAY: 86_400_000, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1000 };
const ORDER = ['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'];
const PAIRS = new Set(['YEAR TO MONTH', 'DAY TO HOUR', 'DAY TO MINUTE', 'DAY TO SECOND', 'HOUR TO MINUTE', 'HOUR TO SECOND', 'MINUTE TO SECOND']);

/** A unit word as a singular unit (DAYS -> DAY), or undefined when it is not an interval unit. */
export function intervalUnit(word: string): string | undefined {
  const u = word.toUpperCase().replace(/S$/, '');
  return ORDER.includes(u) ? u : undefined;
}

/** The qualifier of `start [TO end]`, or undefined when SQL has no such interval type. */
export function intervalQualifier(start: string, end?: string): string | undefined {
  const a = intervalUnit(start);
  if (!a) return undefined;
  if (end === undefined) return a;
  const b = intervalUnit(end);
  const q = `${a} TO ${b}`;
  return b && PAIRS.has(q) ? q : undefined;
}

/** Whether a qualifier is of a year-month interval. */
export const isLongQualifier = (q: string): boolean => q.startsWith('YEAR') || q.startsWith('MONTH');

/** The milliseconds of one `unit` of a day-time qualifier's last unit (for numbers read as that unit). */
export const unitMs = (unit: string): number | undefined => UNIT_MS[unit];

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** CAST(interval AS VARCHAR): `v` is months (year-month) or milliseconds (day-time). */
export function formatInterval(v: number, long: boolean, qualifier?: string): string {
  if (long) {
    const q = qualifier ?? 'YEAR TO MONTH';
    if (q === 'MONTH') return (v < 0 ? '' : '+') + String(v);
    const years = Math.trunc(v / 12);
    if (q === 'YEAR') return (years < 0 ? '' : '+') + String(years + 0);
    const m = Math.abs(v);
    return `${v < 0 ? '-' : '+'}${Math.trunc(m / 12)}-${pad2(m % 12)}`;
  }
  const q = qualifier ?? 'DAY TO SECOND';
  const micros = Math.round(v * 1000);
  if (q === 'MINUTE') {
    const minutes = Math.trunc(micros / 60_000_000) + 0;
    return (minutes < 0 ? '' : '+') + String(minutes);
  }
  const sign = micros < 0 ? '-' : '+';
  const mag = Math.abs(micros);
  const fraction = String(mag % 1_000_000).padStart(6, '0');
  const totalSeconds = Math.floor(mag / 1_000_000);
  const seconds = totalSeconds % 60;
  const totalMinutes = Math.floor(totalSeconds / 60);
  const minutes = totalMinutes % 60;
  const totalHours = Math.floor(totalMinutes / 60);
  const hours = totalHours % 24;
  const days = Math.floor(totalHours / 24);
  switch (q) {
    case 'DAY':
      return `${sign}${days}`;
    case 'HOUR':
      return `${sign}${totalHours}`;
    case 'DAY TO HOUR':
      return `${sign}${days} ${pad2(hours)}`;
    case 'DAY TO MINUTE':
      return `${sign}${days} ${pad2(hours)}:${pad2(minutes)}`;
    case 'HOUR TO MINUTE':
      return `${sign}${totalHours}:${pad2(minutes)}`;
    case 'SECOND':
      return `${sign}${totalSeconds}.${fraction}`;
    case 'HOUR TO SECOND':
      return `${sign}${totalHours}:${pad2(minutes)}:${pad2(seconds)}.${fraction}`;
    case 'MINUTE TO SECOND':
      return `${sign}${pad2(totalMinutes)}:${pad2(seconds)}.${fraction}`;
    default: // DAY TO SECOND
      return `${sign}${days} ${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}${mag % 1_000_000 === 0 ? '' : '.' + fraction}`;
  }
}

const NUM = '(\\d+)';
const SEC = '(\\d+(?:\\.\\d*)?)';
/** Per qualifier: the fields' pattern and each field's unit (months for year-month, else milliseconds). */
const FORMS: Readonly<Record<string, [RegExp, number[]]>> = {
  YEAR: [new RegExp(`^${NUM}$`), [12]],
  MONTH: [new RegExp(`^${NUM}$`), [1]],
  'YEAR TO MONTH': [new RegExp(`^${NUM}-${NUM}$`), [12, 1]],
  DAY: [new RegExp(`^${NUM}$`), [86_400_000]],
  HOUR: [new RegExp(`^${NUM}$`), [3_600_000]],
  MINUTE: [new RegExp(`^${NUM}$`), [60_000]],
  SECOND: [new RegExp(`^${SEC}$`), [1000]],
  'DAY TO HOUR': [new RegExp(`^${NUM} ${NUM}$`), [86_400_000, 3_600_000]],
  'DAY TO MINUTE': [new RegExp(`^${NUM} ${NUM}:${NUM}$`), [86_400_000, 3_600_000, 60_000]],
  'DAY TO SECOND': [new RegExp(`^${NUM} ${NUM}:${NUM}:${SEC}$`), [86_400_000, 3_600_000, 60_000, 1000]],
  'HOUR TO MINUTE': [new RegExp(`^${NUM}:${NUM}$`), [3_600_000, 60_000]],
  'HOUR TO SECOND': [new RegExp(`^${NUM}:${NUM}:${SEC}$`), [3_600_000, 60_000, 1000]],
  'MINUTE TO SECOND': [new RegExp(`^${NUM}:${SEC}$`), [60_000, 1000]],
};

/** The value of an interval's text under `qualifier` (months or milliseconds), or undefined when it does not fit. */
export function parseInterval(text: string, qualifier: string): number | undefined {
  const form = FORMS[qualifier];
  if (!form) return undefined;
  let s = text.trim();
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s.startsWith('-') ? -1 : 1;
    s = s.slice(1).trim();
  }
  const m = form[0].exec(s);
  if (!m) return undefined;
  let v = 0;
  form[1].forEach((unit, i) => (v += Number(m[i + 1]) * unit));
  return sign * Math.round(v) + 0;
}

/** The qualifier of an operation on two intervals: the span of both (DAY TO HOUR with DAY is DAY TO HOUR); none without both. */
export function unionQualifier(a?: string, b?: string): string | undefined {
  if (!a || !b) return undefined;
  const units = [...a.split(' TO '), ...b.split(' TO ')].map((u) => ORDER.indexOf(u));
  const start = ORDER[Math.min(...units)]!;
  const end = ORDER[Math.max(...units)]!;
  return start === end ? start : intervalQualifier(start, end);
}

/** A qualifier as the parser names it (`HourToSecond`, `Day`) in SQL's words, or undefined. */
export function qualifierFromParser(fields: string): string | undefined {
  const [start, end] = fields.split('To');
  return start ? intervalQualifier(start, end) : undefined;
}
