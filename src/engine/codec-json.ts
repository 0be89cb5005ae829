/**
 * The JSON form of values: fromJson / jsonConverter read a JSON value of a column's type into the internal form
 * (types/values.ts), with serde's messages as Feldera's JSON reader words them (ValueError); toJson writes the
 * output form (DECIMAL as a string with its scale, dates as text, MAP as an object with sorted keys, ...).
 */
import { EngineValueError } from './errors.js';
import { JsonNumberText, type ColumnKeeps, type JsonValue } from './json-value.js';
import { serdeF64 } from '../wire/serde-float.js';
import { isInteger, type SqlType } from './types/types.js';
import { INT_BOUNDS, normInt, parseIntText } from './types/int64.js';
import { decimalParts } from './json-text.js';
import { decimalFromNumber, formatDecimal, parseDecimal, pow10 } from './types/decimal.js';
import { canonicalTimestampAt, formatDate, formatTime, formatTimestamp, formatTimestampTzJson, parseDate, parseTime, parseTimestamp } from './types/datetime.js';
import { bytesToHex, canonicalJson, hexToBytes, variantValue } from './types/variant.js';
import { parseUuid } from './types/uuid.js';
import { makeMap, shortestF32, type Value } from './types/values.js';

/** A value that does not fit its type: an EngineValueError, so that the input codec passes it on as it is. */
export class ValueError extends EngineValueError {}

/** A JSON value as serde (Feldera's JSON reader) names it in its messages: `integer \`5\``, `sequence`, `map`. */
function describe(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'sequence';
  if (v instanceof JsonNumberText) return `floating point \`${v.text}\``;
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  if (typeof v === 'bigint') return `integer \`${v}\``;
  return `${typeof v} \`${String(v)}\``;
}

/** What a value of type t is called in messages ("expected i32", "expected a date (YYYY-MM-DD)"), as serde says it. */
export function expectedText(t: SqlType): string {
  switch (t.kind) {
    case 'TINYINT':
    case 'SMALLINT':
    case 'INTEGER':
    case 'BIGINT':
    case 'UTINYINT':
    case 'USMALLINT':
    case 'UINTEGER':
    case 'UBIGINT':
      return intName(t);
    case 'BOOLEAN':
      return 'a boolean';
    case 'REAL':
      return 'f32';
    case 'DOUBLE':
      return 'f64';
    case 'DECIMAL':
      return 'a decimal number';
    case 'VARCHAR':
    case 'CHAR':
      return 'a string';
    case 'DATE':
      return 'a date (YYYY-MM-DD)';
    case 'TIME':
      return 'a time (HH:MM:SS[.fffffffff])';
    case 'TIMESTAMP':
      return 'a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])';
    case 'ARRAY':
      return 'a sequence';
    case 'MAP':
      return 'a map';
    case 'INTERVAL_DT':
    case 'INTERVAL_YM':
      return 'an interval';
    case 'VARIANT':
      return 'a JSON value';
    case 'VARBINARY':
      return 'an array of bytes or a hex string';
    case 'UUID':
      return 'a UUID string';
    case 'ROW':
      return 'a row (an object of its fields)';
    case 'NULL':
      return 'null';
  }
}

/** `invalid type` for a value of the wrong JSON type, `invalid value` for a string of the right type that does not parse. */
function refused(v: JsonValue, t: SqlType): ValueError {
  return new ValueError(`invalid ${typeof v === 'string' ? 'value' : 'type'}: ${describe(v)}, expected ${expectedText(t)}`);
}

/** A VARIANT NOT NULL slot reads JSON null as the VARIANT null (a value), as Feldera's reader does; a nullable one as SQL NULL. */
export const isVariantNotNull = (t: SqlType): boolean => t.kind === 'VARIANT' && !t.nullable;

