/**
 * The running circuit: table inputs (with primary-key semantics and LATENESS), operators in topological
 * order, integrated contents of every output relation, and consolidated per-step output changes.
 */
import { EngineInputError, type Circuit, type InputChange, type JsonRow, type JsonValue, type StepResult, type WeightedRow } from './api.js';
import type { BoundProgram, TableDef, ViewDef } from './bind/program.js';
import type { PlanNode, PlanColumn } from './plan/nodes.js';
import { consolidate, ZSet, type Delta, type Operator } from './ops/zset.js';
import { fromCsv, fromJson, rowKey, toJson, ValueError, type Row, type Value } from './types/values.js';
import { compareValues } from './types/values.js';
import { resolveName } from './names.js';

interface Output {
  name: string;
  caseSensitive: boolean;
  isTable: boolean;
  node: PlanNode;
  columns: PlanColumn[];
  integrated: ZSet;
  /** Primary-key tables: contents live in the table's key map. */
  byKey?: Map<string | number, Row>;
  formatters: Array<(v: Value) => JsonValue>;
}

type Action =
  | { kind: 'weighted'; row: Row; w: number }
  | { kind: 'upsert'; row: Row }
  | { kind: 'deleteKey'; row: Row }
  | { kind: 'update'; row: Row; set: number[] };

interface TableState {
  def: TableDef;
  /** Primary-key tables: key -> current row. */
  byKey?: Map<string | number, Row>;
  exact: Map<string, number>;
  /** Lower-case spelling of unquoted column names (the usual JSON key), for the fast path. */
  altNames: Array<string | undefined>;
  folded: Map<string, number>;
  watermarks: Map<number, number>;
}

function foldKey(s: string): string {
  return s.toLowerCase();
}

export class EngineCircuit implements Circuit {
  private readonly nodes: PlanNode[];
  private readonly ops = new Map<number, Operator>();
  private readonly tables = new Map<string, TableState>();
  private readonly outputs: Output[] = [];
  private readonly nameCache = new Map<string, Output | undefined>();
  private readonly tableCache = new Map<string, TableState | undefined>();
  private pending: Map<Output, Delta> | undefined;

  constructor(
    private readonly program: BoundProgram,
    private readonly casing: 'upper' | 'lower',
  ) {
    // reachable nodes from outputs
    const all = new Map<number, PlanNode>();
    const visit = (n: PlanNode): void => {
      if (all.has(n.id)) return;
      all.set(n.id, n);
      n.inputs.forEach(visit);
    };
    for (const t of program.tables) visit(t.node);
    for (const v of program.views) visit(v.node);
    this.nodes = [...all.values()].sort((a, b) => a.id - b.id);
    for (const n of this.nodes) if (n.make) this.ops.set(n.id, n.make());
    for (const t of program.tables) {
      const exact = new Map<string, number>();
      const folded = new Map<string, number>();
      t.columns.forEach((c, i) => {
        exact.set(c.name, i);
        if (!c.quoted) folded.set(foldKey(c.name), i);
      });
      const byKey = t.pk.length ? new Map<string | number, Row>() : undefined;
      const altNames = t.columns.map((c) => (c.quoted ? undefined : c.name.toLowerCase() === c.name ? c.name.toUpperCase() : c.name.toLowerCase()));
      this.tables.set(t.name, { def: t, byKey, exact, folded, altNames, watermarks: new Map() });
      this.addOutput(t.name, t.node, t.columns.map((c) => ({ name: c.name, type: c.type })), t.quoted, true);
      this.outputs[this.outputs.length - 1]!.byKey = byKey;
    }
    for (const v of program.views) if (!v.local) this.addOutput(v.name, v.node, v.columns, v.quoted);
    // initial outputs (constants, global aggregates)
    const init = this.propagate(new Map(), true);
    this.pending = init;
  }

  private addOutput(name: string, node: PlanNode, columns: PlanColumn[], quoted: boolean, isTable = false): void {
    const fold = this.casing === 'upper' ? name.toUpperCase() : name.toLowerCase();
    const o: Output = { name, isTable, caseSensitive: quoted && fold !== name, node, columns, integrated: new ZSet(), formatters: columns.map((c) => (v: Value) => toJson(v, c.type)) };
    this.outputs.push(o);
  }

  private findOutput(name: string): Output | undefined {
    if (!this.nameCache.has(name)) this.nameCache.set(name, resolveName(this.outputs, name, this.casing));
    return this.nameCache.get(name);
  }

  private findTable(name: string): TableState | undefined {
    if (!this.tableCache.has(name)) {
      const o = resolveName(this.outputs.filter((x) => x.isTable), name, this.casing);
      this.tableCache.set(name, o ? this.tables.get(o.name) : undefined);
    }
    return this.tableCache.get(name);
  }

