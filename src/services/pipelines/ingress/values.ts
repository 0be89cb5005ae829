/**
 * Per-column value checks for ingress: a JSON value (or a CSV field) against the column's SQL type,
 * with serde-like messages as Feldera's ("invalid type: string \"foo\", expected a boolean").
 * A converter returns the value in the engine's JSON form, or throws ValueError.
 */
import { parseJsonText, type JsonValue } from '../../../engine/index.js';

export class ValueError extends Error {}

export type Converter = (v: unknown) => JsonValue;

const INT_RANGES: Record<string, [bigint, bigint, string]> = {
  TINYINT: [-128n, 127n, 'i8'],
  SMALLINT: [-32768n, 32767n, 'i16'],
  INT2: [-32768n, 32767n, 'i16'],
  INTEGER: [-2147483648n, 2147483647n, 'i32'],
  INT: [-2147483648n, 2147483647n, 'i32'],
  INT4: [-2147483648n, 2147483647n, 'i32'],
  SIGNED: [-2147483648n, 2147483647n, 'i32'],
  BIGINT: [-9223372036854775808n, 9223372036854775807n, 'i64'],
  INT8: [-9223372036854775808n, 9223372036854775807n, 'i64'],
  INT64: [-9223372036854775808n, 9223372036854775807n, 'i64'],
};

