/**
 * The `hash` format of ad-hoc queries, computed as today's Feldera computes it (crates/adapters/src/adhoc/executor.rs
 * `BatchHasher`, since v0.288), so that the same result hashes the same on both:
 *   per row, DataFusion's `create_hashes` over all columns (datafusion-common hash_utils.rs) with two ahash
 *   `RandomState::with_seeds` ('M','U','A','Y') and ('T','H','A','I') (ahash 0.8's portable hasher: Feldera's
 *   x86-64 builds have no AES target feature); the per-row hashes summed (wrapping u64) into two accumulators; the
 *   digest SHA-256(Arrow IPC flatbuffer of the result schema ‖ row count u64 LE ‖ acc1 u64 LE ‖ acc2 u64 LE) in
 *   upper-case hex, with no newline.
 * So the hash is independent of row order and sensitive to every row's multiplicity (a row of weight n counts n
 * times). Contract: `resultHash(rows, columns)` over rows in the engine's JSON output form (engine/api.ts), the
 * columns typed as arrow.ts types them; `AHashState`/`ahashOne` and `schemaFlatbuffer` are the two pieces.
 */
import { createHash } from 'node:crypto';
import { Builder } from 'flatbuffers';
import type { ColumnSchema, JsonValue, WeightedRow } from '../../../../engine/index.js';
import { columnType } from '../compiler.js';
import { arrowValue } from './arrow.js';

const M64 = (1n << 64n) - 1n;
const MULTIPLE = 6364136223846793005n;
const PI2 = [0x452821e638d01377n, 0xbe5466cf34e90c6cn, 0xc0ac29b7c97c50ddn, 0x3f84d5b5b5470917n];
const ROT = 23n;

const u64 = (x: bigint): bigint => x & M64;
function foldedMultiply(s: bigint, by: bigint): bigint {
  const r = s * by; // both below 2^64: the full 128-bit product
  return u64(r) ^ (r >> 64n);
}
const rotl = (x: bigint, r: bigint): bigint => u64((x << r) | (x >> ((64n - r) & 63n)));

/** ahash's RandomState made by `with_seeds(k0, k1, k2, k3)`. */
export class AHashState {
  readonly k: readonly bigint[];
  constructor(k0: bigint, k1: bigint, k2: bigint, k3: bigint) {
    this.k = [k0 ^ PI2[0]!, k1 ^ PI2[1]!, k2 ^ PI2[2]!, k3 ^ PI2[3]!];
  }
  hasher(): AHasher {
    return new AHasher(this.k[1]!, this.k[0]!, this.k[2]!, this.k[3]!);
  }
}

/** ahash 0.8's fallback AHasher (fallback_hash.rs), with std's Hasher methods as the Hash impls call them. */
export class AHasher {
  constructor(
    private buffer: bigint,
    private readonly pad: bigint,
    private readonly extra0: bigint,
    private readonly extra1: bigint,
  ) {}

  private update(x: bigint): void {
    this.buffer = foldedMultiply(x ^ this.buffer, MULTIPLE);
  }

  private largeUpdate(lo: bigint, hi: bigint): void {
    const combined = foldedMultiply(lo ^ this.extra0, hi ^ this.extra1);
    this.buffer = rotl(u64(this.buffer + this.pad) ^ combined, ROT);
  }

  /** write_u8 .. write_u64 (and the signed ones, reinterpreted): all one update of the value as u64. */
  writeUint(x: bigint): void {
    this.update(x);
  }

  writeU128(x: bigint): void {
    this.largeUpdate(u64(x), u64(x >> 64n));
  }

  write(bytes: Uint8Array): void {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const n = bytes.length;
    this.buffer = u64((this.buffer + BigInt(n)) * MULTIPLE);
    if (n > 16) {
      this.largeUpdate(dv.getBigUint64(n - 16, true), dv.getBigUint64(n - 8, true));
      let at = 0;
      while (n - at > 16) {
        this.largeUpdate(dv.getBigUint64(at, true), dv.getBigUint64(at + 8, true));
        at += 16;
      }
    } else if (n > 8) this.largeUpdate(dv.getBigUint64(0, true), dv.getBigUint64(n - 8, true));
    else if (n >= 4) this.largeUpdate(BigInt(dv.getUint32(0, true)), BigInt(dv.getUint32(n - 4, true)));
    else if (n >= 2) this.largeUpdate(BigInt(dv.getUint16(0, true)), BigInt(bytes[n - 1]!));
    else if (n === 1) this.largeUpdate(BigInt(bytes[0]!), BigInt(bytes[0]!));
    else this.largeUpdate(0n, 0n);
  }

  finish(): bigint {
    const rot = this.buffer & 63n;
    return rotl(foldedMultiply(this.buffer, this.pad), rot);
  }
}

