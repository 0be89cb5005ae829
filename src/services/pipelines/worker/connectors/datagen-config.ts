/**
 * The `datagen` transport's configuration, read and checked against the table as Feldera reads it
 * (feldera-types transport/datagen.rs; crates/datagen): every struct refuses unknown fields; a plan's
 * `fields` must name columns of the table; a field's strategy must suit its column's type; ranges must be
 * [a, b) with a < b, of the column's kind (numbers; RFC 3339 strings or epoch ms for TIMESTAMP; "HH:MM:SS" or
 * ms for TIME; "YYYY-MM-DD" or days for DATE; lengths >= 0 for strings, arrays and binary);
 * `null_percentage` 0..=100. Each error is a message naming the option (and the field). Pure.
 */
import type { JsonValue, RelationSchema } from '../../../../engine/index.js';
import { serdeType } from './nexmark-config.js';
import { STRING_STRATEGIES } from './datagen-strings.js';

export const NUMERIC_STRATEGIES = ['increment', 'uniform', 'zipf'] as const;
export const ALL_STRATEGIES: readonly string[] = [...NUMERIC_STRATEGIES, ...Object.keys(STRING_STRATEGIES)];

/** How a column's values are made, by its SQL type. */
export type ColumnKind =
  /** min/max: the type's bounds as Feldera's generator takes them (i64 ones: UBIGINT up to i64::MAX), exact. */
  | { kind: 'int'; min: bigint; max: bigint }
  | { kind: 'float' }
  | { kind: 'decimal'; precision: number; scale: number }
  | { kind: 'string' }
  | { kind: 'boolean' }
  | { kind: 'timestamp' }
  | { kind: 'date' }
  | { kind: 'time' }
  | { kind: 'array'; element: ColumnKind }
  | { kind: 'binary' }
  | { kind: 'map' }
  | { kind: 'row'; fields: { name: string; caseSensitive: boolean; kind: ColumnKind }[] }
  | { kind: 'other'; type: string };

const I64_MAX = (1n << 63n) - 1n;
/** Each integer type's bounds as Feldera's generate_integer takes them: N::min..N::max as i64 (u64::MAX does not fit: i64::MAX). */
const INT_BOUNDS: Record<string, [bigint, bigint]> = {
  TINYINT: [-128n, 127n],
  SMALLINT: [-32768n, 32767n],
  INTEGER: [-2147483648n, 2147483647n],
  INT: [-2147483648n, 2147483647n],
  BIGINT: [-(1n << 63n), I64_MAX],
  UTINYINT: [0n, 255n],
  USMALLINT: [0n, 65535n],
  UINTEGER: [0n, 4294967295n],
  UBIGINT: [0n, I64_MAX],
};
const UNSIGNED_NAMES: Record<string, string> = { TINYINT: 'UTINYINT', SMALLINT: 'USMALLINT', INTEGER: 'UINTEGER', INT: 'UINTEGER', BIGINT: 'UBIGINT' };

/**
 * The fields of the engine's ROW type text (`ROW("A" INTEGER, "b" VARCHAR, ...)`: names always quoted, types
 * possibly ROWs, ARRAYs or MAPs themselves), split at the commas outside quotes and brackets.
 */
function rowFields(inner: string): { name: string; caseSensitive: boolean; kind: ColumnKind }[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '(' || c === '<') depth++;
    else if (c === ')' || c === '>') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(inner.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(inner.slice(from));
  return parts.map((part) => {
    const m = /^\s*"((?:[^"]|"")*)"\s+(.*?)(?:\s+NOT NULL)?\s*$/s.exec(part);
    const name = m ? m[1]!.replace(/""/g, '"') : part.trim();
    return { name, caseSensitive: name !== name.toUpperCase(), kind: columnKind(m ? m[2]! : 'NULL') };
  });
}

