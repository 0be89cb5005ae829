/**
 * Parquet ingress (`format=parquet`, as Feldera's ParquetInputFormat): the body is one whole Parquet file; each
 * of its records is an insert (an upsert on a table with a primary key). Pure: no I/O, no engine state.
 *
 * Rules:
 * - The file's columns are matched to the table's by name as JSON keys are (binding.column: case-insensitive
 *   for unquoted names); a file column the table lacks is ignored, a table column the file lacks takes its
 *   DEFAULT or NULL (a NOT NULL column without one refuses every record: "missing field").
 * - Each value is given to the column's codec in the JSON form Feldera's Parquet converter gives it: integers
 *   as numbers (a 64-bit one beyond 2^53 as a bigint, exact), floats as numbers, strings as strings (a VARIANT
 *   column's string as the JSON text it holds), TIMESTAMP as milliseconds since the epoch (or its text when a
 *   finer unit has a fraction of a millisecond), DATE and TIME as their text, DECIMAL as its exact text, binary
 *   as an array of bytes, lists, structs and maps as arrays and objects. A value the codec refuses makes its
 *   record a bad event (the request then applies nothing, as any ingress).
 * - A body that is not a Parquet file, or that the reader cannot decode, is one error for the whole body.
 * - Bounds: the footer (read by hyparquet, before anything is decoded) may announce at most MAX_PARQUET_ROWS
 *   rows; row groups are decoded one at a time (parquet-wasm, the Rust `parquet` crate's reader), and the
 *   Arrow data they decode to may total at most MAX_PARQUET_DECODED_BYTES. The body itself is held whole
 *   (a Parquet file is read from its footer), within the ingress body limit.
 *
 * Fast paths (values straight into the RowBatch, no JS value in between): integers and floats the column
 * keeps as they are, and ASCII strings of a VARCHAR column, copied from the Arrow buffer.
 */
import { isAscii } from 'node:buffer';
import type * as Arrow from 'apache-arrow';
import { jsonText, parseJsonText, writeTimestampBytes, type JsonValue, type RowBatch } from '../../../../engine/index.js';
import { apacheArrow, arrowFfi, hyparquetLib, parquetWasm } from '../arrow-libs.js';
import { RowError, type TableBinding } from './binding.js';
import { ParsedSink, type IngressParser, type ParsedInput } from './parser.js';

/** Most rows one request's file may announce. */
export const MAX_PARQUET_ROWS = 50_000_000;
/** Most bytes of Arrow data the file's row groups may decode to, all together. */
export const MAX_PARQUET_DECODED_BYTES = 2 * 1024 * 1024 * 1024;

/** Most rows of one decoded record batch (a row group of more is decoded in batches of this many). */
const BATCH_ROWS = 65536;

/** Writes cell c of record r of the current record batch into a RowBatch; throws RowError. */
type CellWriter = (r: number, batch: RowBatch) => void;

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
/** Room for one timestamp's text. */
const scratch = new Uint8Array(32);

/** Arrow's type ids (apache-arrow's Type enum) and units, as numbers: the enum is not loaded until a body comes. */
const T = { Null: 1, Int: 2, Float: 3, Binary: 4, Utf8: 5, Bool: 6, Decimal: 7, Date: 8, Time: 9, Timestamp: 10, FixedSizeBinary: 15, LargeBinary: 19, LargeUtf8: 20 } as const;
/** Nanoseconds per unit of Arrow's TimeUnit (SECOND, MILLISECOND, MICROSECOND, NANOSECOND). */
const UNIT_NANOS = [1e9, 1e6, 1e3, 1];

export class ParquetParser implements IngressParser {
  private readonly sink: ParsedSink;
  private readonly rowOp: 'insert' | 'upsert';
  private chunks: Uint8Array[] = [];
  private size = 0;
  private ended = false;

  constructor(private readonly binding: TableBinding) {
    this.sink = new ParsedSink(binding.makeRow);
    this.rowOp = binding.hasKey ? 'upsert' : 'insert';
  }

  push(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    this.chunks.push(Buffer.from(chunk)); // a copy: the caller reuses its buffer (a file is read from its end)
    this.size += chunk.byteLength;
  }

  pushText(text: string): void {
    this.push(Buffer.from(text, 'utf8'));
  }