/** DataFusion's combine_hashes. */
export function combineHashes(l: bigint, r: bigint): bigint {
  return u64(u64(17n * 37n + l) * 37n + r);
}

type ColumnType = Parameters<typeof arrowValue>[1];
const utf8 = new TextEncoder();

/**
 * DataFusion's HashValue::hash_one of one non-null value of a primitive or byte column (its Arrow native value, as
 * arrowValue gives it), or null for a nested type (handled by `columnHashes`).
 */
function hashOne(state: AHashState, v: unknown, c: ColumnType): bigint {
  const h = state.hasher();
  switch (c.type) {
    case 'BOOLEAN':
      h.writeUint(v ? 1n : 0n);
      break;
    case 'TINYINT':
    case 'UTINYINT':
      h.writeUint(BigInt.asUintN(8, BigInt(v as number)));
      break;
    case 'USMALLINT':
    case 'SMALLINT':
      h.writeUint(BigInt.asUintN(16, BigInt(v as number)));
      break;
    case 'INTEGER':
    case 'INT':
    case 'UINTEGER':
      h.writeUint(BigInt.asUintN(32, BigInt(v as number)));
      break;
    case 'BIGINT':
    case 'UBIGINT':
      h.writeUint(BigInt.asUintN(64, v as bigint));
      break;
    case 'REAL': {
      const dv = new DataView(new ArrayBuffer(4));
      dv.setFloat32(0, v as number, true);
      h.writeUint(BigInt(dv.getUint32(0, true)));
      break;
    }
    case 'DOUBLE': {
      const dv = new DataView(new ArrayBuffer(8));
      dv.setFloat64(0, v as number, true);
      h.writeUint(dv.getBigUint64(0, true));
      break;
    }
    case 'DECIMAL':
    case 'NUMERIC': {
      const w = v as Uint32Array;
      h.writeU128(BigInt(w[0]!) | (BigInt(w[1]!) << 32n) | (BigInt(w[2]!) << 64n) | (BigInt(w[3]!) << 96n));
      break;
    }
    case 'DATE':
      h.writeUint(BigInt.asUintN(32, BigInt(Math.floor((v as number) / 86_400_000))));
      break;
    case 'TIME':
      h.writeUint(BigInt.asUintN(64, v as bigint));
      break;
    case 'TIMESTAMP':
    case 'TIMESTAMP_TZ':
      h.writeUint(BigInt.asUintN(64, BigInt(Math.round((v as number) * 1000)))); // microseconds, as the Arrow column holds them
      break;
    case 'INTERVAL': {
      const [days, ms] = v as Int32Array;
      h.writeUint(BigInt.asUintN(32, BigInt(days!)));
      h.writeUint(BigInt.asUintN(32, BigInt(ms!)));
      break;
    }
    case 'BINARY':
    case 'VARBINARY': {
      const bytes = v as Uint8Array;
      h.writeUint(BigInt(bytes.length)); // [u8]'s Hash: the length first
      h.write(bytes);
      break;
    }
    default: {
      // str's Hash: the bytes, then 0xff
      h.write(utf8.encode(v as string));
      h.writeUint(0xffn);
    }
  }
  return h.finish();
}

const NESTED = new Set(['ARRAY', 'MAP', 'STRUCT']);

/**
 * `create_hashes` over columns of `n` rows: `values[i][r]` is column i's Arrow-native value at row r (null for a
 * NULL). Starts from zero hashes, as Feldera's buffers.
 */
function createHashes(state: AHashState, columns: readonly ColumnType[], values: readonly unknown[][], n: number): bigint[] {
  const hashes = new Array<bigint>(n).fill(0n);
  columns.forEach((c, i) => {
    const col = values[i]!;
    const rehash = i > 0;
    if (c.type === 'NULL') {
      const h1 = hashOne(state, 1, { type: 'INTEGER', nullable: false });
      for (let r = 0; r < n; r++) hashes[r] = rehash ? combineHashes(h1, hashes[r]!) : h1;
      return;
    }
    if (!NESTED.has(c.type)) {
      for (let r = 0; r < n; r++) {
        const v = col[r];
        if (v === null || v === undefined) continue;
        const h = hashOne(state, v, c);
        hashes[r] = rehash ? combineHashes(h, hashes[r]!) : h;
      }
      return;
    }
    // nested: the children hashed as columns of their own, then folded into the row's hash (rehash or not)
    for (let r = 0; r < n; r++) {
      const v = col[r];
      if (v === null || v === undefined) continue;
      for (const child of nestedHashes(state, v, c)) hashes[r] = combineHashes(hashes[r]!, child);
    }
  });
  return hashes;
}