export function describe(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  if (typeof v === 'number') return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  if (Array.isArray(v)) return 'sequence';
  return 'map';
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const TIME_RE = /^\d{1,2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;
const TS_RE = /^\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DECIMAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** `DECIMAL(p, s)` of a column type, when it names its precision. */
function decimalParams(type: string): [number, number] | undefined {
  const m = /\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)/.exec(type);
  return m ? [Number(m[1]), Number(m[2] ?? 0)] : undefined;
}

function decimalName(type: string): string {
  const ps = decimalParams(type);
  return ps ? `DECIMAL(${ps[0]}, ${ps[1]})` : 'DECIMAL';
}

/**
 * Whether a DECIMAL value has more integer digits than DECIMAL(p, s) holds (p - s), before any rounding
 * (rounding can only add a digit, and those edge cases are left to the engine's own check).
 */
function tooManyIntegerDigits(type: string, v: number | string): boolean {
  const ps = decimalParams(type);
  if (!ps) return false;
  const room = ps[0] - ps[1];
  if (typeof v === 'number') return Number.isFinite(v) && Math.abs(v) >= 10 ** room;
  const text = v.trim();
  if (/[eE]/.test(text)) return false;
  const int = text.replace(/^[+-]/, '').split('.')[0]!.replace(/^0+/, '');
  return int.length > room;
}

/** A BIGINT JSON number beyond 2^53 that reached here as a JS number: JSON.parse has already lost its digits. */
function unsafeInteger(text: string): ValueError {
  return new ValueError(`invalid value: integer \`${text}\` lost its digits in JSON.parse (read the text with parseJsonText)`);
}

/**
 * The calendar and clock check of a text that already matched DATE_RE, TIME_RE or TS_RE: a real day of
 * its month (2021-02-30 is refused), hours 0-23, minutes and seconds 0-59 (the engine's ranges).
 */
function validDateTime(text: string): boolean {
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (date) {
    const [y, mo, d] = [+date[1]!, +date[2]!, +date[3]!];
    if (mo < 1 || mo > 12 || d < 1 || new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return false;
  }
  const time = /(?:^|[ T])(\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(date ? text.slice(10) : text);
  if (time && (+time[1]! > 23 || +time[2]! > 59 || (time[3] !== undefined && +time[3] > 59))) return false;
  return true;
}

function baseType(type: string): string {
  return type.trim().toUpperCase().replace(/\s*\(.*\)\s*$/, '').trim();
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

function epochToTimestamp(ms: number): string {
  const d = new Date(ms);
  const frac = d.getUTCMilliseconds();
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac ? '.' + pad(frac, 3) : ''}`;
}

/** Builds the JSON-value converter for a column type ('INTEGER', 'DECIMAL(10, 2)', 'INT ARRAY', ...). */
export function jsonConverter(type: string, nullable: boolean): Converter {
  const inner = innerConverter(type);
  return (v) => {
    if (v === null || v === undefined) {
      if (!nullable) throw new ValueError(`invalid type: null, expected ${expected(type)}`);
      return null;
    }
    return inner(v);
  };
}

function expected(type: string): string {
  const t = type.trim().toUpperCase();
  if (/\sARRAY$|\[\]$/.test(t)) return 'a sequence';
  if (t.startsWith('MAP')) return 'a map';
  const b = baseType(t);
  if (INT_RANGES[b]) return INT_RANGES[b]![2];
  switch (b) {
    case 'BOOLEAN':
    case 'BOOL':
      return 'a boolean';
    case 'REAL':
    case 'FLOAT4':
    case 'FLOAT32':
      return 'f32';
    case 'DOUBLE':
    case 'FLOAT8':
    case 'FLOAT64':
      return 'f64';
    case 'DECIMAL':
    case 'NUMERIC':
    case 'DEC':
    case 'NUMBER':
      return 'a decimal number';
    case 'DATE':
      return 'a date (YYYY-MM-DD)';
    case 'TIME':
      return 'a time (HH:MM:SS[.fffffffff])';
    case 'TIMESTAMP':
      return 'a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])';
    default:
      return 'a string';
  }
}

function innerConverter(type: string): Converter {
  const t = type.trim().toUpperCase();
  const arr = /^(.*)\s+ARRAY$/.exec(t) ?? /^(.*)\[\]$/.exec(t);
  if (arr) {
    const elem = jsonConverter(arr[1]!, true);
    return (v) => {
      if (!Array.isArray(v)) throw new ValueError(`invalid type: ${describe(v)}, expected a sequence`);
      return v.map(elem);
    };
  }
  if (t.startsWith('MAP')) {
    const m = /^MAP\s*<\s*(.+?)\s*,\s*(.+)\s*>$/.exec(t);
    const val = m ? jsonConverter(m[2]!, true) : (x: unknown) => x as JsonValue;
    return (v) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ValueError(`invalid type: ${describe(v)}, expected a map`);
      const out: Record<string, JsonValue> = {};
      for (const k of Object.keys(v).sort()) out[k] = val((v as Record<string, unknown>)[k]);
      return out;
    };
  }
  const b = baseType(t);
  const range = INT_RANGES[b];
  if (range) {
    const [lo, hi, name] = range;
    const small = name !== 'i64';
    const loN = Number(lo);
    const hiN = Number(hi);
    return (v) => {
      if (typeof v === 'bigint') {
        // an integer literal beyond 2^53, kept exact by parseJsonText
        if (v < lo || v > hi) throw new ValueError(`invalid value: integer \`${v}\`, expected ${name}`);
        return v;
      }
      if (typeof v !== 'number') throw new ValueError(`invalid type: ${describe(v)}, expected ${name}`);
      if (!Number.isInteger(v)) throw new ValueError(`invalid type: floating point \`${v}\`, expected ${name}`);
      if (small ? v < loN || v > hiN : !Number.isSafeInteger(v) && (BigInt(v) < lo || BigInt(v) > hi))
        throw new ValueError(`invalid value: integer \`${v}\`, expected ${name}`);
      if (!small && !Number.isSafeInteger(v)) throw unsafeInteger(String(v));
      return v;
    };
  }
  switch (b) {
    case 'BOOLEAN':
    case 'BOOL':
      return (v) => {
        if (typeof v !== 'boolean') throw new ValueError(`invalid type: ${describe(v)}, expected a boolean`);
        return v;
      };
    case 'REAL':
    case 'FLOAT4':
    case 'FLOAT32':
    case 'DOUBLE':
    case 'FLOAT8':
    case 'FLOAT64': {
      const name = expected(b);
      return (v) => {
        if (typeof v !== 'number') throw new ValueError(`invalid type: ${describe(v)}, expected ${name}`);
        return v;
      };
    }
    case 'DECIMAL':
    case 'NUMERIC':
    case 'DEC':
    case 'NUMBER':
      return (v) => {
        let out: string | undefined;
        if (typeof v === 'number') out = String(v);
        else if (typeof v === 'string' && DECIMAL_RE.test(v.trim())) out = v.trim();
        if (out === undefined) throw new ValueError(`invalid type: ${describe(v)}, expected a decimal number`);
        if (tooManyIntegerDigits(t, v as number | string)) throw new ValueError(`value does not fit in ${decimalName(t)}`);
        return out;
      };
    case 'DATE':
      return (v) => {
        if (typeof v === 'string' && DATE_RE.test(v.trim()) && validDateTime(v.trim())) return v.trim();
        throw new ValueError(`invalid ${typeof v === 'string' ? 'value' : 'type'}: ${describe(v)}, expected a date (YYYY-MM-DD)`);
      };
    case 'TIME':
      return (v) => {
        if (typeof v === 'string' && TIME_RE.test(v.trim()) && validDateTime(v.trim())) return v.trim();
        throw new ValueError(`invalid ${typeof v === 'string' ? 'value' : 'type'}: ${describe(v)}, expected a time (HH:MM:SS[.fffffffff])`);
      };
    case 'TIMESTAMP':
      return (v) => {
        if (typeof v === 'number' && Number.isFinite(v)) return epochToTimestamp(v);
        if (typeof v === 'string' && TS_RE.test(v.trim()) && validDateTime(v.trim())) return v.trim();
        throw new ValueError(
          `invalid ${typeof v === 'string' ? 'value' : 'type'}: ${describe(v)}, expected a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])`,
        );
      };
    case 'VARCHAR':
    case 'CHAR':
    case 'CHARACTER':
    case 'STRING':
    case 'TEXT':
      return (v) => {
        if (typeof v !== 'string') throw new ValueError(`invalid type: ${describe(v)}, expected a string`);
        return v;
      };
    default:
      // VARIANT, BINARY, UUID, ROW, user types: the engine decides.
      return (v) => v as JsonValue;
  }
}

