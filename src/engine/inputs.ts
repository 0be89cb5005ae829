/** Input changes: JSON/CSV rows to internal rows, validated per table (types, NOT NULL, keys). */
import { EngineInputError, type InputChange, type JsonValue } from './api.js';
import type { RowBatch } from './batch.js';
import type { TableDef } from './bind/program.js';
import { rowsProduced } from './step-guard.js';
import { type Row, type Value } from './types/values.js';
import { ValueError, type TextReader } from './codec-json.js';
import type { ColumnKeeps } from './json-value.js';
import { fromCsv } from './codec-csv.js';

/** One input change, converted and checked, for table t. */
export type Action =
  | { kind: 'weighted'; t: TableState; row: Row; w: number }
  | { kind: 'upsert'; t: TableState; row: Row }
  | { kind: 'deleteKey'; t: TableState; row: Row }
  | { kind: 'update'; t: TableState; row: Row; set: number[] }
  /** A block of a batch change: each row as `as` would be (weight w for 'weighted'). */
  | { kind: 'rows'; t: TableState; rows: Row[]; as: 'weighted' | 'upsert' | 'deleteKey'; w: number };

export interface TableState {
  def: TableDef;
  /** Primary-key tables: key -> current row. */
  byKey?: Map<string | number, Row>;
  exact: Map<string, number>;
  /** Lower-case spelling of unquoted column names (the usual JSON key), for the fast path. */
  altNames: Array<string | undefined>;
  folded: Map<string, number>;
  /** Per column: JSON value to internal value (throws ValueError). */
  convert: Array<(v: JsonValue | undefined) => Value>;
  /** Per column: the JSON values `convert` gives back as they are. */
  kept: (ColumnKeeps | null)[];
  /** Per column: a reader of its common text forms from Latin-1 bytes (codec-json.ts jsonTextReader), or null. */
  fromText: (TextReader | null)[];
  watermarks: Map<number, number>;
}

export function foldKey(s: string): string {
  return s.toLowerCase();
}

/**
 * A JSON row (object or array) to an internal row; columns it leaves out take their defaults.
 * `present`, when given, is set for each column the input named (for partial updates).
 */
export function convertRow(t: TableState, row: unknown, index: number, partial: boolean, present?: boolean[]): Row {
  const cols = t.def.columns;
  const n = cols.length;
  const out: Row = new Array(n);
  for (let i = 0; i < n; i++) out[i] = cols[i]!.dflt;
  if (Array.isArray(row)) {
    if (row.length > n) throw new EngineInputError(`row has ${row.length} values but table '${t.def.name}' has ${n} columns`, index);
    for (let i = 0; i < row.length; i++) {
      out[i] = convertValue(t, i, row[i] as JsonValue, index);
      if (present) present[i] = true;
    }
    return out;
  }
  if (row === null || typeof row !== 'object') throw new EngineInputError(`row must be a JSON object or array`, index);
  // fast path: keys spelled exactly as the column names
  const obj = row as Record<string, JsonValue>;
  let found = 0;
  const alt = t.altNames;
  for (let i = 0; i < n; i++) {
    let v = obj[cols[i]!.name];
    if (v === undefined && alt[i] !== undefined) v = obj[alt[i]!];
    if (v !== undefined) {
      out[i] = convertValue(t, i, v, index);
      if (present) present[i] = true;
      found++;
    }
  }
  let total = 0;
  for (const _k in obj) total++;
  if (total === found) {
    if (!partial) checkNotNull(t, out, index);
    return out;
  }
  for (const [k, v] of Object.entries(obj)) {
    let i = t.exact.get(k);
    if (i === undefined) i = t.folded.get(foldKey(k));
    if (i === undefined) continue; // unknown fields are ignored
    out[i] = convertValue(t, i, v, index);
    if (present) present[i] = true;
  }
  if (!partial) checkNotNull(t, out, index);
  return out;
}

