/**
 * Arrow columns into a table's RowBatch, cell by cell (Parquet ingress, parquet.ts): for each table column, a
 * writer of row r of one Arrow record batch. Each value is given to the column's codec in the JSON form
 * Feldera's Parquet converter gives it: integers as numbers (a 64-bit one beyond 2^53 as a bigint, exact),
 * floats as numbers, strings as strings (a VARIANT column's string as the JSON text it holds), TIMESTAMP as
 * milliseconds since the epoch (or its text when a finer unit has a fraction of a millisecond), DATE and TIME
 * as their text, DECIMAL as its exact text, binary as an array of bytes, lists, structs and maps (through
 * apache-arrow's own reader) as arrays and objects. A value the codec refuses is a RowError naming the column.
 *
 * Fast paths (no JS value in between): integers and floats the column keeps as they are, ASCII strings of a
 * VARCHAR column (the column's text checked natively at once), whole-millisecond TIMESTAMPs (their text
 * written as bytes). Buffers are viewed at the length the column needs, whatever array the reader gave
 * (arrow-js-ffi's zero-copy DECIMAL views count values as 32-bit words).
 */
import { isAscii } from 'node:buffer';
import type * as Arrow from 'apache-arrow';
import { parseJsonText, writeTimestampBytes, type JsonValue, type RowBatch } from '../../../../engine/index.js';
import { apacheArrow } from '../arrow-libs.js';
import { RowError, type TableBinding } from './binding.js';

/** Writes cell c of record r of the current record batch into a RowBatch; throws RowError. */
export type CellWriter = (r: number, batch: RowBatch) => void;

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
/** Room for one timestamp's text. */
const scratch = new Uint8Array(32);

/** Arrow's type ids (apache-arrow's Type enum) and units, as numbers: the enum is not loaded until a body comes. */
const T = { Null: 1, Int: 2, Float: 3, Binary: 4, Utf8: 5, Bool: 6, Decimal: 7, Date: 8, Time: 9, Timestamp: 10, FixedSizeBinary: 15, LargeBinary: 19, LargeUtf8: 20 } as const;
/** Nanoseconds per unit of Arrow's TimeUnit (SECOND, MILLISECOND, MICROSECOND, NANOSECOND). */
const UNIT_NANOS = [1e9, 1e6, 1e3, 1];

/** A table column the file does not have: its DEFAULT or NULL, or a RowError for every record. */
export function missingWriter(b: TableBinding, c: number): CellWriter {
  let value: JsonValue;
  try {
    value = b.missing(c);
  } catch (err) {
    return () => {
      throw err;
    };
  }
  return (_r, batch) => batch.set(c, value);
}

/**
 * The first `count` 32-bit words of a value buffer, whatever array type (and length) the reader gave it in: a
 * view of the bytes as many as the column needs (arrow-js-ffi's views of DECIMAL columns count values as words).
 */
function int32s(v: ArrayBufferView, count: number): Int32Array {
  return new Int32Array(v.buffer, v.byteOffset, count);
}

/** The first `count` 64-bit integers of a value buffer (as int32s). */
function int64s(v: ArrayBufferView, count: number): BigInt64Array {
  return new BigInt64Array(v.buffer, v.byteOffset, count);
}

/** Whether row r of `data` is null (by its validity bitmap). */
function nullTest(data: Arrow.Data): ((r: number) => boolean) | null {
  const bitmap = data.nullBitmap;
  if (data.nullCount === 0 || bitmap === undefined || bitmap.length === 0) return null;
  const off = data.offset;
  return (r) => ((bitmap[(off + r) >> 3]! >> ((off + r) & 7)) & 1) === 0;
}

/** The writer of table column c from the Arrow column `vector` (one record batch: one Data). */
export function cellWriter(b: TableBinding, c: number, vector: Arrow.Vector): CellWriter {
  const data = vector.data[0]!;
  const put = (batch: RowBatch, v: unknown): void => batch.set(c, b.convert(c, v));
  const isNull = nullTest(data);
  const inner = valueWriter(b, c, data, vector, put);
  if (isNull === null) return inner;
  return (r, batch) => (isNull(r) ? put(batch, null) : inner(r, batch));
}

