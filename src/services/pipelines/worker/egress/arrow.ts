/**
 * Ad-hoc query results as Apache Arrow (the `arrow_ipc` format, and the record batches that `parquet` writes).
 *
 * Contract:
 * - `arrowSchema(columns)`: each column's Arrow field as today's Feldera maps SQL types
 *   (crates/adapters/src/format/parquet.rs `columntype_to_datatype`, delta_lake = false): BOOLEAN Bool,
 *   TINYINT..BIGINT Int8..Int64, REAL/DOUBLE Float32/Float64, DECIMAL(p,s) Decimal128(p,s), CHAR/VARCHAR Utf8,
 *   BINARY/VARBINARY LargeBinary, DATE Date32, TIME Time64(ns), TIMESTAMP Timestamp(us, no zone), INTERVAL
 *   Interval(DayTime), VARIANT Utf8 (its JSON text), ARRAY LargeList("item"), MAP Map("entries"{"key","value"},
 *   unsorted), ROW Struct(fields), NULL Null; nullability as the column's.
 * - `arrowBatches(rows, columns)`: the rows (a row of weight n written n times) as record batches of at most
 *   BATCH_ROWS rows, built one batch at a time, so that only one batch's Arrow data is alive beside the rows.
 * - `arrowIpcStream(rows, columns, onBatch)`: the Arrow IPC stream (onBatch told each batch's rows and bytes, so
 *   that a query guard can refuse an answer too big before it is built whole) (schema message, one message per batch, end of
 *   stream), what Feldera answers `format=arrow_ipc` with; an empty result is the schema and the end.
 * Values come in the engine's JSON output form (engine/api.ts): DECIMAL as text, dates and times as text, MAP
 * as an object keyed by the key's text, BINARY as an array of bytes, VARIANT as its JSON value.
 * apache-arrow is loaded at the first use only (about 0.4 s): a pipeline that never answers Arrow never loads it.
 */
import type * as Arrow from 'apache-arrow';
import { jsonText, JsonNumberText, type ColumnSchema, type JsonValue, type WeightedRow } from '../../../../engine/index.js';
import { columnType } from '../compiler.js';
import { apacheArrow } from '../arrow-libs.js';

const arrow = apacheArrow;

/** Rows per record batch (DataFusion's default batch size). */
export const BATCH_ROWS = 8192;

type ColumnType = {
  type: string;
  nullable: boolean;
  precision?: number;
  scale?: number;
  component?: ColumnType;
  key?: ColumnType;
  value?: ColumnType;
  fields?: { name: string; columntype: ColumnType }[];
};

/** The Arrow type of a Feldera column type (program_info's `columntype`). */
export function arrowType(c: ColumnType): Arrow.DataType {
  const A = arrow();
  switch (c.type) {
    case 'BOOLEAN':
      return new A.Bool();
    case 'TINYINT':
      return new A.Int8();
    case 'SMALLINT':
      return new A.Int16();
    case 'INTEGER':
    case 'INT':
      return new A.Int32();
    case 'BIGINT':
      return new A.Int64();
    case 'UTINYINT':
      return new A.Uint8();
    case 'USMALLINT':
      return new A.Uint16();
    case 'UINTEGER':
      return new A.Uint32();
    case 'UBIGINT':
      return new A.Uint64();
    case 'REAL':
      return new A.Float32();
    case 'DOUBLE':
      return new A.Float64();
    case 'DECIMAL':
    case 'NUMERIC':
      return new A.Decimal(c.scale ?? 0, c.precision ?? 0, 128);
    case 'BINARY':
    case 'VARBINARY':
      return new A.LargeBinary();
    case 'DATE':
      return new A.DateDay();
    case 'TIME':
      return new A.TimeNanosecond();
    case 'TIMESTAMP':
      return new A.TimestampMicrosecond();
    case 'TIMESTAMP_TZ':
      return new A.TimestampMicrosecond('UTC'); // as Feldera's Arrow schema

    case 'INTERVAL':
      return new A.IntervalDayTime();
    case 'NULL':
      return new A.Null();
    case 'ARRAY':
      return new A.LargeList(new A.Field('item', arrowType(c.component!), c.component!.nullable));
    case 'MAP': {
      const entries: Arrow.Field[] = [new A.Field('key', arrowType(c.key!), c.key!.nullable), new A.Field('value', arrowType(c.value!), c.value!.nullable)];
      return new A.Map_(new A.Field('entries', new A.Struct(entries), false) as Arrow.Field<Arrow.Struct<{ key: Arrow.DataType; value: Arrow.DataType }>>, false);
    }
    case 'STRUCT':
      return new A.Struct(c.fields!.map((f) => new A.Field(f.name, arrowType(f.columntype), f.columntype.nullable)));
    default:
      // CHAR, VARCHAR, VARIANT, UUID: text
      return new A.Utf8();
  }
}