/** Convert a JSON value to the internal form of type t. Throws ValueError with a Feldera-like message. */
export function fromJson(v: JsonValue | undefined, t: SqlType): Value {
  if (v === null && isVariantNotNull(t)) return canonicalJson(null);
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'BOOLEAN':
      if (typeof v === 'boolean') return v;
      throw new ValueError(`invalid type: ${describe(v)}, expected a boolean`);
    case 'TINYINT':
    case 'SMALLINT':
    case 'INTEGER':
    case 'BIGINT':
    case 'UTINYINT':
    case 'USMALLINT':
    case 'UINTEGER':
    case 'UBIGINT':
      return intFromJson(v, t);
    case 'DECIMAL':
      return decimalFromJson(v, t);
    case 'REAL':
    case 'DOUBLE':
      if (typeof v === 'number') return t.kind === 'REAL' ? Math.fround(v) : v;
      // the double nearest to the literal's value (Number rounds correctly)
      if (typeof v === 'bigint' || v instanceof JsonNumberText) return t.kind === 'REAL' ? Math.fround(Number(String(v))) : Number(String(v));
      throw new ValueError(`invalid type: ${describe(v)}, expected ${t.kind === 'REAL' ? 'f32' : 'f64'}`);
    case 'VARCHAR':
    case 'CHAR':
      if (typeof v === 'string') return t.kind === 'CHAR' && t.precision ? v.padEnd(t.precision, ' ') : v;
      throw new ValueError(`invalid type: ${describe(v)}, expected a string`);
    case 'DATE': {
      const d = typeof v === 'string' ? parseDate(v) : undefined;
      if (d === undefined) throw refused(v, t);
      return d;
    }
    case 'TIME': {
      const d = typeof v === 'string' ? parseTime(v) : undefined;
      if (d === undefined) throw refused(v, t);
      return d;
    }
    case 'TIMESTAMP': {
      const d = typeof v === 'string' ? parseTimestamp(v) : undefined;
      if (d === undefined) throw refused(v, t);
      return d;
    }
    case 'ARRAY':
      if (!Array.isArray(v)) throw new ValueError(`invalid type: ${describe(v)}, expected a sequence`);
      return v.map((e) => fromJson(e, t.elem!));
    case 'INTERVAL_DT':
    case 'INTERVAL_YM':
      if (typeof v === 'number' && Number.isInteger(v)) return v;
      throw new ValueError(`invalid type: ${describe(v)}, expected an interval`);
    case 'MAP': {
      if (typeof v !== 'object' || Array.isArray(v) || v instanceof JsonNumberText) throw new ValueError(`invalid type: ${describe(v)}, expected a map`);
      return makeMap(Object.entries(v).map(([k, x]) => [mapKeyFromJson(k, t.key!), fromJson(x, t.elem!)]));
    }
    case 'VARIANT':
      return canonicalJson(v);
    case 'UUID': {
      const u = typeof v === 'string' ? parseUuid(v) : undefined;
      if (u === undefined) throw refused(v, t);
      return u;
    }
    case 'VARBINARY': {
      if (Array.isArray(v) && v.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255)) return bytesToHex(Uint8Array.from(v as number[]));
      if (typeof v === 'string' && v.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(v)) return v.toLowerCase(); // no group: a repeated group overflowed the stack on a few MiB
      throw new ValueError(`invalid type: ${describe(v)}, expected ${expectedText(t)}`);
    }
    case 'ROW':
      return rowFromJson(v, t);
    case 'NULL':
      throw new ValueError(`invalid type: ${describe(v)}, expected null`);
  }
}

/**
 * A JSON object's key as a MAP key of type t. JSON keys are strings; as serde_json's map-key reader (which
 * Feldera's JSON input uses), a key of an integer or floating-point type is read from its text: `{"1": "a"}` is
 * a MAP<INT, VARCHAR>. Other key types read the string as it is.
 */
function mapKeyFromJson(k: string, t: SqlType): Value {
  if (t.kind in INT_BOUNDS) {
    const b = parseIntText(k);
    if (b !== undefined && k.trim() === k) return fromJson(b, t);
  } else if ((t.kind === 'REAL' || t.kind === 'DOUBLE') && /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(k)) return fromJson(new JsonNumberText(k), t);
  return fromJson(k, t);
}

/**
 * A ROW from a JSON object keyed by field name (a quoted field exactly, the others in any case; a field
 * left out is NULL; unknown keys are ignored, as for table rows) or from an array in field order.
 */
function rowFromJson(v: JsonValue, t: SqlType): Value {
  const fields = t.fields!;
  if (typeof v !== 'object' || v === null || v instanceof JsonNumberText) throw new ValueError(`invalid type: ${describe(v)}, expected ${expectedText(t)}`);
  let given: (JsonValue | undefined)[];
  if (Array.isArray(v)) {
    if (v.length !== fields.length) throw new ValueError(`invalid length ${v.length}, expected a row of ${fields.length} fields`);
    given = v;
  } else {
    const o = v as Record<string, JsonValue>;
    given = fields.map((f) => {
      if (f.name in o) return o[f.name];
      if (f.quoted) return undefined;
      const lower = f.name.toLowerCase();
      const key = Object.keys(o).find((k) => k.toLowerCase() === lower);
      return key === undefined ? undefined : o[key];
    });
  }
  return fields.map((f, i) => {
    const x = given[i];
    if (x === null && isVariantNotNull(f.type)) return canonicalJson(null);
    if (x === null || x === undefined) {
      if (!f.type.nullable) throw new ValueError(`invalid type: null, expected ${expectedText(f.type)} for the NOT NULL field \`${f.name}\``);
      return null;
    }
    try {
      return fromJson(x, f.type);
    } catch (e) {
      if (e instanceof ValueError) throw new ValueError(`field \`${f.name}\`: ${e.message}`);
      throw e;
    }
  });
}

