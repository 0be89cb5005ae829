/**
 * The circuit's output relations (every table and every view that is not LOCAL) and their JSON form. Contract:
 * an Output holds its integrated contents (a primary-key table's live in its key map), its emit_final rows if
 * any, and one formatter per column; `formatDelta` gives a step's change as JSON rows, deletes before inserts;
 * `toJsonRow` keys a row by its columns' output names.
 */
import type { JsonRow, JsonValue, WeightedRow } from '../api.js';
import type { PlanColumn, PlanNode } from '../plan/nodes.js';
import type { Delta } from '../ops/zset.js';
import { RelationContents } from '../contents.js';
import { toJson } from '../codec-json.js';
import type { Row, Value } from '../types/values.js';
import type { HeldRows } from './emit-final.js';

export interface Output {
  name: string;
  caseSensitive: boolean;
  isTable: boolean;
  node: PlanNode;
  columns: PlanColumn[];
  /** Contents for snapshots (keyless relations; primary-key tables keep theirs in byKey). */
  integrated: RelationContents;
  /** Primary-key tables: contents live in the table's key map. */
  byKey?: Map<string | number, Row>;
  formatters: Array<(v: Value) => JsonValue>;
  /** emit_final views: changes held back until their row is final (circuit/emit-final.ts). */
  final?: HeldRows;
}

export function newOutput(name: string, node: PlanNode, columns: PlanColumn[], quoted: boolean, casing: 'upper' | 'lower', isTable: boolean): Output {
  const fold = casing === 'upper' ? name.toUpperCase() : name.toLowerCase();
  return { name, isTable, caseSensitive: quoted && fold !== name, node, columns, integrated: new RelationContents(), formatters: columns.map((c) => (v: Value) => toJson(v, c.type)) };
}

/** A delta as JSON rows, deletes before inserts. */
export function formatDelta(o: Output, d: Delta): WeightedRow[] {
  let ordered = true; // sort only when needed
  for (let i = 1; i < d.length && ordered; i++) if (d[i - 1]![1] > 0 && d[i]![1] < 0) ordered = false;
  const sorted = ordered ? d : d.slice().sort((a, b) => a[1] - b[1]);
  return sorted.map(([row, w]) => ({ row: toJsonRow(o, row), weight: w }));
}

export function toJsonRow(o: Output, row: Row): JsonRow {
  const out: JsonRow = {};
  const cols = o.columns;
  for (let i = 0; i < cols.length; i++) out[cols[i]!.name] = o.formatters[i]!(row[i]!);
  return out;
}
