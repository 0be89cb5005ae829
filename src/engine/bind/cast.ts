/**
 * CAST between types, on internal values. A cast that fails at run time (e.g. 'abc' to INTEGER) yields NULL
 * instead of stopping the pipeline (Feldera reports a run-time error there; documented divergence); a number
 * that does not fit the integer type it is cast to is an integer overflow (IntOverflow: the step is refused),
 * as in Feldera. Integers are exact (int64.ts): a bigint beyond 2^53.
 */
import { SqlError, type Pos } from '../parse/ast.js';
import { type SqlType, type TypeKind, isInteger, isFloat, isDecimal, isString, isUnsigned, sqlTypeName, typeToString } from '../types/types.js';
import { formatInterval, parseInterval, unitMs } from '../types/interval-text.js';
import { checkInt, fitInt, intFromFloat, parseIntText, type Int, type IntSite } from '../types/int64.js';
import { posSite } from './expr-text.js';
import { checkSize, ValueTooLarge } from '../types/value-limits.js';
import { makeMap, shortestF32, type Value } from '../types/values.js';
import { formatFloatText } from '../types/float-text.js';
import { fromJson, toJson } from '../codec-json.js';
import { bytesToHex, canonicalJson, variantValue } from '../types/variant.js';
import { decimalFromNumber, decimalToNumber, formatDecimal, parseDecimal, pow10, rescale, rescaleRound } from '../types/decimal.js';
import { parseUuid, uuidFromHex, uuidToHex } from '../types/uuid.js';
import { DAY_MS, formatDate, formatTimeText, formatTimestampText, formatTimestampTzText, parseDate, parseTime, parseTimestamp, tsFrom, tsSplit } from '../types/datetime.js';

type Conv = (v: Value) => Value;

function fitsDecimal(t: SqlType): (d: bigint) => Value {
  const p = t.precision ?? 38;
  const limit = pow10(p);
  return (d) => (d >= limit || d <= -limit ? null : d);
}

export function toStringFn(from: SqlType): Conv {
  switch (from.kind) {
    case 'DECIMAL':
      return (v) => formatDecimal(v as bigint, from.scale ?? 0);
    case 'DATE':
      return (v) => formatDate(v as number);
    case 'TIME':
      return (v) => formatTimeText(v as number);
    case 'TIMESTAMP':
      return from.tz ? (v) => formatTimestampTzText(v as number) : (v) => formatTimestampText(v as number);
    case 'BOOLEAN':
      return (v) => (v ? 'TRUE' : 'FALSE');
    case 'REAL':
      // as Rust prints an f32: CAST(REAL '57681.18' AS VARCHAR) is '57681.18', not the double's '57681.1796875'
      return (v) => formatFloatText(shortestF32(v as number), true);
    case 'DOUBLE':
      return (v) => formatFloatText(v as number);
    case 'INTERVAL_DT':
    case 'INTERVAL_YM':
      return (v) => formatInterval(v as number, from.kind === 'INTERVAL_YM', from.qualifier);
    default:
      return (v) => String(v);
  }
}

/** A value's text, refused as too large (ValueTooLarge) where JavaScript cannot hold it (an array of huge strings). */
function textOfAny(str: Conv): Conv {
  return (v) => {
    try {
      return str(v);
    } catch (err) {
      if (err instanceof RangeError && /Invalid string length/.test(err.message)) throw new ValueTooLarge('CAST', null, 'characters');
      throw err;
    }
  };
}

/** The VARIANT (JSON text) of a value of type t; DECIMALs keep their digits as JSON numbers. */
export function toVariantText(v: Value, t: SqlType): string {
  if (v === null) return 'null';
  switch (t.kind) {
    case 'VARIANT':
      return v as string;
    case 'DECIMAL':
      return formatDecimal(v as bigint, t.scale ?? 0);
    case 'ARRAY':
      return '[' + (v as Value[]).map((e) => toVariantText(e, t.elem!)).join(',') + ']';
    case 'MAP':
      return '{' + (v as Value[][]).map(([k, x]) => JSON.stringify(String(toJson(k!, t.key!))) + ':' + toVariantText(x!, t.elem!)).join(',') + '}';
    case 'ROW': {
      // an object keyed by field name, keys sorted (the VARIANT form)
      const fields = t.fields!.map((f, i) => ({ f, i })).sort((a, b) => (a.f.name < b.f.name ? -1 : a.f.name > b.f.name ? 1 : 0));
      return '{' + fields.map(({ f, i }) => JSON.stringify(f.name) + ':' + toVariantText((v as Value[])[i]!, f.type)).join(',') + '}';
    }
    default:
      return canonicalJson(toJson(v, t));
  }
}