/** The hashes a nested value folds into its row's: a list's elements, a map's entries, a struct's one row. */
function nestedHashes(state: AHashState, v: unknown, c: ColumnType): bigint[] {
  if (c.type === 'ARRAY') {
    const items = v as unknown[];
    return createHashes(state, [c.component!], [items], items.length);
  }
  if (c.type === 'MAP') {
    const entries = [...(v as Map<unknown, unknown>).entries()];
    return createHashes(state, [c.key!, c.value!], [entries.map((e) => e[0]), entries.map((e) => e[1])], entries.length);
  }
  const o = v as Record<string, unknown>;
  const fields = c.fields!;
  return createHashes(
    state,
    fields.map((f) => f.columntype),
    fields.map((f) => [o[f.name]]),
    1,
  );
}

// The Arrow IPC Schema flatbuffer, built with the calls arrow-rs makes (arrow-ipc convert.rs
// `IpcSchemaEncoder::schema_to_fb`, `build_field`, `get_fb_field_type`), so that the bytes are the same.
const TYPE = { Null: 1, Int: 2, FloatingPoint: 3, Utf8: 5, Bool: 6, Decimal: 7, Date: 8, Time: 9, Timestamp: 10, Interval: 11, Struct_: 13, Map: 17, LargeBinary: 19, LargeList: 21 } as const;

interface FbField {
  name: string;
  nullable: boolean;
  type: ColumnType;
}

function emptyTable(b: Builder): number {
  b.startObject(0);
  return b.endObject();
}

function emptyChildren(b: Builder): number {
  b.startVector(4, 0, 4);
  return b.endVector();
}

function offsetVector(b: Builder, items: number[]): number {
  b.startVector(4, items.length, 4);
  for (let i = items.length - 1; i >= 0; i--) b.addOffset(items[i]!);
  return b.endVector();
}

/** get_fb_field_type: the union's type id, the type table and the children vector, built in arrow-rs's order. */
function fieldType(b: Builder, c: ColumnType): { typeType: number; type: number; children: number } {
  switch (c.type) {
    case 'BOOLEAN':
    case 'NULL': {
      const type = emptyTable(b);
      return { typeType: c.type === 'NULL' ? TYPE.Null : TYPE.Bool, type, children: emptyChildren(b) };
    }
    case 'TINYINT':
    case 'SMALLINT':
    case 'INTEGER':
    case 'INT':
    case 'BIGINT':
    case 'UTINYINT':
    case 'USMALLINT':
    case 'UINTEGER':
    case 'UBIGINT': {
      const children = emptyChildren(b);
      const width = { TINYINT: 8, SMALLINT: 16, INTEGER: 32, INT: 32, BIGINT: 64, UTINYINT: 8, USMALLINT: 16, UINTEGER: 32, UBIGINT: 64 }[c.type];
      const signed = !c.type.startsWith('U');
      b.startObject(2);
      b.addFieldInt8(1, signed ? 1 : 0, 0); // is_signed
      b.addFieldInt32(0, width, 0); // bitWidth
      return { typeType: TYPE.Int, type: b.endObject(), children };
    }
    case 'REAL':
    case 'DOUBLE': {
      const children = emptyChildren(b);
      b.startObject(1);
      b.addFieldInt16(0, c.type === 'REAL' ? 1 : 2, 0); // precision SINGLE | DOUBLE
      return { typeType: TYPE.FloatingPoint, type: b.endObject(), children };
    }
    case 'DECIMAL':
    case 'NUMERIC': {
      b.startObject(3);
      b.addFieldInt32(0, c.precision ?? 0, 0);
      b.addFieldInt32(1, c.scale ?? 0, 0);
      b.addFieldInt32(2, 128, 128);
      const type = b.endObject();
      return { typeType: TYPE.Decimal, type, children: emptyChildren(b) };
    }
    case 'BINARY':
    case 'VARBINARY': {
      const type = emptyTable(b);
      return { typeType: TYPE.LargeBinary, type, children: emptyChildren(b) };
    }
    case 'DATE': {
      b.startObject(1);
      b.addFieldInt16(0, 0, 1); // unit DAY (default MILLISECOND)
      const type = b.endObject();
      return { typeType: TYPE.Date, type, children: emptyChildren(b) };
    }
    case 'TIME': {
      b.startObject(2);
      b.addFieldInt32(1, 64, 32); // bitWidth
      b.addFieldInt16(0, 3, 1); // unit NANOSECOND
      const type = b.endObject();
      return { typeType: TYPE.Time, type, children: emptyChildren(b) };
    }
    case 'TIMESTAMP_TZ': {
      const zone = b.createString('UTC'); // Feldera's zone for TIMESTAMP WITH TIME ZONE
      b.startObject(2);
      b.addFieldInt16(0, 2, 0); // unit MICROSECOND
      b.addFieldOffset(1, zone, 0);
      const type = b.endObject();
      return { typeType: TYPE.Timestamp, type, children: emptyChildren(b) };
    }
    case 'TIMESTAMP': {
      b.createString(''); // no time zone: arrow-rs creates the empty string all the same
      b.startObject(2);
      b.addFieldInt16(0, 2, 0); // unit MICROSECOND
      const type = b.endObject();
      return { typeType: TYPE.Timestamp, type, children: emptyChildren(b) };
    }
    case 'INTERVAL': {
      b.startObject(1);
      b.addFieldInt16(0, 1, 0); // unit DAY_TIME
      const type = b.endObject();
      return { typeType: TYPE.Interval, type, children: emptyChildren(b) };
    }
    case 'ARRAY': {
      const child = buildField(b, { name: 'item', nullable: c.component!.nullable, type: c.component! });
      const type = emptyTable(b);
      return { typeType: TYPE.LargeList, type, children: offsetVector(b, [child]) };
    }
    case 'STRUCT': {
      const children = c.fields!.map((f) => buildField(b, { name: f.name, nullable: f.columntype.nullable, type: f.columntype }));
      const type = emptyTable(b);
      return { typeType: TYPE.Struct_, type, children: offsetVector(b, children) };
    }
    case 'MAP': {
      const entries: ColumnType = {
        type: 'STRUCT',
        nullable: false,
        fields: [
          { name: 'key', columntype: c.key! },
          { name: 'value', columntype: c.value! },
        ],
      };
      const child = buildField(b, { name: 'entries', nullable: false, type: entries });
      b.startObject(1);
      b.addFieldInt8(0, 0, 0); // keysSorted false: the default, not written
      const type = b.endObject();
      return { typeType: TYPE.Map, type, children: offsetVector(b, [child]) };
    }
    default: {
      const type = emptyTable(b);
      return { typeType: TYPE.Utf8, type, children: emptyChildren(b) };
    }
  }
}

