/**
 * Snapshot queries over a relation's current contents: the whole relation in key order, quantiles
 * (at most N rows sampled in key order) and neighborhoods (rows around an anchor, indexes -before..after-1,
 * as Feldera's neighborhood operator).
 */
import { EngineValueError, jsonText, type Circuit, type ColumnSchema, type CompiledProgram, type InputCodec, type JsonRow, type JsonValue, type WeightedRow } from '../../../../engine/index.js';
import { parseJsonText } from '../../../../engine/index.js';
import { FelderaError } from '../../shared/errors.js';
import { ColumnIndex, engineName, findRelation, type ProgramSchema } from '../../shared/names.js';
import type { SnapshotSpec } from '../../shared/protocol.js';
import { checkRepeats, OutputTooLarge, snapshotBody } from './encode.js';
import { TextBytes } from './text-bytes.js';
import { rowComparator } from './order.js';
import type { QueryGuard } from './query-memory.js';

/** The contents in key order, positive weights only (as a snapshot reads them). */
export function sortedContents(rows: WeightedRow[], columns: ColumnSchema[]): WeightedRow[] {
  const cmp = rowComparator(columns);
  return rows.filter((r) => r.weight > 0).sort((a, b) => cmp(a.row, b.row));
}

/**
 * The contents of the relation named `name` (an output name) in key order with their positive weights, as
 * sortedContents gives them, read entry by entry as held (Circuit.forEachContent) and added up once sorted
 * (equal rows are then side by side): reading costs the entries and a sort, not an index of every row, which
 * contents() builds first and which was the allocation that ran a nearly full pipeline out of memory. `guard`
 * is told of every entry (a pipeline worker's memory share).
 */
export function sortedEntries(circuit: Circuit, name: string, columns: ColumnSchema[], guard?: QueryGuard): WeightedRow[] {
  const cmp = rowComparator(columns);
  const all: WeightedRow[] = [];
  circuit.forEachContent(name, (row, weight) => {
    all.push({ row, weight });
    guard?.rows(1);
  });
  all.sort((a, b) => cmp(a.row, b.row));
  const out: WeightedRow[] = [];
  for (const e of all) {
    const last = out[out.length - 1];
    if (last !== undefined && cmp(last.row, e.row) === 0) last.weight += e.weight;
    else out.push(e);
  }
  return out.filter((r) => r.weight > 0);
}

export function quantiles(sorted: WeightedRow[], n: number): WeightedRow[] {
  const total = sorted.reduce((s, r) => s + r.weight, 0);
  if (total <= n) return sorted;
  const out: WeightedRow[] = [];
  // Walk the cumulative weights to pick the row at each quantile position.
  let idx = 0;
  let acc = 0;
  for (let q = 0; q < n; q++) {
    const pos = Math.floor((q * total) / n);
    while (idx < sorted.length && acc + sorted[idx]!.weight <= pos) {
      acc += sorted[idx]!.weight;
      idx++;
    }
    if (idx < sorted.length) out.push({ row: sorted[idx]!.row, weight: 1 });
  }
  return out;
}

export interface NeighborhoodSpec {
  anchor: JsonRow | null;
  before: number;
  after: number;
}

/**
 * Reads `{anchor, before, after}`; the anchor may be an object (any key case) or an array in column order,
 * its values of the columns' types, read by the relation's value codec (`codec`) as ingress reads them.
 */
export function parseNeighborhood(body: unknown, columns: ColumnSchema[], codec: InputCodec): NeighborhoodSpec | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'expected a JSON object {"anchor": row|null, "before": n, "after": n}';
  const b = body as Record<string, unknown>;
  const num = (k: string) => (b[k] === undefined ? 0 : b[k]);
  const before = num('before');
  const after = num('after');
  if (typeof before !== 'number' || !Number.isInteger(before) || before < 0) return "'before' must be a non-negative integer";
  if (typeof after !== 'number' || !Number.isInteger(after) || after < 0) return "'after' must be a non-negative integer";
  let anchor: JsonRow | null = null;
  if (b.anchor !== undefined && b.anchor !== null) {
    const idx = new ColumnIndex(columns);
    const row: JsonRow = {};
    for (const c of columns) row[c.name] = null;
    // each value as ingress reads it (DECIMAL numbers as text, trimmed dates...); a bad one is an error;
    // null is allowed in every column (an anchor below all rows)
    const set = (i: number, v: unknown): string | undefined => {
      const c = columns[i]!;
      try {
        row[c.name] = v === null ? null : codec.columns[i]!.fromJson(v as JsonValue);
        return undefined;
      } catch (err) {
        if (err instanceof EngineValueError) return `'anchor' field '${c.name}': ${err.message}`;
        throw err;
      }
    };
    if (Array.isArray(b.anchor)) {
      if (b.anchor.length > columns.length) return `'anchor' has ${b.anchor.length} values for ${columns.length} columns`;
      for (let i = 0; i < b.anchor.length; i++) {
        const bad = set(i, b.anchor[i]);
        if (bad) return bad;
      }
    } else if (typeof b.anchor === 'object') {
      for (const [k, v] of Object.entries(b.anchor as Record<string, JsonValue>)) {
        const i = idx.lookup(k);
        if (i === undefined) continue;
        const bad = set(i, v);
        if (bad) return bad;
      }
    } else return "'anchor' must be a row (object or array) or null";
    anchor = row;
  }
  return { anchor, before, after };
}