/**
 * A cast between types that is refused, with the text of whoever refuses it in Feldera: Calcite's validator for
 * most pairs ("Cast function cannot convert value of type ..."), Feldera's compiler for casts from strings and
 * bytes, which Calcite lets through ("CAST cannot be used to convert VARCHAR to VARCHAR ARRAY").
 */
function castRefused(from: SqlType, to: SqlType, pos: Pos, safe: boolean): SqlError {
  if (isString(from) || from.kind === 'VARBINARY') return new SqlError(`${safe ? 'SAFE_CAST' : 'CAST'} cannot be used to convert ${typeToString(from)} to ${typeToString(to)}`, pos, 'type');
  return new SqlError(`Cast function cannot convert value of type ${typeToString(from)} to type ${typeToString(to)}`, pos, 'type');
}

/** Milliseconds as a TIMESTAMP from a number: whole seconds, truncated toward zero (Feldera's sqllib: (ms / 1000) * 1000). */
const secondsOfMs = (ms: number): number => Math.trunc(ms / 1000) * 1000 + 0;

/** What a cast needs besides its two types: where it stands, its integer-overflow site, SAFE_CAST or CAST. */
interface CastSite {
  pos: Pos;
  site: IntSite;
  safe: boolean;
}

/** The conversion of one pair of types, or undefined where this builder does not convert the pair. */
type CastBuilder = (from: SqlType, to: SqlType, at: CastSite) => Conv | undefined;

const identity: Conv = (v) => v;

/**
 * The conversion from `from` to `to`, or a SqlError (castRefused) where Feldera refuses the pair: ROWs field by
 * field, a type to itself as it is, VARIANT both ways, else by the target's kind (castToTarget).
 */
export function castFn(from: SqlType, to: SqlType, pos: Pos, site: IntSite = posSite(`CAST to ${sqlTypeName(to)}`, pos), safe = false): Conv {
  if (from.kind === 'NULL') return () => null;
  const at: CastSite = { pos, site, safe };
  if (to.kind === 'ROW' && from.kind === 'ROW') return castRow(from, to, at);
  if (isSameType(from, to)) return identity;
  // VARIANT: any value casts to a VARIANT; a VARIANT casts to a type when its runtime value converts naturally, else NULL
  if (to.kind === 'VARIANT') return (v) => toVariantText(v, from);
  if (from.kind === 'VARIANT') return castFromVariant(to, at);
  const conv = castToTarget(to)?.(from, to, at);
  if (!conv) throw castRefused(from, to, pos, safe);
  return conv;
}

/** A type cast to itself needs no conversion, but where the target has a length or element types to apply. */
function isSameType(from: SqlType, to: SqlType): boolean {
  if (to.kind !== from.kind) return false;
  if (to.kind === 'DECIMAL' || to.kind === 'CHAR' || to.kind === 'VARCHAR' || to.kind === 'ARRAY' || to.kind === 'MAP') return false;
  return !(to.kind === 'VARBINARY' && to.precision !== undefined);
}

/** A ROW field by field, in order (the names need not match). */
function castRow(from: SqlType, to: SqlType, at: CastSite): Conv {
  if (to.fields!.length !== from.fields!.length) throw new SqlError(`Cannot cast ${typeToString(from)} to ${typeToString(to)}: ${from.fields!.length} fields to ${to.fields!.length}`, at.pos, 'type');
  const convs = from.fields!.map((f, i) => castFn(f.type, to.fields![i]!.type, at.pos, at.site, at.safe));
  return (v) => (v as Value[]).map((x, i) => (x === null ? null : convs[i]!(x)));
}

/** A VARIANT's value as the target type (NULL where it does not convert), then to the target's length. */
function castFromVariant(to: SqlType, at: CastSite): Conv {
  // CHAR(n) pads or cuts, BINARY(n) keeps n bytes (CHAR is CHAR(1), as Feldera)
  const sized =
    (to.kind === 'CHAR' || to.kind === 'VARCHAR' || to.kind === 'VARBINARY') && to.precision !== undefined ? castFn({ ...to, precision: undefined }, to, at.pos, at.site, at.safe) : undefined;
  return (v) => {
    let out: Value;
    try {
      out = fromJson(variantValue(v), to);
    } catch {
      return null;
    }
    return sized && out !== null ? sized(out) : out;
  };
}

/** The builder for casts to the target's kind (each refuses the sources it does not take). */
function castToTarget(to: SqlType): CastBuilder | undefined {
  if (isInteger(to)) return castToInteger;
  if (isFloat(to)) return castToFloat;
  if (isDecimal(to)) return castToDecimal;
  if (isString(to)) return castToText;
  if (to.kind === 'INTERVAL_DT' || to.kind === 'INTERVAL_YM') return castToInterval;
  return TARGET_BUILDERS[to.kind];
}