function convertValue(t: TableState, i: number, v: JsonValue, index: number): Value {
  try {
    return t.convert[i]!(v);
  } catch (e) {
    const c = t.def.columns[i]!;
    if (e instanceof ValueError) throw new EngineInputError(`error parsing field '${c.name}': ${e.message}`, index);
    throw e;
  }
}

function checkNotNull(t: TableState, row: Row, index: number, only?: number[]): void {
  const cols = t.def.columns;
  for (let i = 0; i < cols.length; i++) {
    if (only && !only.includes(i)) continue;
    if (row[i] === null && !cols[i]!.type.nullable) throw new EngineInputError(`missing or null value for NOT NULL column '${cols[i]!.name}'`, index);
  }
}

/**
 * A `batch` change (its rows take the indexes from `firstIndex` on), block by block: each row converted and
 * checked exactly as the change `{table, op: rowOp, row}` with all columns given would be.
 */
export function convertBatch(ch: Extract<InputChange, { op: 'batch' }>, firstIndex: number, findTable: (name: string) => TableState | undefined, out: Action[]): number {
  const t = findTable(String(ch.table));
  if (!t) throw new EngineInputError(`unknown table '${ch.table}'`, firstIndex);
  const batch = ch.rows;
  const pk = t.def.pk;
  const cols = t.def.columns;
  const n = cols.length;
  if (!batch || typeof batch.forEachBlock !== 'function') throw new EngineInputError('batch change needs a RowBatch', firstIndex);
  if (batch.width !== n) throw new EngineInputError(`row has ${batch.width} values but table '${t.def.name}' has ${n} columns`, firstIndex);
  const op = ch.rowOp;
  if (op === 'upsert' && !pk.length) throw new EngineInputError(`table '${t.def.name}' has no primary key: use insert`, firstIndex);
  if (op !== 'insert' && op !== 'delete' && op !== 'upsert') throw new EngineInputError(`unknown batch operation '${op as string}'`, firstIndex);
  const as = pk.length ? (op === 'delete' ? 'deleteKey' : 'upsert') : 'weighted';
  const partial = op === 'delete';
  const convert = t.convert;
  const kept = t.kept;
  const fromText = t.fromText;
  const nullOk = cols.map((c, i) => c.type.nullable || (partial && !pk.includes(i)));
  const blank = blankRow(n);
  batch.forEachBlockColumns((count, first, _column, convertColumn) => {
    // a column at a time (each column's converter in one loop), the common values straight from the batch's
    // storage; a block with a bad value is read again row by row, which finds the error a row-form step
    // gives (its first bad row, and in it the first bad field)
    const rows: Row[] = new Array(count);
    for (let r = 0; r < count; r++) rows[r] = blank();
    let bad = false;
    try {
      for (let i = 0; i < n && !bad; i++) bad = !convertColumn(i, rows, kept[i]!, convert[i]!, nullOk[i]!, fromText[i]!);
    } catch (e) {
      if (!(e instanceof ValueError)) throw e;
      bad = true;
    }
    if (bad) firstBadRow(t, batch, firstIndex + first, first, count, partial);
    out.push({ kind: 'rows', t, rows, as, w: op === 'delete' ? -1 : 1 });
    rowsProduced(count); // a block's rows made: the step's guard, if any, may stop a step grown too big
  });
  return firstIndex + batch.length;
}

const blankRows = new Map<number, () => Row>();

/**
 * A maker of rows of n NULLs, made by an array literal: each row is allocated at its size with room for any
 * value (a row filled cell by cell from `new Array(n)` changes its storage as numbers, then other values,
 * are written into it: two more allocations a row), and V8 may allocate rows that live long directly in
 * the old generation.
 */
function blankRow(n: number): () => Row {
  let make = blankRows.get(n);
  if (make === undefined) {
    make = n <= 256 ? (new Function(`return [${new Array<string>(n).fill('null').join(', ')}];`) as () => Row) : () => new Array<Value>(n).fill(null);
    blankRows.set(n, make);
  }
  return make;
}