/** Converts one CSV field (text) to the engine's JSON form. `quoted` fields keep an empty string. */
export function csvConverter(type: string, nullable: boolean): (text: string, quoted: boolean) => JsonValue {
  const t = type.trim().toUpperCase();
  const b = baseType(t);
  const json = jsonConverter(type, nullable);
  const isString = ['VARCHAR', 'CHAR', 'CHARACTER', 'STRING', 'TEXT'].includes(b) && !/ARRAY$|\[\]$/.test(t);
  return (text, quoted) => {
    if (text === '' && !(quoted && isString)) {
      if (!nullable) throw new ValueError(`empty field for a NOT NULL column, expected ${expected(type)}`);
      return null;
    }
    if (isString) return text;
    if (INT_RANGES[b]) {
      const s = text.trim();
      if (!/^[+-]?\d+$/.test(s)) throw new ValueError('invalid digit found in string');
      const n = Number(s);
      const [lo, hi] = INT_RANGES[b]!;
      const big = BigInt(s);
      if (big < lo || big > hi) throw new ValueError('number too large to fit in target type');
      return Number.isSafeInteger(n) ? n : big; // exact beyond 2^53 (the engine's form: a bigint only there)
    }
    switch (b) {
      case 'BOOLEAN':
      case 'BOOL': {
        const s = text.trim().toLowerCase();
        if (s === 'true') return true;
        if (s === 'false') return false;
        throw new ValueError('provided string was not `true` or `false`');
      }
      case 'REAL':
      case 'FLOAT4':
      case 'FLOAT32':
      case 'DOUBLE':
      case 'FLOAT8':
      case 'FLOAT64': {
        const s = text.trim();
        const n = Number(s);
        if (s === '' || !Number.isFinite(n)) throw new ValueError('invalid float literal');
        return n;
      }
      default:
        if (/ARRAY$|\[\]$/.test(t) || t.startsWith('MAP')) {
          let parsed: unknown;
          try {
            parsed = parseJsonText(text); // BIGINT elements keep their digits
          } catch {
            throw new ValueError(`expected ${expected(type)} written as JSON`);
          }
          return json(parsed);
        }
        return json(text);
    }
  };
}