function castToInteger(from: SqlType, to: SqlType, { site }: CastSite): Conv | undefined {
  const k = to.kind;
  if (isInteger(from)) return (v) => checkInt(v as Int, k, site);
  if (isFloat(from)) return (v) => intFromFloat(v as number, k, site);
  if (isDecimal(from)) {
    const s = from.scale ?? 0;
    return (v) => fitInt(rescale(v as bigint, s, 0), k, site);
  }
  if (isString(from))
    return (v) => {
      const b = parseIntText(v as string);
      return b === undefined ? null : fitInt(b, k, site);
    };
  if (from.kind === 'BOOLEAN') return (v) => (v ? 1 : 0);
  // a TIMESTAMP as its milliseconds since the epoch (Feldera's sqllib), DATE and TIME refused as by Calcite
  if (from.kind === 'TIMESTAMP') return (v) => checkInt(Math.floor(v as number), k, site);
  // a single-unit interval as its count of units, truncated (CAST((a - b) DAY AS BIGINT))
  const q = from.qualifier;
  if ((from.kind === 'INTERVAL_DT' || from.kind === 'INTERVAL_YM') && q && !q.includes(' TO ')) {
    const per = q === 'YEAR' ? 12 : q === 'MONTH' ? 1 : unitMs(q)!;
    return (v) => checkInt(Math.trunc((v as number) / per) + 0, k, site);
  }
  return undefined;
}

function castToFloat(from: SqlType, to: SqlType): Conv | undefined {
  const r = to.kind === 'REAL' ? Math.fround : (x: number) => x;
  if (isInteger(from)) return (v) => r(Number(v as Int));
  if (isFloat(from)) return (v) => r(v as number);
  if (isDecimal(from)) return (v) => r(decimalToNumber(v as bigint, from.scale ?? 0));
  if (from.kind === 'TIMESTAMP') return (v) => r(Math.floor(v as number)); // its whole milliseconds (Feldera's sqllib)
  if (isString(from))
    return (v) => {
      const n = Number((v as string).trim());
      return (v as string).trim() === '' || Number.isNaN(n) ? null : r(n);
    };
  return undefined;
}

function castToDecimal(from: SqlType, to: SqlType): Conv | undefined {
  const s = to.scale ?? 0;
  const fit = fitsDecimal(to);
  /** A decimal read by `read` (undefined where it cannot be), NULL beyond the target's precision. */
  const fitted =
    (read: (v: Value) => bigint | undefined): Conv =>
    (v) => {
      const d = read(v);
      return d === undefined ? null : fit(d);
    };
  if (isInteger(from)) return (v) => fit(BigInt(v as Int) * pow10(s));
  if (isFloat(from)) return fitted((v) => decimalFromNumber(v as number, s));
  if (isDecimal(from)) {
    const fs = from.scale ?? 0;
    return (v) => fit(rescaleRound(v as bigint, fs, s));
  }
  if (from.kind === 'TIMESTAMP') return fitted((v) => decimalFromNumber(v as number, s, true));
  if (isString(from)) return fitted((v) => parseDecimal(v as string, s));
  return undefined;
}

/** Any type as text (toStringFn); CHAR(n) pads or cuts to n characters, VARCHAR(n) cuts. */
function castToText(from: SqlType, to: SqlType): Conv {
  const str = isString(from) ? identity : textOfAny(toStringFn(from));
  const n = to.precision;
  if (n === undefined) return str;
  if (to.kind === 'CHAR')
    return (v) => {
      const s = str(v) as string;
      if (s.length < n) checkSize('CAST', n, 'characters'); // CAST('x' AS CHAR(2000000000)) pads to its length
      return s.slice(0, n).padEnd(n, ' ');
    };
  return (v) => (str(v) as string).slice(0, n);
}

function castToBoolean(from: SqlType): Conv | undefined {
  if (isString(from))
    return (v) => {
      const s = (v as string).trim().toUpperCase();
      return s === 'TRUE' ? true : s === 'FALSE' ? false : null;
    };
  if (isInteger(from)) return (v) => v !== 0 && v !== 0n;
  if (isFloat(from)) return (v) => v !== 0;
  if (isDecimal(from)) return (v) => v !== 0n;
  return undefined;
}

function castToDate(from: SqlType): Conv | undefined {
  if (isString(from)) return (v) => parseDate(v as string) ?? null;
  if (from.kind === 'TIMESTAMP') return (v) => Math.floor((v as number) / DAY_MS);
  return undefined;
}