/**
 * The JSON input values of type t kept exactly as they are (no conversion), both by jsonConverter (the
 * internal form) and by the column codec (codec.ts: the output form), which agree on them: integer numbers in
 * the type's safe range, any number for DOUBLE, strings for VARCHAR, booleans; null: none. A reader that holds
 * values in a typed form (a RowBatch) takes those straight from storage and converts only the others; a JSON
 * null is not covered (its column decides).
 */
export function jsonKept(t: SqlType): ColumnKeeps | null {
  if (isInteger(t)) {
    const { lo, hi } = INT_BOUNDS[t.kind]!;
    return { kind: 'int', lo, hi };
  }
  switch (t.kind) {
    case 'VARCHAR':
      return { kind: 'string' };
    case 'DOUBLE':
      return { kind: 'number' };
    case 'BOOLEAN':
      return { kind: 'boolean' };
    default:
      return null;
  }
}

/**
 * fromJson specialised for one column type, for input rows: the values the type keeps (jsonKept) come back
 * through a closure that skips the type dispatch, DECIMAL's canonical text is read at once; the others call
 * fromJson.
 */
/**
 * A JSON input value for a DOUBLE or REAL column: a long literal (a JsonNumberText or bigint, as parseJsonText
 * keeps one) read as Feldera's serde_json reads it (wire/serde-float.ts: not always the nearest double);
 * anything else as it is. Input rows only: casts and CSV read the nearest double (fromJson).
 */
export function floatInput(v: JsonValue | undefined): JsonValue | undefined {
  return v instanceof JsonNumberText || typeof v === 'bigint' ? serdeF64(String(v)) : v;
}

/**
 * A reader of a JSON string input of type t straight from its Latin-1 bytes (a RowBatch's storage), for the
 * types whose common text form it can read without a string: the value jsonConverter gives for the string
 * those bytes spell, or undefined for any other text (the caller then makes the string and converts it, which
 * gives the value or the error). Null for the other types. TIMESTAMP: its canonical form.
 */
export function jsonTextReader(t: SqlType): TextReader | null {
  if (t.kind === 'TIMESTAMP') return (bytes, from, to) => canonicalTimestampAt(bytes, from, to - from);
  return null;
}

/** See jsonTextReader. */
export type TextReader = (bytes: Uint8Array, from: number, to: number) => Value | undefined;

export function jsonConverter(t: SqlType): (v: JsonValue | undefined) => Value {
  const kept = jsonKept(t);
  switch (kept?.kind) {
    case 'int': {
      const { lo, hi } = kept;
      return (v) => (typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi ? v : fromJson(v, t));
    }
    case 'string':
      return (v) => (typeof v === 'string' ? v : fromJson(v, t));
    case 'number':
      return (v) => (typeof v === 'number' ? v : fromJson(floatInput(v), t));
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : fromJson(v, t));
    case undefined:
      break;
  }
  if (t.kind === 'REAL') return (v) => fromJson(floatInput(v), t);
  if (t.kind === 'DECIMAL') {
    const scale = t.scale ?? 0;
    const bound = t.precision === undefined ? undefined : pow10(t.precision);
    return (v) => {
      if (typeof v !== 'string') return fromJson(v, t);
      const d = parseDecimal(v, scale, true);
      if (d === undefined || (bound !== undefined && (d < 0n ? -d : d) >= bound)) return fromJson(v, t); // for its message
      return d;
    };
  }
  return (v) => fromJson(v, t);
}

/**
 * A JSON integer input: a number (a safe integer: a number beyond 2^53 has already lost digits, so it is
 * refused rather than kept as a different value), a bigint (from parseJsonText) or, for BIGINT only, a string
 * of digits (how JSON producers that lack 64-bit numbers send them); checked against the type's range and
 * normalized (number when safe, else bigint).
 */