function buildField(b: Builder, f: FbField): number {
  const name = b.createString(f.name);
  const t = fieldType(b, f.type);
  b.startObject(7);
  b.addFieldOffset(0, name, 0);
  b.addFieldInt8(2, t.typeType, 0);
  b.addFieldInt8(1, f.nullable ? 1 : 0, 0);
  b.addFieldOffset(5, t.children, 0);
  b.addFieldOffset(3, t.type, 0);
  return b.endObject();
}

/** The bytes of `IpcSchemaEncoder::schema_to_fb(schema).finished_data()` for the result's columns. */
export function schemaFlatbuffer(columns: readonly ColumnSchema[]): Uint8Array {
  const b = new Builder(1024);
  const fields = columns.map((c) => buildField(b, { name: c.name, nullable: c.nullable, type: columnType(c.type, c.nullable) as ColumnType }));
  const list = offsetVector(b, fields);
  b.startObject(4);
  b.addFieldOffset(1, list, 0);
  b.finish(b.endObject());
  return b.asUint8Array();
}

const STATES = [new AHashState(77n, 85n, 65n, 89n), new AHashState(84n, 72n, 65n, 73n)] as const; // 'M','U','A','Y' and 'T','H','A','I'
const BATCH = 8192;

/** The `hash` answer: upper-case hex SHA-256, as Feldera's `format!("{:X}", ...)`. */
export function resultHash(rows: Iterable<WeightedRow>, columns: readonly ColumnSchema[], onRows: (n: number) => void = () => {}): string {
  const types = columns.map((c) => columnType(c.type, c.nullable) as ColumnType);
  let acc1 = 0n;
  let acc2 = 0n;
  let count = 0n;
  let batch: { row: Record<string, JsonValue>; weight: number }[] = [];
  const flush = () => {
    const values = columns.map((c, i) => batch.map(({ row }) => arrowValue(row[c.name], types[i]!)));
    const h1 = createHashes(STATES[0], types, values, batch.length);
    const h2 = createHashes(STATES[1], types, values, batch.length);
    batch.forEach(({ weight }, r) => {
      // a row of weight n is n equal rows: n times its hashes
      acc1 = u64(acc1 + h1[r]! * BigInt(weight));
      acc2 = u64(acc2 + h2[r]! * BigInt(weight));
      count += BigInt(weight);
    });
    onRows(batch.length);
    batch = [];
  };
  for (const r of rows) {
    if (r.weight <= 0) continue;
    batch.push(r);
    if (batch.length === BATCH) flush();
  }
  if (batch.length > 0) flush();
  const tail = new DataView(new ArrayBuffer(24));
  tail.setBigUint64(0, u64(count), true);
  tail.setBigUint64(8, acc1, true);
  tail.setBigUint64(16, acc2, true);
  return createHash('sha256').update(schemaFlatbuffer(columns)).update(new Uint8Array(tail.buffer)).digest('hex').toUpperCase();
}