  private propagate(tableDeltas: Map<string, Delta>, initial: boolean): Map<Output, Delta> {
    const deltas = new Map<number, Delta>();
    for (const n of this.nodes) {
      if (n.kind === 'table') {
        const d = tableDeltas.get(n.table!);
        if (d && d.length) deltas.set(n.id, d);
        continue;
      }
      const op = this.ops.get(n.id)!;
      if (initial) {
        const ins = n.inputs.map((i) => deltas.get(i.id) ?? []);
        let out: Delta = op.init ? op.init() : [];
        if (ins.some((d) => d.length)) out = out.concat(op.step(ins));
        if (out.length) deltas.set(n.id, out);
        continue;
      }
      let any = false;
      const ins = n.inputs.map((i) => {
        const d = deltas.get(i.id);
        if (d && d.length) any = true;
        return d ?? [];
      });
      if (!any) continue;
      const out = op.step(ins);
      if (out.length) deltas.set(n.id, out);
    }
    const result = new Map<Output, Delta>();
    for (const o of this.outputs) {
      const d = deltas.get(o.node.id);
      if (!d || !d.length) continue;
      let c: Delta;
      if (o.byKey) c = consolidate(d); // primary-key tables: the key map already holds the contents
      else c = o.integrated.integrate(d);
      if (!c.length) continue;
      result.set(o, c);
    }
    return result;
  }

  /* ---------- input conversion ---------- */