function columnTypeOf(col: ColumnSchema): ColumnType {
  return columnType(col.type, col.nullable) as ColumnType;
}

export function arrowSchema(columns: readonly ColumnSchema[]): Arrow.Schema {
  const A = arrow();
  return new A.Schema(columns.map((c) => new A.Field(c.name, arrowType(columnTypeOf(c)), c.nullable)));
}

const DATE = /^(-?\d{4,})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/;
const TIMESTAMP = /^(-?\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:\+00:00)?$/;

/** A double d with d * 1000 exactly `micros` (the one nearest micros / 1000, or a neighbour), so apache-arrow's BigInt(d * 1000) neither throws nor drifts; whole milliseconds if none is (never seen). */
export function msOfMicros(micros: number): number {
  const d = micros / 1000;
  if (d * 1000 === micros) return d;
  const f = new Float64Array([d]);
  const bits = new BigInt64Array(f.buffer);
  for (const step of [1n, -1n, 2n, -2n]) {
    const g = new Float64Array(new BigInt64Array([bits[0]! + step]).buffer)[0]!;
    if (g * 1000 === micros) return g;
  }
  return Math.floor(micros / 1000);
}

function utcMs(y: string, mo: string, d: string, h = '0', mi = '0', s = '0'): number {
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d)); // years below 100 too (Date.UTC would add 1900)
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  return date.getTime();
}

/** A decimal's text ("-12.50") as its unscaled 128-bit two's complement, four little-endian 32-bit words. */
export function decimalWords(text: string, scale: number): Uint32Array {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!m) throw new TypeError(`not a decimal: ${text}`);
  const frac = (m[3] ?? '').padEnd(scale, '0').slice(0, scale);
  let v = BigInt(m[2]! + frac);
  if (m[1] === '-') v = -v;
  const u = BigInt.asUintN(128, v);
  const words = new Uint32Array(4);
  for (let i = 0; i < 4; i++) words[i] = Number((u >> BigInt(32 * i)) & 0xffffffffn);
  return words;
}

/** A JSON number or text as a JS number (DOUBLE and REAL; "NaN", "Infinity" as text). */
function toNumber(v: JsonValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint' || typeof v === 'string' || v instanceof JsonNumberText) return Number(String(v));
  throw new TypeError(`not a number: ${String(v)}`);
}

/** A MAP key's text (the JSON object's key) back as the key type's JSON form. */
function mapKey(text: string, c: ColumnType): JsonValue {
  switch (c.type) {
    case 'TINYINT':
    case 'SMALLINT':
    case 'INTEGER':
    case 'INT':
    case 'BIGINT':
    case 'UTINYINT':
    case 'USMALLINT':
    case 'UINTEGER':
    case 'UBIGINT': {
      const n = Number(text);
      return Number.isSafeInteger(n) ? n : BigInt(text);
    }
    case 'REAL':
    case 'DOUBLE':
      return Number(text);
    case 'BOOLEAN':
      return text === 'true';
    default:
      return text;
  }
}