  end(): ParsedInput {
    if (!this.ended) {
      this.ended = true;
      const file = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
      this.chunks = [];
      if (file.byteLength > 0) {
        try {
          this.read(file);
        } catch (err) {
          // something of the file none of the readers expected (a type or layout): the body's error, never the server's
          this.fileError(`Unable to read parquet file: ${messageOf(err)}.`, 'Make sure the provided file is a valid parquet file.');
        }
      }
    }
    return this.sink.result((c) => ('row' in c ? jsonText(c.row) : ''));
  }

  /** The whole file: its footer checked, then each row group decoded and its records written. */
  private read(file: Uint8Array): void {
    let groups: number[];
    try {
      const meta = hyparquetLib().parquetMetadata(file);
      const rows = Number(meta.num_rows);
      if (rows > MAX_PARQUET_ROWS) return this.fileError(`the file has ${rows} rows, more than the ${MAX_PARQUET_ROWS} one request may carry`, 'Send the rows in several requests.');
      groups = meta.row_groups.map((g) => Math.max(1, Math.min(BATCH_ROWS, Number(g.num_rows))));
    } catch (err) {
      return this.fileError(`Unable to read parquet file: ${messageOf(err)}.`, 'Make sure the provided file is a valid parquet file.');
    }
    const pq = parquetWasm();
    const { parseRecordBatch } = arrowFfi();
    let decoded = 0;
    for (let g = 0; g < groups.length; g++) {
      let stream: ReturnType<ReturnType<typeof pq.readParquet>['intoFFI']>;
      try {
        const table = pq.readParquet(file, { rowGroups: [g], batchSize: groups[g]! });
        decoded += table.getArrayMemorySize();
        stream = table.intoFFI();
      } catch (err) {
        return this.fileError(`Unable to read parquet file: ${messageOf(err)}.`, 'Make sure the provided file is a valid parquet file.');
      }
      try {
        if (decoded > MAX_PARQUET_DECODED_BYTES) return this.fileError(`the file decodes to more than ${MAX_PARQUET_DECODED_BYTES} bytes of data`, 'Send the rows in several requests.');
        // views of the decoded data in WebAssembly memory (no copy): read before the stream is freed, with no
        // call into the module meanwhile (its memory could grow and move)
        const memory = pq.wasmMemory().buffer;
        for (let i = 0; i < stream.numArrays(); i++) this.records(parseRecordBatch(memory, stream.arrayAddr(i), stream.schemaAddr(), false));
      } finally {
        stream.free();
      }
    }
  }

  /** The records of one Arrow record batch, each an event. */
  private records(rb: Arrow.RecordBatch): void {
    const b = this.binding;
    const n = b.names.length;
    const writers: (CellWriter | null)[] = new Array<CellWriter | null>(n).fill(null);
    rb.schema.fields.forEach((field, i) => {
      const c = b.column(field.name);
      if (c >= 0 && writers[c] === null) writers[c] = cellWriter(b, c, rb.getChildAt(i)!);
    });
    for (let c = 0; c < n; c++) writers[c] ??= missingWriter(b, c);
    const sink = this.sink;
    for (let r = 0; r < rb.numRows; r++) {
      const ev = sink.event(sink.events + 1);
      const batch = sink.batch(b.engineTable, this.rowOp, n);
      let c = 0;
      try {
        for (c = 0; c < n; c++) writers[c]!(r, batch);
        batch.endRow();
        sink.batchRow(ev);
      } catch (err) {
        batch.dropRow();
        // a value none of the readers above expected: the record's error, never the server's
        const bad = err instanceof RowError ? err : new RowError(`error parsing field '${b.names[c]}': ${messageOf(err)}`, b.names[c]!);
        sink.error({
          description: `Error parsing record from parquet file: ${bad.message}`,
          event_number: ev + 1,
          line: ev + 1,
          field: bad.field,
          invalid_bytes: null,
          invalid_text: null,
          suggestion: null,
        });
      }
    }
  }

  private fileError(description: string, suggestion: string): void {
    const ev = this.sink.event(1);
    this.sink.error({ description, event_number: ev + 1, line: 1, field: null, invalid_bytes: null, invalid_text: null, suggestion });
  }
}

function messageOf(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/\.$/, '');
}

/** A table column the file does not have: its DEFAULT or NULL, or a RowError for every record. */
function missingWriter(b: TableBinding, c: number): CellWriter {
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
function cellWriter(b: TableBinding, c: number, vector: Arrow.Vector): CellWriter {
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