  private convertRow(t: TableState, row: unknown, index: number, partial: boolean): { row: Row; present: boolean[] } {
    const cols = t.def.columns;
    const out: Row = cols.map((c) => c.dflt);
    const present = cols.map(() => false);
    if (Array.isArray(row)) {
      if (row.length > cols.length) throw new EngineInputError(`row has ${row.length} values but table '${t.def.name}' has ${cols.length} columns`, index);
      row.forEach((v, i) => {
        out[i] = this.convertValue(t, i, v as JsonValue, index);
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
        out[i] = this.convertValue(t, i, v, index);
        present[i] = true;
        found++;
      }
    }
    let total = 0;
    for (const _k in obj) total++;
    if (total === found) {
      if (!partial) this.checkNotNull(t, out, index);
      return { row: out, present };
    }
    for (const [k, v] of Object.entries(obj)) {
      let i = t.exact.get(k);
      if (i === undefined) i = t.folded.get(foldKey(k));
      if (i === undefined) continue; // unknown fields are ignored
      out[i] = this.convertValue(t, i, v, index);
      present[i] = true;
    }
    if (!partial) this.checkNotNull(t, out, index);
    return { row: out, present };
  }

  private convertValue(t: TableState, i: number, v: JsonValue, index: number): Value {
    const c = t.def.columns[i]!;
    try {
      return fromJson(v, c.type);
    } catch (e) {
      if (e instanceof ValueError) throw new EngineInputError(`error parsing field '${c.name}': ${e.message}`, index);
      throw e;
    }
  }

  private checkNotNull(t: TableState, row: Row, index: number, only?: number[]): void {
    const cols = t.def.columns;
    for (let i = 0; i < cols.length; i++) {
      if (only && !only.includes(i)) continue;
      if (row[i] === null && !cols[i]!.type.nullable) throw new EngineInputError(`missing or null value for NOT NULL column '${cols[i]!.name}'`, index);
    }
  }

  private convert(ch: InputChange, index: number): { t: TableState; action: Action } {
    if (!ch || typeof ch !== 'object') throw new EngineInputError('bad input change', index);
    const t = this.findTable(String(ch.table));
    if (!t) throw new EngineInputError(`unknown table '${ch.table}'`, index);
    const pk = t.def.pk;
    switch (ch.op) {
      case 'insert':
      case 'delete': {
        const w0 = ch.weight ?? 1;
        if (!Number.isInteger(w0) || w0 === 0) throw new EngineInputError('weight must be a non-zero integer', index);
        if (ch.op === 'delete' && pk.length) {
          const { row } = this.convertRow(t, ch.row, index, true);
          this.checkNotNull(t, row, index, pk);
          return { t, action: { kind: 'deleteKey', row } };
        }
        const { row } = this.convertRow(t, ch.row, index, ch.op === 'delete');
        if (pk.length) {
          if (w0 < 0) return { t, action: { kind: 'deleteKey', row } };
          return { t, action: { kind: 'upsert', row } };
        }
        return { t, action: { kind: 'weighted', row, w: ch.op === 'insert' ? w0 : -w0 } };
      }
      case 'upsert': {
        if (!pk.length) throw new EngineInputError(`table '${t.def.name}' has no primary key: use insert`, index);
        const { row } = this.convertRow(t, ch.row, index, false);
        return { t, action: { kind: 'upsert', row } };
      }
      case 'update': {
        if (!pk.length) throw new EngineInputError(`update needs a table with a PRIMARY KEY; '${t.def.name}' has none`, index);
        const { row, present } = this.convertRow(t, ch.row, index, true);
        this.checkNotNull(t, row, index, pk);
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
        this.checkNotNull(t, row, index);
        const w = ch.weight ?? 1;
        if (!Number.isInteger(w) || w === 0) throw new EngineInputError('weight must be a non-zero integer', index);
        if (pk.length) return { t, action: w > 0 ? { kind: 'upsert', row } : { kind: 'deleteKey', row } };
        return { t, action: { kind: 'weighted', row, w } };
      }
      default:
        throw new EngineInputError(`unknown operation '${(ch as { op: string }).op}'`, index);
    }
  }

  private pkKey(t: TableState, row: Row): string | number {
    const pk = t.def.pk;
    if (pk.length === 1) {
      const v = row[pk[0]!]!;
      return typeof v === 'number' ? v : rowKey([v]);
    }
    return rowKey(pk.map((i) => row[i]!));
  }

  /** LATENESS: rows older than the table's watermark are dropped. */
  private late(t: TableState, row: Row): boolean {
    for (const [i] of t.def.lateness) {
      const wm = t.watermarks.get(i);
      const v = row[i];
      if (wm !== undefined && v !== null && v !== undefined && compareValues(v, wm) < 0) return true;
    }
    return false;
  }

  step(inputs: InputChange[]): StepResult {
    if (!Array.isArray(inputs)) throw new EngineInputError('step() needs an array of changes', 0);
    const actions = inputs.map((ch, i) => this.convert(ch, i));
    // apply (cannot fail from here on)
    const tableDeltas = new Map<string, Delta>();
    const maxSeen = new Map<TableState, Map<number, number>>();
    for (const { t, action } of actions) {
      let d = tableDeltas.get(t.def.name);
      if (!d) {
        d = [];
        tableDeltas.set(t.def.name, d);
      }
      if (t.def.lateness.size) {
        if (this.late(t, action.row)) continue;
        let m = maxSeen.get(t);
        if (!m) {
          m = new Map();
          maxSeen.set(t, m);
        }
        for (const [i] of t.def.lateness) {
          const v = action.row[i];
          if (typeof v === 'number' && (action.kind !== 'deleteKey') && (!m.has(i) || v > m.get(i)!)) m.set(i, v);
        }
      }
      if (!t.byKey) {
        d.push([(action as { row: Row }).row, (action as { w: number }).w]);
        continue;
      }
      const k = this.pkKey(t, action.row);
      const old = t.byKey.get(k);
      switch (action.kind) {
        case 'upsert':
          if (old) d.push([old, -1]);
          t.byKey.set(k, action.row);
          d.push([action.row, 1]);
          break;
        case 'deleteKey':
          if (old) {
            d.push([old, -1]);
            t.byKey.delete(k);
          }
          break;
        case 'update':
          if (old && action.set.length) {
            const nw = old.slice();
            for (const i of action.set) nw[i] = action.row[i]!;
            if (rowKey(nw) !== rowKey(old)) {
              d.push([old, -1], [nw, 1]);
              t.byKey.set(k, nw);
            }
          }
          break;
        case 'weighted':
          break;
      }
    }
    let advanced = false;
    for (const [t, m] of maxSeen) {
      for (const [i, v] of m) {
        const cand = v - t.def.lateness.get(i)!;
        const cur = t.watermarks.get(i);
        if (cur === undefined || cand > cur) {
          t.watermarks.set(i, cand);
          advanced = true;
        }
      }
    }
    let result = this.propagate(tableDeltas, false);
    if (advanced) {
      const wmOf = (table: string, col: number): number | undefined => this.tables.get(table)?.watermarks.get(col);
      for (const op of this.ops.values()) op.release?.(wmOf);
    }
    if (this.pending) {
      const p = this.pending;
      this.pending = undefined;
      for (const [o, d] of result) p.set(o, consolidate((p.get(o) ?? []).concat(d)));
      result = p;
    }
    const changes = new Map<string, WeightedRow[]>();
    for (const [o, d] of result) {
      if (!d.length) continue;
      const sorted = d.slice().sort((a, b) => a[1] - b[1]);
      changes.set(o.name, sorted.map(([row, w]) => ({ row: this.toJsonRow(o, row), weight: w })));
    }
    return { changes };
  }

  private toJsonRow(o: Output, row: Row): JsonRow {
    const out: JsonRow = {};
    const cols = o.columns;
    for (let i = 0; i < cols.length; i++) out[cols[i]!.name] = o.formatters[i]!(row[i]!);
    return out;
  }

  contents(name: string): WeightedRow[] {
    const o = this.findOutput(name);
    if (!o) throw new Error(`unknown relation '${name}'`);
    const out: WeightedRow[] = [];
    if (o.byKey) for (const row of o.byKey.values()) out.push({ row: this.toJsonRow(o, row), weight: 1 });
    else for (const e of o.integrated.map.values()) out.push({ row: this.toJsonRow(o, e.row), weight: e.w });
    return out;
  }

  stateSize(): number {
    let n = 0;
    for (const op of this.ops.values()) n += op.stateSize();
    for (const o of this.outputs) n += o.byKey ? o.byKey.size : o.integrated.size;
    return n;
  }
}

export type { TableDef, ViewDef };