export function columnKind(type: string): ColumnKind {
  const trimmed = type.trim();
  const row = /^ROW\s*\((.*)\)$/is.exec(trimmed);
  if (row && !/\s+ARRAY$/i.test(trimmed)) return { kind: 'row', fields: rowFields(row[1]!) };
  const t = trimmed.toUpperCase();
  const arr = /^(.*)\s+ARRAY$/s.exec(trimmed) ?? /^(.*)\[\]$/s.exec(trimmed);
  if (arr) return { kind: 'array', element: columnKind(arr[1]!) };
  const base = /^([A-Z ]+?)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?$/.exec(t);
  const written = base?.[1]?.trim() ?? t;
  const unsigned = /^(\w+) UNSIGNED$/.exec(written);
  const name = unsigned && UNSIGNED_NAMES[unsigned[1]!] ? UNSIGNED_NAMES[unsigned[1]!]! : written;
  if (INT_BOUNDS[name]) return { kind: 'int', min: INT_BOUNDS[name][0], max: INT_BOUNDS[name][1] };
  if (name === 'REAL' || name === 'FLOAT' || name === 'DOUBLE' || name === 'DOUBLE PRECISION') return { kind: 'float' };
  if (name === 'DECIMAL' || name === 'NUMERIC' || name === 'DEC') return { kind: 'decimal', precision: Number(base?.[2] ?? 38), scale: Number(base?.[3] ?? 0) };
  if (name === 'VARCHAR' || name === 'CHAR' || name === 'TEXT' || name === 'STRING' || name === 'CHARACTER' || name === 'CHARACTER VARYING') return { kind: 'string' };
  if (name === 'BOOLEAN' || name === 'BOOL') return { kind: 'boolean' };
  if (name.startsWith('TIMESTAMP')) return { kind: 'timestamp' };
  if (name === 'DATE') return { kind: 'date' };
  if (name === 'TIME') return { kind: 'time' };
  if (name === 'VARBINARY' || name === 'BINARY') return { kind: 'binary' };
  if (t.startsWith('MAP')) return { kind: 'map' };
  return { kind: 'other', type };
}

export interface FieldSettings {
  strategy: string;
  nullPercentage: number | null;
  /** [a, b) in the kind's unit (numbers; ms for TIMESTAMP and TIME; days for DATE; lengths), or null; for integer columns see intRange. */
  range: [number, number] | null;
  /** An integer column's range, exact (i64 values, as Feldera reads it), or null. */
  intRange: [bigint, bigint] | null;
  scale: number;
  e: number;
  values: JsonValue[] | null;
  /** Settings of an array's (or binary's) elements. */
  value: FieldSettings | null;
  /** A ROW's fields' settings, in the ROW's field order. */
  fields: FieldSettings[] | null;
}

export interface DatagenPlan {
  rate: number | null;
  limit: number | null;
  workerChunkSize: number | null;
  /** Per column (by index), its settings; columns not named use the defaults. */
  fields: FieldSettings[];
}

export interface DatagenConfig {
  plans: DatagenPlan[];
  workers: number;
  /** The seed as two unsigned 32-bit halves, or null (a random one per start). */
  seed: { lo: number; hi: number } | null;
}

function object(v: JsonValue | undefined, what: string): Record<string, JsonValue> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v) || typeof v === 'bigint') throw new Error(`${what}: invalid type: ${serdeType(v)}, expected a map`);
  return v as Record<string, JsonValue>;
}