function intFromJson(v: JsonValue, t: SqlType): Value {
  let b: bigint | undefined;
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new ValueError(`invalid type: ${describe(v)}, expected ${intName(t)}`);
    if (!Number.isSafeInteger(v)) {
      throw new ValueError(
        `invalid value: integer \`${v}\` is beyond ±${Number.MAX_SAFE_INTEGER} as a JSON number read by JSON.parse (its digits are lost); send its exact digits (read with parseJsonText) or a string`,
      );
    }
    const { lo, hi } = INT_BOUNDS[t.kind]!;
    if (v >= lo && v <= hi) return v === 0 ? 0 : v;
    b = BigInt(v);
  } else if (typeof v === 'bigint') b = v;
  else if (typeof v === 'string' && (t.kind === 'BIGINT' || t.kind === 'UBIGINT')) {
    b = parseIntText(v);
    if (b === undefined) throw new ValueError(`invalid type: ${describe(v)}, expected ${intName(t)}`);
  } else throw new ValueError(`invalid type: ${describe(v)}, expected ${intName(t)}`);
  const { blo, bhi } = INT_BOUNDS[t.kind]!;
  if (b < blo || b > bhi) throw new ValueError(`invalid value: integer \`${b}\`, expected ${intName(t)}`);
  return normInt(b);
}

const INT_NAMES: Readonly<Record<string, string>> = { TINYINT: 'i8', SMALLINT: 'i16', INTEGER: 'i32', BIGINT: 'i64', UTINYINT: 'u8', USMALLINT: 'u16', UINTEGER: 'u32', UBIGINT: 'u64' };

/** An integer type as serde names it: i8..i64, u8..u64. */
function intName(t: SqlType): string {
  return INT_NAMES[t.kind] ?? 'i64';
}

/**
 * A DECIMAL(p, s) input as Feldera reads one (feldera-fxp: the text to a DynamicDecimal, then to Fixed<P, S>): a
 * JSON number (a JsonNumberText holds every digit of a long one), a string or an integer, with every digit it
 * has, truncated toward zero to the scale; beyond the precision (once truncated) refused with Feldera's message.
 */
function decimalFromJson(v: JsonValue, t: SqlType): bigint {
  const s = t.scale ?? 0;
  let d: bigint | undefined;
  if (typeof v === 'number') d = decimalFromNumber(v, s, true);
  else if (typeof v === 'string') d = parseDecimal(v, s, true);
  else if (v instanceof JsonNumberText) d = parseDecimal(v.text, s, true);
  else if (typeof v === 'bigint') d = v * pow10(s);
  if (d === undefined) throw new ValueError(`invalid type: ${describe(v)}, expected a decimal number`);
  // more than `precision` digits <=> |d| >= 10^precision
  if (t.precision !== undefined && (d < 0n ? -d : d) >= pow10(t.precision)) {
    const max = formatDecimal(pow10(t.precision) - 1n, s);
    throw new ValueError(`decimal number ${decimalText(String(v).trim())} is outside the value range -${max} to ${max} (inclusive)`);
  }
  return d;
}

/** A number literal written as Feldera prints a decimal (no exponent, no trailing fraction zeros); a long one as it is. */
function decimalText(literal: string): string {
  const { negative, digits, exponent } = decimalParts(literal);
  if (!/^\d*$/.test(digits) || exponent > 80 || exponent < -80) return literal;
  if (digits === '') return '0';
  const sign = negative ? '-' : '';
  if (exponent >= 0) return sign + digits + '0'.repeat(exponent);
  const padded = digits.padStart(1 - exponent, '0');
  return sign + padded.slice(0, padded.length + exponent) + '.' + padded.slice(padded.length + exponent);
}

/** Internal value to its JSON output form. */
export function toJson(v: Value, t: SqlType): JsonValue {
  if (v === null) return null;
  switch (t.kind) {
    case 'DECIMAL':
      return formatDecimal(v as bigint, t.scale ?? 0);
    case 'DATE':
      return formatDate(v as number);
    case 'TIME':
      return formatTime(v as number);
    case 'TIMESTAMP':
      return t.tz ? formatTimestampTzJson(v as number) : formatTimestamp(v as number);
    case 'ARRAY':
      return (v as Value[]).map((e) => toJson(e, t.elem!));
    case 'MAP': {
      const o: Record<string, JsonValue> = {};
      for (const [k, x] of v as Value[][]) o[String(toJson(k!, t.key!))] = toJson(x!, t.elem!);
      return o;
    }
    case 'VARIANT':
      return variantValue(v);
    case 'VARBINARY':
      return [...hexToBytes(v as string)];
    case 'ROW': {
      const o: Record<string, JsonValue> = {};
      t.fields!.forEach((f, i) => (o[f.name] = toJson((v as Value[])[i]!, f.type)));
      return o;
    }
    case 'REAL':
      return shortestF32(v as number);
    case 'DOUBLE':
      return v as number;
    case 'TINYINT':
    case 'SMALLINT':
    case 'INTEGER':
    case 'BIGINT':
    case 'UTINYINT':
    case 'USMALLINT':
    case 'UINTEGER':
    case 'UBIGINT':
      return v as number | bigint; // a bigint only beyond 2^53 (normInt)
    default:
      return v as JsonValue;
  }
}
