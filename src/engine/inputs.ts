/** Input changes: JSON/CSV rows to internal rows, validated per table (types, NOT NULL, keys). */
import { EngineInputError, type InputChange, type JsonValue } from './api.js';
import type { TableDef } from './bind/program.js';
import { fromCsv, fromJson, ValueError, type Row, type Value } from './types/values.js';

export type Action =
  | { kind: 'weighted'; row: Row; w: number }
  | { kind: 'upsert'; row: Row }
  | { kind: 'deleteKey'; row: Row }
  | { kind: 'update'; row: Row; set: number[] };

export interface TableState {
  def: TableDef;
  /** Primary-key tables: key -> current row. */
  byKey?: Map<string | number, Row>;
  exact: Map<string, number>;
  /** Lower-case spelling of unquoted column names (the usual JSON key), for the fast path. */
  altNames: Array<string | undefined>;
  folded: Map<string, number>;
  watermarks: Map<number, number>;
}

export function foldKey(s: string): string {
  return s.toLowerCase();
}


export function convertRow(t: TableState, row: unknown, index: number, partial: boolean): { row: Row; present: boolean[] } {
  const cols = t.def.columns;
  const out: Row = cols.map((c) => c.dflt);
  const present = cols.map(() => false);
  if (Array.isArray(row)) {
    if (row.length > cols.length) throw new EngineInputError(`row has ${row.length} values but table '${t.def.name}' has ${cols.length} columns`, index);
    row.forEach((v, i) => {
      out[i] = convertValue(t, i, v as JsonValue, index);
      present[i] = true;
    });
    return { row: out, present };
  }
  if (row === null || typeof row !== 'object') throw new EngineInputError(`row must be a JSON object or array`, index);
  // fast path: keys spelled exactly as the column names
  const obj = row as Record<string, JsonValue>;
  let found = 0;
  const alt = t.altNames;
  for (let i = 0; i < cols.length; i++) {
    let v = obj[cols[i]!.name];
    if (v === undefined && alt[i] !== undefined) v = obj[alt[i]!];
    if (v !== undefined) {
      out[i] = convertValue(t, i, v, index);
      present[i] = true;
      found++;
    }
  }
  let total = 0;
  for (const _k in obj) total++;
  if (total === found) {
    if (!partial) checkNotNull(t, out, index);
    return { row: out, present };
  }
  for (const [k, v] of Object.entries(obj)) {
    let i = t.exact.get(k);
    if (i === undefined) i = t.folded.get(foldKey(k));
    if (i === undefined) continue; // unknown fields are ignored
    out[i] = convertValue(t, i, v, index);
    present[i] = true;
  }
  if (!partial) checkNotNull(t, out, index);
  return { row: out, present };
}

function convertValue(t: TableState, i: number, v: JsonValue, index: number): Value {
  const c = t.def.columns[i]!;
  try {
    return fromJson(v, c.type);
  } catch (e) {
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

export function convertChange(ch: InputChange, index: number, findTable: (name: string) => TableState | undefined): { t: TableState; action: Action } {
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
        const { row } = convertRow(t, ch.row, index, true);
        checkNotNull(t, row, index, pk);
        return { t, action: { kind: 'deleteKey', row } };
      }
      const { row } = convertRow(t, ch.row, index, ch.op === 'delete');
      if (pk.length) {
        if (w0 < 0) return { t, action: { kind: 'deleteKey', row } };
        return { t, action: { kind: 'upsert', row } };
      }
      return { t, action: { kind: 'weighted', row, w: ch.op === 'insert' ? w0 : -w0 } };
    }
    case 'upsert': {
      if (!pk.length) throw new EngineInputError(`table '${t.def.name}' has no primary key: use insert`, index);
      const { row } = convertRow(t, ch.row, index, false);
      return { t, action: { kind: 'upsert', row } };
    }
    case 'update': {
      if (!pk.length) throw new EngineInputError(`update needs a table with a PRIMARY KEY; '${t.def.name}' has none`, index);
      const { row, present } = convertRow(t, ch.row, index, true);
      checkNotNull(t, row, index, pk);
      const set: number[] = [];
      present.forEach((p, i) => {
        if (p && !pk.includes(i)) {
          if (row[i] === null && !t.def.columns[i]!.type.nullable) throw new EngineInputError(`null value for NOT NULL column '${t.def.columns[i]!.name}'`, index);
          set.push(i);
        }
      });
      return { t, action: { kind: 'update', row, set } };
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
      if (pk.length) return { t, action: w > 0 ? { kind: 'upsert', row } : { kind: 'deleteKey', row } };
      return { t, action: { kind: 'weighted', row, w } };
    }
    default:
      throw new EngineInputError(`unknown operation '${(ch as { op: string }).op}'`, index);
  }
}