export function neighborhood(sorted: WeightedRow[], spec: NeighborhoodSpec, columns: ColumnSchema[]): JsonRow[] {
  const cmp = rowComparator(columns);
  checkRepeats(sorted); // each unit of weight is a position
  const rows: JsonRow[] = [];
  for (const r of sorted) for (let k = 0; k < r.weight; k++) rows.push(r.row);
  let pivot = 0;
  if (spec.anchor) {
    while (pivot < rows.length && cmp(rows[pivot]!, spec.anchor) < 0) pivot++;
  }
  const out: JsonRow[] = [];
  const from = spec.anchor ? Math.max(0, pivot - spec.before) : pivot;
  const to = Math.min(rows.length, pivot + spec.after);
  for (let i = from; i < to; i++) out.push({ index: i - pivot, key: rows[i]! });
  return out;
}

/** The body of a snapshot request (`mode=snapshot`), read from the circuit's integrated contents. */
export function answerSnapshot(circuit: Circuit, program: ProgramSchema & Pick<CompiledProgram, 'valueCodec'>, spec: SnapshotSpec, guard?: QueryGuard): Buffer {
  try {
    return snapshotOf(circuit, program, spec, guard);
  } catch (err) {
    // rows of huge weight in JSON: the answer would be too big to build; the client may read it as CSV
    if (err instanceof OutputTooLarge) throw new FelderaError(400, 'OutputTooLarge', `The snapshot of '${spec.relation}' cannot be sent as JSON: ${err.message}`, { records: err.records });
    throw err;
  }
}

function snapshotOf(circuit: Circuit, program: ProgramSchema & Pick<CompiledProgram, 'valueCodec'>, spec: SnapshotSpec, guard?: QueryGuard): Buffer {
  const rel = findRelation(program, `"${spec.relation.replace(/"/g, '""')}"`, 'any');
  if (!rel) throw new FelderaError(404, 'UnknownOutputEndpoint', `Unknown relation '${spec.relation}'`);
  // a table that forgets rows behind its LATENESS waterline (bounded state) has no whole contents to send
  if (!rel.materialized && program.tables.includes(rel))
    throw new FelderaError(
      400,
      'SnapshotNotMaterialized',
      `Table '${rel.name}' keeps only the rows its views still need (it has LATENESS and is not materialized), so it has no snapshot: declare it WITH ('materialized' = 'true') to read all of it, or read its views`,
      { relation: rel.name },
    );
  const { query, format } = spec;
  let rows;
  try {
    rows = sortedEntries(circuit, engineName(rel), rel.columns, guard);
  } catch (err) {
    if (err instanceof FelderaError) throw err; // the memory share: the guard's own answer
    throw new FelderaError(405, query === 'neighborhood' ? 'NeighborhoodNotSupported' : 'QuantilesNotSupported', `Cannot read the contents of '${rel.name}': ${(err as Error).message}`);
  }
  const body = new TextBytes();
  if (query === 'neighborhood') {
    if (spec.neighborhood === null)
      throw new FelderaError(400, 'MissingNeighborhoodSpec', 'Neighborhood request must specify the neighborhood in the body of the request: {"anchor": row|null, "before": n, "after": n}.');
    const parsed = parseNeighborhood(parseJsonText(spec.neighborhood), rel.columns, program.valueCodec(engineName(rel))!);
    if (typeof parsed === 'string') throw new FelderaError(400, 'InvalidNeighborhoodSpec', `Invalid neighborhood specification: ${parsed}`);
    const items = neighborhood(rows, parsed, rel.columns);
    if (format === 'json') {
      body.add('{"sequence_number":0,"json_data":[');
      items.forEach((item, i) => body.add(`${i === 0 ? '' : ','}{"insert":${jsonText(item)}}`));
      body.add(']}');
    } else
      snapshotBody(
        items.map((i) => ({ row: i, weight: 1 })),
        'csv',
        [
          { name: 'index', caseSensitive: false, type: 'BIGINT', nullable: false },
          { name: 'key', caseSensitive: false, type: 'VARIANT', nullable: false },
        ],
        body,
      );
  } else {
    if (query === 'quantiles') rows = quantiles(rows, spec.quantiles);
    snapshotBody(rows, format, rel.columns, body);
  }
  body.add('\r\n');
  return body.bytes();
}