function onlyKeys(o: Record<string, JsonValue>, keys: readonly string[], what: string): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw new Error(`${what}: unknown field \`${k}\`, expected one of ${keys.map((x) => `\`${x}\``).join(', ')}`);
}

function integer(v: JsonValue | undefined, what: string, min: number, max = Number.MAX_SAFE_INTEGER): number | null {
  if (v === undefined || v === null) return null;
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new Error(`${what}: invalid type: ${serdeType(v)}, expected an integer`);
  if (n < min || n > max) throw new Error(`${what}: ${n} is out of range (${min}..=${max})`);
  return n;
}

const DAY_MS = 86_400_000;

/** A BINARY column's bytes: integers 0..=255. */
export const BYTE: ColumnKind = { kind: 'int', min: 0n, max: 255n };

/** An integer column's range bound: an integer that fits i64 (Feldera: range_as_i64). */
function intRangeValue(v: JsonValue, what: string): bigint {
  const n = typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : undefined;
  if (n === undefined) throw new Error(`${what}: range values must be integers for an integer column, not ${serdeType(v)}`);
  if (n < -(1n << 63n) || n > I64_MAX) throw new Error(`${what}: ${n} is out of range for i64`);
  return n;
}

function rangeValue(v: JsonValue, kind: ColumnKind, what: string): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    if (kind.kind === 'timestamp') {
      const ms = Date.parse(v);
      if (Number.isNaN(ms)) throw new Error(`${what}: '${v}' is not an RFC 3339 timestamp (e.g. "2021-01-01T00:00:00Z")`);
      return ms;
    }
    if (kind.kind === 'date') {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
      const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
      if (Number.isNaN(ms)) throw new Error(`${what}: '${v}' is not a date in the YYYY-MM-DD format`);
      return Math.round(ms / DAY_MS);
    }
    if (kind.kind === 'time') {
      const m = /^(\d{2}):(\d{2}):(\d{2})$/.exec(v);
      if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3]) > 59) throw new Error(`${what}: '${v}' is not a time in the HH:MM:SS format`);
      return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000;
    }
    if (kind.kind === 'decimal' && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  }
  throw new Error(
    `${what}: invalid type: ${serdeType(v)}, expected a number${kind.kind === 'timestamp' ? ' or an RFC 3339 string' : kind.kind === 'date' ? ' or a YYYY-MM-DD string' : kind.kind === 'time' ? ' or an HH:MM:SS string' : ''}`,
  );
}

const FIELD_KEYS = ['null_percentage', 'strategy', 'range', 'scale', 'e', 'values', 'fields', 'key', 'value'];

function readField(v: JsonValue | undefined, kind: ColumnKind, what: string): FieldSettings {
  const o = object(v, what);
  onlyKeys(o, FIELD_KEYS, what);
  const strategy = o.strategy === undefined ? 'increment' : o.strategy;
  if (typeof strategy !== 'string' || !ALL_STRATEGIES.includes(strategy)) {
    throw new Error(`${what}: unknown strategy ${typeof strategy === 'string' ? `\`${strategy}\`` : serdeType(strategy)}, expected one of ${ALL_STRATEGIES.map((s) => `\`${s}\``).join(', ')}`);
  }
  const stringOnly = !(NUMERIC_STRATEGIES as readonly string[]).includes(strategy);
  if (stringOnly && kind.kind !== 'string') throw new Error(`${what}: strategy \`${strategy}\` makes strings; it cannot generate ${describe(kind)} values`);
  if (kind.kind === 'other' && v !== undefined) throw new Error(`${what}: datagen cannot generate values of type ${kind.type} (its columns are NULL)`);
  const nullPercentage = integer(o.null_percentage, `${what}.null_percentage`, 0, 100);
  const scale = integer(o.scale, `${what}.scale`, Number.MIN_SAFE_INTEGER) ?? 1;
  const e = typeof o.e === 'number' && o.e >= 0 ? o.e : (integer(o.e, `${what}.e`, 0) ?? 1);
  let values: JsonValue[] | null = null;
  if (o.values !== undefined && o.values !== null) {
    if (!Array.isArray(o.values)) throw new Error(`${what}.values: invalid type: ${serdeType(o.values)}, expected a sequence`);
    values = o.values;
  }
  let range: [number, number] | null = null;
  let intRange: [bigint, bigint] | null = null;
  if (o.range !== undefined && o.range !== null && kind.kind === 'int') {
    if (!Array.isArray(o.range) || o.range.length !== 2) throw new Error(`${what}.range: expected a sequence of two values [start, end)`);
    const [a, b] = [intRangeValue(o.range[0]!, `${what}.range`), intRangeValue(o.range[1]!, `${what}.range`)];
    if (a >= b) throw new Error(`${what}.range: empty range, min >= max (${String(a)} >= ${String(b)})`);
    if (a < kind.min || b - 1n > kind.max) throw new Error(`${what}.range: [${a}, ${b}) is outside the column's type (${kind.min}..=${kind.max})`);
    intRange = [a, b];
    range = [Number(a), Number(b)];
  } else if (o.range !== undefined && o.range !== null) {
    if (!Array.isArray(o.range) || o.range.length !== 2) throw new Error(`${what}.range: expected a sequence of two values [start, end)`);
    const a = rangeValue(o.range[0]!, kind, `${what}.range`);
    const b = rangeValue(o.range[1]!, kind, `${what}.range`);
    if (a >= b) throw new Error(`${what}.range: empty range, min >= max (${JSON.stringify(o.range[0])} >= ${JSON.stringify(o.range[1])})`);
    const lengths = kind.kind === 'string' || kind.kind === 'array' || kind.kind === 'binary' || kind.kind === 'map';
    if (lengths && a < 0) throw new Error(`${what}.range: lengths must be positive`);
    range = [a, b];
  }
  let value: FieldSettings | null = null;
  if (kind.kind === 'array') value = readField(o.value, kind.element, `${what}.value`);
  else if (kind.kind === 'binary') value = readField(o.value, BYTE, `${what}.value`);
  let fields: FieldSettings[] | null = null;
  if (kind.kind === 'row') {
    const given = object(o.fields, `${what}.fields`);
    const byField = new Map<number, JsonValue>();
    for (const [name, v] of Object.entries(given)) {
      const i = kind.fields.findIndex((f) => f.name === name || (!f.caseSensitive && f.name.toLowerCase() === name.toLowerCase()));
      if (i < 0) throw new Error(`${what}.fields: \`${name}\` is not a field of the ROW (${kind.fields.map((f) => f.name).join(', ')})`);
      byField.set(i, v);
    }
    fields = kind.fields.map((f, i) => readField(byField.get(i), f.kind, `${what}.fields.${f.name}`));
  }
  return { strategy, nullPercentage, range, intRange, scale, e, values, value, fields };
}