/** Map keys in order: numbers (and bigints) by value, text by its code points, false before true. */
function compareKeys(a: JsonValue, b: JsonValue): number {
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) return a < b ? -1 : a > b ? 1 : 0;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** One value in the form the Arrow builder of type `c` takes (null stays null). */
export function arrowValue(v: JsonValue | undefined, c: ColumnType): unknown {
  if (v === null || v === undefined) return null;
  switch (c.type) {
    case 'BIGINT':
    case 'UBIGINT':
      return BigInt(String(v));
    case 'UTINYINT':
    case 'USMALLINT':
    case 'UINTEGER':
    case 'TINYINT':
    case 'SMALLINT':
    case 'INTEGER':
    case 'INT':
      return Number(v);
    case 'REAL':
    case 'DOUBLE':
      return toNumber(v);
    case 'DECIMAL':
    case 'NUMERIC':
      return decimalWords(String(v), c.scale ?? 0);
    case 'BINARY':
    case 'VARBINARY':
      return Uint8Array.from(v as number[]);
    case 'DATE': {
      const m = DATE.exec(String(v));
      if (!m) throw new TypeError(`not a DATE: ${String(v)}`);
      return utcMs(m[1]!, m[2]!, m[3]!); // the builder takes epoch milliseconds
    }
    case 'TIME': {
      const m = TIME.exec(String(v));
      if (!m) throw new TypeError(`not a TIME: ${String(v)}`);
      return (BigInt(m[1]!) * 3600n + BigInt(m[2]!) * 60n + BigInt(m[3]!)) * 1_000_000_000n + BigInt((m[4] ?? '').padEnd(9, '0'));
    }
    case 'TIMESTAMP':
    case 'TIMESTAMP_TZ': {
      const m = TIMESTAMP.exec(String(v));
      if (!m) throw new TypeError(`not a TIMESTAMP: ${String(v)}`);
      // the builder takes milliseconds and writes BigInt(ms * 1000) microseconds: a ms value whose product is exact
      return msOfMicros(utcMs(m[1]!, m[2]!, m[3]!, m[4], m[5], m[6]) * 1000 + Number((m[7] ?? '').padEnd(6, '0').slice(0, 6)));
    }
    case 'INTERVAL': {
      const ms = toNumber(v);
      const days = Math.trunc(ms / 86_400_000);
      return Int32Array.of(days, ms - days * 86_400_000);
    }
    case 'NULL':
      return null;
    case 'ARRAY':
      return (v as JsonValue[]).map((e) => arrowValue(e, c.component!));
    case 'MAP': {
      // in key order, as Feldera's maps (a JS object lists integer-like keys first, whatever the engine's order)
      const entries = Object.entries(v as Record<string, JsonValue>).map(([k, x]) => [mapKey(k, c.key!), x] as const);
      entries.sort((a, b) => compareKeys(a[0], b[0]));
      return new Map(entries.map(([k, x]) => [arrowValue(k, c.key!), arrowValue(x, c.value!)]));
    }
    case 'STRUCT': {
      const o = v as Record<string, JsonValue>;
      return Object.fromEntries(c.fields!.map((f) => [f.name, arrowValue(o[f.name], f.columntype)]));
    }
    case 'VARIANT':
      return jsonText(v);
    case 'BOOLEAN':
      return v;
    default:
      return typeof v === 'string' ? v : jsonText(v);
  }
}

/** The rows as record batches of at most `batchRows` rows (a row of weight n comes n times; weights are positive). */
export function* arrowBatches(rows: Iterable<WeightedRow>, columns: readonly ColumnSchema[], batchRows = BATCH_ROWS): Generator<Arrow.RecordBatch> {
  const A = arrow();
  const schema = arrowSchema(columns);
  const types = columns.map(columnTypeOf);
  const newBuilders = () => schema.fields.map((f) => A.makeBuilder({ type: f.type, nullValues: [null, undefined] }));
  let builders = newBuilders();
  let n = 0;
  const flush = (): Arrow.RecordBatch => {
    const children = builders.map((b) => b.finish().flush());
    const data = A.makeData({ type: new A.Struct(schema.fields), length: n, nullCount: 0, children });
    builders = newBuilders();
    n = 0;
    return new A.RecordBatch(schema, data);
  };
  for (const { row, weight } of rows) {
    const values = columns.map((c, i) => arrowValue(row[c.name], types[i]!));
    for (let k = 0; k < weight; k++) {
      values.forEach((v, i) => builders[i]!.append(v));
      if (++n === batchRows) yield flush();
    }
  }
  if (n > 0) yield flush();
}

/** The Arrow IPC stream of the rows: the schema, a message per batch, the end-of-stream marker. */
export function arrowIpcStream(rows: Iterable<WeightedRow>, columns: readonly ColumnSchema[], onBatch: (rows: number, bytes: number) => void = () => {}): Uint8Array {
  const A = arrow();
  const writer = new A.RecordBatchStreamWriter();
  writer.reset(undefined, arrowSchema(columns));
  for (const batch of arrowBatches(rows, columns)) {
    writer.write(batch);
    onBatch(batch.numRows, batch.data.byteLength);
  }
  writer.finish();
  return writer.toUint8Array(true);
}