/** The writer of column c for a non-null value at row r, by the Arrow type. */
function valueWriter(b: TableBinding, c: number, data: Arrow.Data, vector: Arrow.Vector, put: (batch: RowBatch, v: unknown) => void): CellWriter {
  const off = data.offset;
  const type = data.type as Arrow.DataType & { bitWidth?: number; isSigned?: boolean; unit?: number; scale?: number; precision?: number };
  const keeps = b.codecs[c]!.keeps;
  const number = (batch: RowBatch, v: number): void => {
    if (keeps !== null && ((keeps.kind === 'int' && Number.isInteger(v) && v >= keeps.lo && v <= keeps.hi) || keeps.kind === 'number')) batch.setNumber(c, v);
    else put(batch, v);
  };
  switch (data.typeId as number) {
    case T.Null:
      return (_r, batch) => put(batch, null);
    case T.Int: {
      const values = data.values as ArrayLike<number | bigint> & ArrayBufferView;
      if (type.bitWidth !== 64) return (r, batch) => number(batch, values[off + r] as number);
      const words = int32s(values, 2 * (off + data.length));
      const big = int64s(values, off + data.length);
      const signed = type.isSigned !== false;
      return (r, batch) => {
        const i = off + r;
        const hi = signed ? words[2 * i + 1]! : words[2 * i + 1]! >>> 0;
        const v = hi * 4294967296 + (words[2 * i]! >>> 0);
        if (Number.isSafeInteger(v)) number(batch, v);
        else put(batch, signed ? big[i]! : BigInt.asUintN(64, big[i]!));
      };
    }
    case T.Float: {
      if (type.precision === 0) break; // half floats: Arrow's own reader
      const values = data.values as Float32Array | Float64Array;
      return (r, batch) => number(batch, values[off + r]!);
    }
    case T.Bool: {
      const bits = data.values as Uint8Array;
      return (r, batch) => put(batch, ((bits[(off + r) >> 3]! >> ((off + r) & 7)) & 1) === 1);
    }
    case T.Utf8:
    case T.LargeUtf8:
      return textWriter(b, c, data, put);
    case T.Binary:
    case T.LargeBinary:
    case T.FixedSizeBinary:
      return (r, batch) => put(batch, Array.from(vector.get(r) as Uint8Array));
    case T.Timestamp: {
      const nanos = UNIT_NANOS[type.unit ?? 1]!;
      const big = int64s(data.values as ArrayBufferView, off + data.length);
      const words = int32s(data.values as ArrayBufferView, 2 * (off + data.length));
      const plain = b.codecs[c]!.type === 'TIMESTAMP';
      return (r, batch) => {
        const i = off + r;
        const v = words[2 * i + 1]! * 4294967296 + (words[2 * i]! >>> 0);
        if (nanos === 1e6 && Number.isSafeInteger(v)) {
          // whole milliseconds into a TIMESTAMP column: the text its codec gives, as bytes, with no string in between
          const n = plain ? writeTimestampBytes(v, scratch) : -1;
          if (n > 0) batch.setText(c, scratch, 0, n);
          else put(batch, v);
        } else put(batch, timestampValue(big[i]!, nanos));
      };
    }
    case T.Date: {
      // DateDay: days (int32); DateMillisecond: milliseconds (int64)
      const values = data.values as ArrayBufferView;
      if (type.unit === 0) {
        const days = int32s(values, off + data.length);
        return (r, batch) => put(batch, dateText(days[off + r]! * 86_400_000));
      }
      const ms = int64s(values, off + data.length);
      return (r, batch) => put(batch, dateText(Number(ms[off + r]!)));
    }
    case T.Time: {
      const nanos = UNIT_NANOS[type.unit ?? 1]!;
      // Time32 (seconds, milliseconds): int32; Time64 (microseconds, nanoseconds): int64
      if ((type.bitWidth ?? (nanos < 1e6 ? 64 : 32)) === 64) {
        const wide = int64s(data.values as ArrayBufferView, off + data.length);
        return (r, batch) => put(batch, timeText(wide[off + r]! * BigInt(nanos)));
      }
      const narrow = int32s(data.values as ArrayBufferView, off + data.length);
      return (r, batch) => put(batch, timeText(BigInt(narrow[off + r]!) * BigInt(nanos)));
    }
    case T.Decimal: {
      // the value's 32-bit words, whatever array type the reader gave its bytes in
      const per = (type.bitWidth ?? 128) / 32;
      const bytes = data.values as ArrayBufferView;
      const words = new Uint32Array(bytes.buffer, bytes.byteOffset, (off + data.length) * per);
      const scale = type.scale ?? 0;
      return (r, batch) => put(batch, decimalText(words, (off + r) * per, per, scale));
    }
    default:
      break;
  }
  return (r, batch) => put(batch, plain(vector.get(r)));
}