function castToTimestamp(from: SqlType): Conv | undefined {
  if (isString(from)) return (v) => parseTimestamp(v as string) ?? null;
  if (from.kind === 'DATE') return (v) => (v as number) * DAY_MS;
  if (from.kind === 'TIME') return (v) => tsFrom(Math.floor((v as number) / 1e6), Math.floor(((v as number) % 1e6) / 1000)); // on 1970-01-01, to the microsecond
  // a number is milliseconds since the epoch, cut to whole seconds (Feldera's sqllib)
  if (isInteger(from)) return (v) => secondsOfMs(Number(v as Int));
  if (isFloat(from)) return (v) => (Number.isFinite(v as number) ? secondsOfMs(v as number) : null);
  if (isDecimal(from)) return (v) => secondsOfMs(Number(rescale(v as bigint, from.scale ?? 0, 0)));
  return undefined;
}

function castToTime(from: SqlType): Conv | undefined {
  if (isString(from)) return (v) => parseTime(v as string) ?? null;
  if (from.kind === 'TIMESTAMP')
    return (v) => {
      const [ms, us] = tsSplit(v as number);
      return (((ms % DAY_MS) + DAY_MS) % DAY_MS) * 1e6 + us * 1000;
    };
  return undefined;
}

function castToInterval(from: SqlType, to: SqlType): Conv | undefined {
  if (to.kind === from.kind) return identity;
  if (!isString(from)) return undefined;
  const q = to.qualifier ?? (to.kind === 'INTERVAL_YM' ? 'YEAR TO MONTH' : 'DAY TO SECOND');
  return (v) => parseInterval(v as string, q) ?? null;
}

/** Bytes (as hex) to BINARY(n)'s length: the first n bytes, zeros after them; VARBINARY (n undefined) all of them. */
function toBinaryLength(n: number | undefined): (hex: string) => string {
  return n === undefined ? (hex) => hex : (hex) => hex.slice(0, 2 * n).padEnd(2 * n, '0');
}

function castToBinary(from: SqlType, to: SqlType): Conv | undefined {
  const sized = toBinaryLength(to.precision); // BINARY is BINARY(1)
  if (isString(from)) return (v) => sized(bytesToHex(Buffer.from(v as string, 'utf8')));
  if (isInteger(from) && !isUnsigned(from)) {
    // its bytes, least significant first, as many as its type has
    const width = INT_BYTES[from.kind]!;
    return (v) => {
      let b = BigInt.asUintN(width * 8, BigInt(v as Int));
      let hex = '';
      for (let i = 0; i < width; i++, b >>= 8n) hex += (b & 0xffn).toString(16).padStart(2, '0');
      return sized(hex);
    };
  }
  if (from.kind === 'VARBINARY') return to.precision === undefined ? identity : (v) => sized(v as string);
  // a UUID's 16 bytes, as Feldera's CAST(u AS BINARY)
  if (from.kind === 'UUID') return (v) => sized(uuidToHex(v as string));
  return undefined;
}

function castToUuid(from: SqlType): Conv | undefined {
  // text in PostgreSQL's forms, exactly 16 bytes; anything else NULL (as other failed casts here)
  if (isString(from)) return (v) => parseUuid(v as string) ?? null;
  if (from.kind === 'VARBINARY') return (v) => ((v as string).length === 32 ? uuidFromHex(v as string) : null);
  return undefined;
}

/** An ARRAY element by element (a NULL element stays NULL). */
function castToArray(from: SqlType, to: SqlType, { pos }: CastSite): Conv | undefined {
  if (from.kind !== 'ARRAY') return undefined;
  const inner = castFn(from.elem!, to.elem!, pos);
  return (v) => (v as Value[]).map((e) => (e === null ? null : inner(e)));
}

function castToMap(from: SqlType, to: SqlType, { pos }: CastSite): Conv | undefined {
  if (from.kind !== 'MAP') return undefined;
  const k = castFn(from.key!, to.key!, pos);
  const e = castFn(from.elem!, to.elem!, pos);
  // the keys' order is the new key type's (INT 9 < 10, VARCHAR '10' < '9'), a repeated key's last value wins
  return (v) => makeMap((v as Value[][]).map(([a, b]) => [a === null ? null : k(a!), b === null ? null : e(b!)]));
}

/** The builders of the other targets, by kind. */
const TARGET_BUILDERS: Partial<Record<TypeKind, CastBuilder>> = {
  BOOLEAN: castToBoolean,
  DATE: castToDate,
  TIMESTAMP: castToTimestamp,
  TIME: castToTime,
  VARBINARY: castToBinary,
  UUID: castToUuid,
  ARRAY: castToArray,
  MAP: castToMap,
};

const INT_BYTES: Readonly<Record<string, number>> = { TINYINT: 1, SMALLINT: 2, INTEGER: 4, BIGINT: 8 };