/** Throws the error of the first bad row of rows [first, first + count) of a batch, as a row-form step would. */
function firstBadRow(t: TableState, batch: RowBatch, firstIndex: number, first: number, count: number, partial: boolean): void {
  const cols = t.def.columns;
  const pk = t.def.pk;
  for (let r = 0; r < count; r++) {
    const index = firstIndex + r;
    const vals = batch.row(first + r);
    const row: Row = new Array(cols.length);
    for (let i = 0; i < cols.length; i++) {
      try {
        row[i] = t.convert[i]!(vals[i]!);
      } catch (e) {
        if (e instanceof ValueError) throw new EngineInputError(`error parsing field '${cols[i]!.name}': ${e.message}`, index);
        throw e;
      }
    }
    if (!partial) checkNotNull(t, row, index);
    else if (pk.length) checkNotNull(t, row, index, pk);
  }
  throw new Error('a batch block was read as bad, yet each of its rows converts'); // a bug, not the input's fault
}

export function convertChange(ch: InputChange, index: number, findTable: (name: string) => TableState | undefined): Action {
  if (!ch || typeof ch !== 'object') throw new EngineInputError('bad input change', index);
  const t = findTable(String(ch.table));
  if (!t) throw new EngineInputError(`unknown table '${ch.table}'`, index);
  const pk = t.def.pk;
  switch (ch.op) {
    case 'insert':
    case 'delete': {
      const w0 = ch.weight ?? 1;
      if (!Number.isInteger(w0) || w0 === 0) throw new EngineInputError('weight must be a non-zero integer', index);
      if (ch.op === 'delete' && pk.length) {
        const row = convertRow(t, ch.row, index, true);
        checkNotNull(t, row, index, pk);
        return { kind: 'deleteKey', t, row };
      }
      const row = convertRow(t, ch.row, index, ch.op === 'delete');
      if (pk.length) return w0 < 0 ? { kind: 'deleteKey', t, row } : { kind: 'upsert', t, row };
      return { kind: 'weighted', t, row, w: ch.op === 'insert' ? w0 : -w0 };
    }
    case 'upsert': {
      if (!pk.length) throw new EngineInputError(`table '${t.def.name}' has no primary key: use insert`, index);
      const row = convertRow(t, ch.row, index, false);
      return { kind: 'upsert', t, row };
    }
    case 'update': {
      if (!pk.length) throw new EngineInputError(`update needs a table with a PRIMARY KEY; '${t.def.name}' has none`, index);
      const present: boolean[] = new Array(t.def.columns.length).fill(false);
      const row = convertRow(t, ch.row, index, true, present);
      checkNotNull(t, row, index, pk);
      const set: number[] = [];
      present.forEach((p, i) => {
        if (p && !pk.includes(i)) {
          if (row[i] === null && !t.def.columns[i]!.type.nullable) throw new EngineInputError(`null value for NOT NULL column '${t.def.columns[i]!.name}'`, index);
          set.push(i);
        }
      });
      return { kind: 'update', t, row, set };
    }
    case 'csv': {
      const cols = t.def.columns;
      const fields = ch.fields;
      if (!Array.isArray(fields)) throw new EngineInputError('csv change needs fields', index);
      if (fields.length !== cols.length) throw new EngineInputError(`expected ${cols.length} fields, found ${fields.length}`, index);
      const row: Row = fields.map((f, i) => {
        try {
          return fromCsv(String(f), cols[i]!.type);
        } catch (e) {
          if (e instanceof ValueError) throw new EngineInputError(`error parsing field '${cols[i]!.name}': field ${i}: ${e.message}`, index);
          throw e;
        }
      });
      checkNotNull(t, row, index);
      const w = ch.weight ?? 1;
      if (!Number.isInteger(w) || w === 0) throw new EngineInputError('weight must be a non-zero integer', index);
      if (pk.length) return w > 0 ? { kind: 'upsert', t, row } : { kind: 'deleteKey', t, row };
      return { kind: 'weighted', t, row, w };
    }
    default:
      throw new EngineInputError(`unknown operation '${(ch as { op: string }).op}'`, index);
  }
}