function describe(kind: ColumnKind): string {
  return kind.kind === 'other' ? kind.type : kind.kind === 'int' ? 'integer' : kind.kind;
}

function seedOf(v: JsonValue | undefined): DatagenConfig['seed'] {
  if (v === undefined || v === null) return null;
  let big: bigint;
  if (typeof v === 'bigint') big = v;
  else if (typeof v === 'number' && Number.isInteger(v)) big = BigInt(v);
  else throw new Error(`seed: invalid type: ${serdeType(v)}, expected u64`);
  if (big < 0n || big >= 1n << 64n) throw new Error(`seed: ${big} is out of range for u64`);
  return { lo: Number(big & 0xffffffffn), hi: Number(big >> 32n) };
}

/** The column a plan's field name names: exactly, or case-insensitively for an unquoted column. */
function columnIndex(table: RelationSchema, name: string): number {
  const exact = table.columns.findIndex((c) => c.name === name);
  if (exact >= 0) return exact;
  return table.columns.findIndex((c) => !c.caseSensitive && c.name.toLowerCase() === name.toLowerCase());
}

export function readDatagenConfig(config: Record<string, JsonValue> | undefined, table: RelationSchema): DatagenConfig {
  const c = object(config, 'config');
  onlyKeys(c, ['plan', 'workers', 'seed', 'transaction_size'], 'config');
  const workers = integer(c.workers, 'workers', 1, 1024) ?? 1;
  integer(c.transaction_size, 'transaction_size', 0);
  const seed = seedOf(c.seed);
  let rawPlans: JsonValue[] = [{}];
  if (c.plan !== undefined && c.plan !== null) {
    if (!Array.isArray(c.plan)) throw new Error(`plan: invalid type: ${serdeType(c.plan)}, expected a sequence`);
    rawPlans = c.plan;
  }
  const kinds = table.columns.map((col) => columnKind(col.type));
  const plans = rawPlans.map((raw, p): DatagenPlan => {
    const what = `plan[${p}]`;
    const o = object(raw, what);
    onlyKeys(o, ['rate', 'limit', 'worker_chunk_size', 'fields'], what);
    const rate = integer(o.rate, `${what}.rate`, 0, 4294967295);
    const fieldsRaw = object(o.fields, `${what}.fields`);
    const given = new Map<number, JsonValue>();
    for (const [name, v] of Object.entries(fieldsRaw)) {
      const i = columnIndex(table, name);
      if (i < 0) throw new Error(`Field \`${name}\` specified in datagen does not exist in the table schema.`);
      given.set(i, v);
    }
    return {
      rate: rate === 0 ? null : rate,
      limit: integer(o.limit, `${what}.limit`, 0),
      workerChunkSize: integer(o.worker_chunk_size, `${what}.worker_chunk_size`, 1),
      fields: kinds.map((kind, i) => readField(given.get(i), kind, `${what}.fields.${table.columns[i]!.name}`)),
    };
  });
  return { plans, workers, seed };
}