/** A string column: ASCII bytes straight into the batch where the column keeps strings; a VARIANT's text parsed as JSON. */
function textWriter(b: TableBinding, c: number, data: Arrow.Data, put: (batch: RowBatch, v: unknown) => void): CellWriter {
  const off = data.offset;
  const bytes = data.values as Uint8Array;
  const o = data.valueOffsets as Int32Array | BigInt64Array;
  // 64-bit offsets read as their low words: a body (and so any offset in it) is far below 2^31 bytes
  const offsets = o instanceof BigInt64Array ? new Int32Array(o.buffer, o.byteOffset, o.length * 2) : o;
  const stride = o instanceof BigInt64Array ? 2 : 1;
  const variant = b.codecs[c]!.type === 'VARIANT';
  const keepsText = b.codecs[c]!.keeps?.kind === 'string';
  // the whole column's text checked at once (natively): then each value is copied without a look at its bytes
  const allAscii = keepsText && isAscii(bytes.subarray(offsets[off * stride]!, offsets[(off + data.length) * stride]!));
  return (r, batch) => {
    const from = offsets[(off + r) * stride]!;
    const to = offsets[(off + r + 1) * stride]!;
    if (allAscii) return batch.setText(c, bytes, from, to);
    if (keepsText) {
      let ascii = true;
      for (let i = from; i < to; i++) {
        if (bytes[i]! > 127) {
          ascii = false;
          break;
        }
      }
      if (ascii) return batch.setText(c, bytes, from, to);
    }
    const s = utf8.decode(bytes.subarray(from, to));
    if (!variant) return put(batch, s);
    let v: JsonValue;
    try {
      v = parseJsonText(s) as JsonValue;
    } catch (err) {
      throw new RowError(`error parsing field '${b.names[c]}': a VARIANT is read from its JSON text: ${err instanceof Error ? err.message : String(err)}`, b.names[c]!);
    }
    put(batch, v);
  };
}

/** A timestamp of `value` units of `nanos` ns: milliseconds since the epoch, or its text when it has a fraction of a millisecond. */
function timestampValue(value: bigint, nanos: number): JsonValue {
  const ns = value * BigInt(nanos);
  let ms = ns / 1_000_000n;
  let rest = ns % 1_000_000n;
  if (rest < 0n) {
    rest += 1_000_000n;
    ms -= 1n;
  }
  if (rest === 0n) return Number(ms);
  const text = dateTimeText(Number(ms));
  return text === null ? Number(ms) : `${text}${String(rest).padStart(6, '0').replace(/0+$/, '')}`;
}

/** 'YYYY-MM-DD HH:MM:SS.mmm' of a millisecond count (null beyond year 9999 or before year 0). */
function dateTimeText(ms: number): string | null {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  if (!Number.isFinite(ms) || y < 0 || y > 9999) return null;
  return d.toISOString().replace('T', ' ').slice(0, 23);
}

function dateText(ms: number): string {
  return dateTimeText(ms)?.slice(0, 10) ?? String(ms);
}

/** 'HH:MM:SS[.fffffffff]' of nanoseconds since midnight. */
function timeText(ns: bigint): string {
  const seconds = ns / 1_000_000_000n;
  const frac = ns % 1_000_000_000n;
  const two = (x: bigint) => String(x).padStart(2, '0');
  const base = `${two(seconds / 3600n)}:${two((seconds / 60n) % 60n)}:${two(seconds % 60n)}`;
  return frac === 0n ? base : `${base}.${String(frac).padStart(9, '0').replace(/0+$/, '')}`;
}

/** The exact text of a little-endian two's complement decimal of `per` 32-bit words at words[at], with `scale`. */
function decimalText(words: Uint32Array, at: number, per: number, scale: number): string {
  let v = 0n;
  for (let w = per - 1; w >= 0; w--) v = (v << 32n) | BigInt(words[at + w]!);
  if (words[at + per - 1]! & 0x80000000) v -= 1n << BigInt(32 * per);
  const negative = v < 0n;
  const digits = String(negative ? -v : v).padStart(scale + 1, '0');
  const text = scale > 0 ? `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}` : digits;
  return negative ? `-${text}` : text;
}

/** A value of Arrow's own reader (nested types, rare scalars) in the JSON form. */
function plain(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'bigint':
      return Number.isSafeInteger(Number(v)) ? Number(v) : v;
    case 'number':
    case 'string':
    case 'boolean':
      return v;
    default:
      break;
  }
  if (v instanceof Uint8Array) return Array.from(v);
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number | bigint>, plain);
  const A = apacheArrow();
  if (v instanceof A.Vector) return Array.from(v as Iterable<unknown>, plain);
  if (Array.isArray(v)) return v.map(plain);
  const o = v as { toJSON?: () => unknown };
  if (typeof o.toJSON === 'function') {
    const json = o.toJSON() as Record<string, unknown>;
    const out: Record<string, JsonValue> = {};
    for (const k of Object.keys(json)) out[k] = plain(json[k]);
    return out;
  }
  return String(v);
}
