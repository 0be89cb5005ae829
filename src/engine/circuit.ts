/**
 * The running circuit: table inputs (with primary-key semantics and LATENESS), operators in topological
 * order, integrated contents of every output relation, and consolidated per-step output changes.
 *
 * A step is all or nothing: a view's computation that throws (integer overflow, division by zero, a bug)
 * leaves the circuit exactly as before the step. The table changes of the step are undone from a small
 * undo log (primary-key map entries, watermarks); outputs (view contents, held emit_final rows) are only
 * written after every operator ran, so they are untouched; the operators' state is rebuilt from the
 * tables' integrated contents (a fresh operator fed the contents in one step holds what the incremental
 * ones held: each operator's state is a function of its integrated inputs), then released to the current
 * watermarks. The cost is paid only on error; a step that succeeds pays one array push per keyed change.
 * An integer overflow is thrown as EngineStepError naming the view; any other error (a bug) as it is.
 * NOW() (bind/now.ts): a program that reads it has one clock node; each step reads the injected clock once
 * and, when the value moved, feeds that node the old row's retraction and the new row, as a table's change.
 */
import { EngineInputError, EngineStateError, EngineStepError, type Circuit, type CircuitStatePart, type InputChange, type JsonRow, type JsonValue, type StepResult, type WeightedRow } from './api.js';
import type { BoundProgram, TableDef, ViewDef } from './bind/program.js';
import type { PlanNode, PlanColumn, Watermarked } from './plan/nodes.js';
import { finalFrom } from './plan/waterline.js';
import { consolidate, type Delta, type Operator } from './ops/zset.js';
import { consolidateStep, RelationContents } from './contents.js';
import { StepChanges } from './step-changes.js';
import { rowKey, sameRow, type Row, type Value } from './types/values.js';
import { jsonConverter, jsonKept, toJson } from './codec-json.js';
import { compareValues } from './types/values.js';
import { convertBatch, convertChange, foldKey, type Action, type TableState } from './inputs.js';
import { resolveName } from './names.js';
import { IntOverflow } from './types/int64.js';
import { guarded, rowsProduced, StepStopped } from './step-guard.js';
import { mayForget, retentionRules, type RetentionRule } from './plan/retention.js';

/** A table that forgets rows (plan/retention.ts) looks for rows to forget once it holds this many, then again at twice what it kept. */
const FORGET_FROM_ROWS = 4096;

/** The version of exportState's parts: a checkpoint of another version is refused. */
const STATE_VERSION = 1;
/** Rows in one part of an exported state. */
const STATE_PART_ROWS = 4096;

type StatePart =
  | { kind: 'circuit'; version: number; shape: string[]; now: number | null }
  | { kind: 'watermarks'; table: string; marks: Array<[number, number]> }
  | { kind: 'rows'; output: number; rows: Row[]; weights: number[] | null }
  | { kind: 'held'; output: number; entries: Array<[Row, number]> }
  | { kind: 'end'; rows: number };

interface Output {
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
  /** emit_final views: changes held back until their row is final (plan/waterline.ts finalFrom <= watermark). */
  final?: { col: number; table: string; wmCol: number; lineage: Watermarked; held: Map<string, [Row, number]> };
}

export class EngineCircuit implements Circuit {
  private readonly nodes: PlanNode[];
  private readonly ops = new Map<number, Operator>();
  private readonly tables = new Map<string, TableState>();
  private readonly outputs: Output[] = [];
  private readonly nameCache = new Map<string, Output | undefined>();
  private readonly tableCache = new Map<string, TableState | undefined>();
  private readonly singleTouch = new Set<string>();
  /** The step's undo log of keyed table rows (triples: map, key, old row) and the watermarks it moved. */
  private readonly undo: unknown[] = [];
  private readonly savedWatermarks = new Map<TableState, Map<number, number>>();
  /** The node whose operator is running (names the view when its computation fails). */
  private running: PlanNode | undefined;

  /** Why this circuit refuses to step: its guard stopped a step (step-guard.ts). */
  private stopped: unknown = null;

  /** Tables that forget rows behind their LATENESS waterline (plan/retention.ts), with when they next look. */
  private readonly retention = new Map<Output, { rule: RetentionRule; nextAt: number }>();

  /** The clock node when a view reads NOW() (bind/now.ts), and the value its one row holds (none before the first step). */
  private readonly clockNode: PlanNode | undefined;
  private now: number | undefined;

  constructor(
    private readonly program: BoundProgram,
    private readonly casing: 'upper' | 'lower',
    private readonly guard?: () => void,
    private readonly clock?: () => number,
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
    for (const n of this.nodes) if (n.kind !== 'table' && n.kind !== 'now') this.ops.set(n.id, n.make());
    this.clockNode = this.nodes.find((n) => n.kind === 'now');
    for (const t of program.tables) {
      const exact = new Map<string, number>();
      const folded = new Map<string, number>();
      t.columns.forEach((c, i) => {
        exact.set(c.name, i);
        if (!c.quoted) folded.set(foldKey(c.name), i);
      });
      const byKey = t.pk.length ? new Map<string | number, Row>() : undefined;
      const altNames = t.columns.map((c) => (c.quoted ? undefined : c.name.toLowerCase() === c.name ? c.name.toUpperCase() : c.name.toLowerCase()));
      const convert = t.columns.map((c) => jsonConverter(c.type));
      const kept = t.columns.map((c) => jsonKept(c.type));
      this.tables.set(t.name, { def: t, byKey, exact, folded, altNames, convert, kept, watermarks: new Map() });
      this.addOutput(
        t.name,
        t.node,
        t.columns.map((c) => ({ name: c.name, type: c.type })),
        t.quoted,
        true,
      );
      this.outputs[this.outputs.length - 1]!.byKey = byKey;
    }
    const rules = retentionRules(program.tables, this.nodes);
    for (const o of this.outputs) {
      const rule = o.isTable ? rules.get(o.name) : undefined;
      if (rule) this.retention.set(o, { rule, nextAt: FORGET_FROM_ROWS });
    }
    for (const v of program.views) {
      if (v.local) continue;
      this.addOutput(v.name, v.node, v.columns, v.quoted);
      if (v.emitFinal) this.outputs[this.outputs.length - 1]!.final = { col: v.emitFinal.col, table: v.emitFinal.wm.table, wmCol: v.emitFinal.wm.col, lineage: v.emitFinal.wm, held: new Map() };
    }
    // initial outputs (constants, the row of a global aggregate over nothing) are the contents at
    // creation; every step's changes are the difference to the contents before it, so a snapshot plus
    // the changes that follow always add up (the first insert retracts `{COUNT: 0, SUM: null}`)
    try {
      this.propagate(new Map(), true);
    } catch (err) {
      // a constant view whose value overflows (SELECT 2147483647 + 1): named as a step's error would be
      throw this.stepError(err, this.running);
    }
  }

  private addOutput(name: string, node: PlanNode, columns: PlanColumn[], quoted: boolean, isTable = false): void {
    const fold = this.casing === 'upper' ? name.toUpperCase() : name.toLowerCase();
    const o: Output = { name, isTable, caseSensitive: quoted && fold !== name, node, columns, integrated: new RelationContents(), formatters: columns.map((c) => (v: Value) => toJson(v, c.type)) };
    this.outputs.push(o);
  }

  private findOutput(name: string): Output | undefined {
    if (!this.nameCache.has(name)) this.nameCache.set(name, resolveName(this.outputs, name, this.casing));
    return this.nameCache.get(name);
  }

  private findTable(name: string): TableState | undefined {
    if (!this.tableCache.has(name)) {
      const o = resolveName(
        this.outputs.filter((x) => x.isTable),
        name,
        this.casing,
      );
      this.tableCache.set(name, o ? this.tables.get(o.name) : undefined);
    }
    return this.tableCache.get(name);
  }

  /** Every operator's output delta for these table deltas and clock change (initial: the operators' first step, with init()). */
  private runOps(tableDeltas: Map<string, Delta>, initial: boolean, clockDelta?: Delta): Map<number, Delta> {
    const deltas = new Map<number, Delta>();
    for (const n of this.nodes) {
      if (n.kind === 'table') {
        const d = tableDeltas.get(n.table);
        if (d && d.length) deltas.set(n.id, d);
        continue;
      }
      if (n.kind === 'now') {
        if (clockDelta?.length) deltas.set(n.id, clockDelta);
        continue;
      }
      const op = this.ops.get(n.id)!;
      if (initial) {
        this.running = n;
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
      this.running = n;
      const out = op.step(ins);
      if (out.length) deltas.set(n.id, out);
    }
    this.running = undefined;
    return deltas;
  }

  private propagate(tableDeltas: Map<string, Delta>, initial: boolean, clockDelta?: Delta): Map<Output, Delta> {
    const deltas = this.runOps(tableDeltas, initial, clockDelta);
    // from here on nothing computes SQL expressions: the outputs are written only when every operator ran
    const result = new Map<Output, Delta>();
    for (const o of this.outputs) {
      let d = deltas.get(o.node.id);
      if (o.final) d = this.finalRows(o.final, d);
      if (!d || !d.length) continue;
      let c: Delta;
      if (o.byKey)
        c = o.node.kind === 'table' && this.singleTouch.has(o.node.table) ? d : consolidate(d); // primary-key tables: the key map already holds the contents
      else {
        c = consolidateStep(d);
        o.integrated.append(c);
      }
      if (!c.length) continue;
      result.set(o, c);
    }
    return result;
  }

  /** emit_final: hold the changes of rows not yet final; return the held changes that became final. */
  private finalRows(f: NonNullable<Output['final']>, d: Delta | undefined): Delta {
    for (const [row, w] of d ?? []) {
      const k = rowKey(row);
      const e = f.held.get(k);
      if (!e) f.held.set(k, [row, w]);
      else if ((e[1] += w) === 0) f.held.delete(k);
    }
    const wm = this.tables.get(f.table)?.watermarks.get(f.wmCol);
    const out: Delta = [];
    if (wm === undefined || !f.held.size) return out;
    for (const [k, e] of f.held) {
      const v = e[0][f.col];
      if (typeof v === 'number' && finalFrom(v, f.lineage) <= wm) {
        out.push(e);
        f.held.delete(k);
      }
    }
    return out;
  }

  /* ---------- input conversion ---------- */

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

  /** Applies one converted input row to its table (the step's second phase: cannot fail). */
  private applyRow(
    t: TableState,
    d: Delta,
    kind: 'weighted' | 'upsert' | 'deleteKey' | 'update',
    row: Row,
    w: number,
    set: number[] | undefined,
    maxSeen: Map<TableState, Map<number, number>>,
    touchedKeys: Map<string, Set<string | number> | null>,
  ): void {
    if (t.def.lateness.size) {
      if (this.late(t, row)) return;
      let m = maxSeen.get(t);
      if (!m) {
        m = new Map();
        maxSeen.set(t, m);
      }
      for (const [i] of t.def.lateness) {
        const v = row[i];
        if (typeof v === 'number' && kind !== 'deleteKey' && (!m.has(i) || v > m.get(i)!)) m.set(i, v);
      }
    }
    if (!t.byKey) {
      d.push([row, w]);
      return;
    }
    const k = this.pkKey(t, row);
    // the keys this step touched (null once one was touched twice: the table's delta then needs consolidating)
    let keys = touchedKeys.get(t.def.name);
    if (keys === undefined) touchedKeys.set(t.def.name, (keys = new Set()));
    if (keys !== null) {
      if (keys.has(k)) touchedKeys.set(t.def.name, null);
      else keys.add(k);
    }
    const old = t.byKey.get(k);
    this.undo.push(t.byKey, k, old);
    switch (kind) {
      case 'upsert':
        if (old && sameRow(old, row)) break;
        if (old) d.push([old, -1]);
        t.byKey.set(k, row);
        d.push([row, 1]);
        break;
      case 'deleteKey':
        if (old) {
          d.push([old, -1]);
          t.byKey.delete(k);
        }
        break;
      case 'update':
        if (old && set!.length) {
          const nw = old.slice();
          for (const i of set!) nw[i] = row[i]!;
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

  check(inputs: InputChange[]): void {
    if (!Array.isArray(inputs)) throw new EngineInputError('step() needs an array of changes', 0);
    const find = (name: string): TableState | undefined => this.findTable(name);
    // each change converted as step() converts it, and dropped at once (one change's rows at a time in memory)
    const scratch: Action[] = [];
    let index = 0;
    for (const ch of inputs) {
      if (ch !== null && typeof ch === 'object' && ch.op === 'batch') index = convertBatch(ch, index, find, scratch);
      else scratch.push(convertChange(ch, index++, find));
      scratch.length = 0;
    }
  }

  step(inputs: InputChange[]): StepResult {
    if (this.stopped !== null) throw new Error('this circuit was stopped by its guard and cannot step again', { cause: this.stopped });
    return guarded(this.guard, () => this.guardedStep(inputs));
  }

  private guardedStep(inputs: InputChange[]): StepResult {
    if (!Array.isArray(inputs)) throw new EngineInputError('step() needs an array of changes', 0);
    const find = (name: string): TableState | undefined => this.findTable(name);
    // convert and check every input first (a bad one throws: nothing applied); a batch block by block
    const actions: Action[] = [];
    let index = 0;
    for (const ch of inputs) {
      if (ch !== null && typeof ch === 'object' && ch.op === 'batch') index = convertBatch(ch, index, find, actions);
      else actions.push(convertChange(ch, index++, find));
      rowsProduced(1); // converted rows are memory too: the step's guard, if any, may stop a step grown too big
    }
    // apply; a view that fails below undoes it all (the undo log: the keyed rows replaced, oldest first,
    // as flat triples map, key, old row; reused from step to step, so a step allocates nothing for it)
    const undo = this.undo;
    const now = this.readClock();
    try {
      const result = this.apply(actions, now);
      if (now !== undefined) this.now = now;
      undo.length = 0; // holds no replaced rows past the step
      if (this.savedWatermarks.size) this.savedWatermarks.clear();
      return result;
    } catch (err) {
      if (err instanceof StepStopped) {
        // not rebuilt (that would run the same work again): the circuit is done with
        this.stopped = err.cause;
        this.running = undefined;
        throw err.cause;
      }
      for (let i = undo.length - 3; i >= 0; i -= 3) {
        const map = undo[i] as Map<string | number, Row>;
        const k = undo[i + 1] as string | number;
        const old = undo[i + 2] as Row | undefined;
        if (old === undefined) map.delete(k);
        else map.set(k, old);
      }
      undo.length = 0;
      for (const [t, wm] of this.savedWatermarks) t.watermarks = wm;
      this.savedWatermarks.clear();
      const failed = this.running;
      this.running = undefined;
      this.rebuildOperators();
      throw this.stepError(err, failed);
    }
  }

  /**
   * The clock's value for this step when the program reads NOW() and it differs from the value its row holds
   * (undefined: no change). A value that is not a whole number of milliseconds is the caller's bug: thrown
   * before anything is applied.
   */
  private readClock(): number | undefined {
    if (!this.clockNode || !this.clock) return undefined;
    const v = this.clock();
    if (!Number.isSafeInteger(v)) throw new TypeError(`the circuit's clock gave ${String(v)}, not a whole number of milliseconds since the epoch`);
    return v === this.now ? undefined : v;
  }

  private apply(actions: Action[], now: number | undefined): StepResult {
    const tableDeltas = new Map<string, Delta>();
    const filled = this.sizedDeltas(actions, tableDeltas);
    const maxSeen = new Map<TableState, Map<number, number>>();
    const touchedKeys = new Map<string, Set<string | number> | null>();
    for (let a = 0; a < actions.length; a++) {
      const action = actions[a]!;
      const t = action.t;
      let d = tableDeltas.get(t.def.name);
      if (!d) {
        d = [];
        tableDeltas.set(t.def.name, d);
      }
      if (action.kind === 'rows') {
        const rows = action.rows;
        (actions as Array<Action | undefined>)[a] = undefined; // its row list is garbage once applied
        if (!t.byKey && !t.def.lateness.size) {
          const at = filled?.get(d);
          if (at === undefined) for (let r = 0; r < rows.length; r++) d.push([rows[r]!, action.w]);
          else {
            for (let r = 0; r < rows.length; r++) d[at + r] = [rows[r]!, action.w];
            filled!.set(d, at + rows.length);
          }
          continue;
        }
        for (let r = 0; r < rows.length; r++) this.applyRow(t, d, action.as, rows[r]!, action.w, undefined, maxSeen, touchedKeys);
        continue;
      }
      this.applyRow(t, d, action.kind, action.row, (action as { w?: number }).w ?? 1, (action as { set?: number[] }).set, maxSeen, touchedKeys);
    }
    let advanced = false;
    for (const t of maxSeen.keys()) this.savedWatermarks.set(t, new Map(t.watermarks));
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
    // primary-key tables whose keys were each touched once: their delta is already consolidated
    this.singleTouch.clear();
    for (const [name, keys] of touchedKeys) if (keys !== null) this.singleTouch.add(name);
    // the clock's row: the old value retracted, the new one inserted (bind/now.ts joins it to the queries that read NOW())
    const clockDelta: Delta | undefined =
      now === undefined
        ? undefined
        : this.now === undefined
          ? [[[now], 1]]
          : [
              [[this.now], -1],
              [[now], 1],
            ];
    const result = this.propagate(tableDeltas, false, clockDelta);
    if (advanced) {
      const wmOf = (table: string, col: number): number | undefined => this.tables.get(table)?.watermarks.get(col);
      for (const op of this.ops.values()) op.release?.(wmOf);
      this.forgetBehindWaterlines();
    }
    const changes = new StepChanges();
    for (const [o, d] of result) if (d.length) changes.add(o.name, () => this.formatDelta(o, d));
    return { changes };
  }

  /**
   * Bounded state: tables that may forget rows (plan/retention.ts) drop those behind their waterline, once
   * they hold twice what they kept the last time they looked (so the work per row stays constant).
   */
  private forgetBehindWaterlines(): void {
    const wmOf = (table: string, col: number): number | undefined => this.tables.get(table)?.watermarks.get(col);
    for (const [o, r] of this.retention) {
      if (o.integrated.size < r.nextAt) continue;
      o.integrated.retain((row) => !mayForget(r.rule, row, wmOf));
      r.nextAt = Math.max(FORGET_FROM_ROWS, 2 * o.integrated.size);
    }
  }

  /**
   * The deltas of keyless tables without LATENESS whose changes this step are all batch blocks, allocated
   * at their final size (a delta grown row by row copies itself as it grows: a big step's transient peak)
   * and put in `deltas`. Returns how many rows of each are filled (none yet; undefined when there is
   * none): the apply loop writes them in order.
   */
  private sizedDeltas(actions: Action[], deltas: Map<string, Delta>): Map<Delta, number> | undefined {
    let blocks = false;
    for (let a = 0; a < actions.length && !blocks; a++) blocks = actions[a]!.kind === 'rows';
    if (!blocks) return undefined; // row-form changes only: nothing more to look at
    let counts: Map<string, number> | undefined;
    for (const action of actions) {
      const t = action.t;
      if (t.byKey || t.def.lateness.size) continue;
      const name = t.def.name;
      if (action.kind !== 'rows') (counts ??= new Map()).set(name, -1);
      else if (counts?.get(name) !== -1) (counts ??= new Map()).set(name, (counts.get(name) ?? 0) + action.rows.length);
    }
    if (counts === undefined) return undefined;
    let filled: Map<Delta, number> | undefined;
    for (const [name, n] of counts) {
      if (n < 1024) continue;
      const d: Delta = new Array(n);
      deltas.set(name, d);
      (filled ??= new Map()).set(d, 0);
    }
    return filled;
  }

  /**
   * Fresh operators holding what the current ones held before the failed step: fed the integrated
   * contents of every table in one step (its output is dropped: the views' contents are unchanged), then
   * released to the current watermarks.
   */
  private rebuildOperators(): void {
    for (const n of this.nodes) if (n.kind !== 'table' && n.kind !== 'now') this.ops.set(n.id, n.make());
    const contents = new Map<string, Delta>();
    for (const o of this.outputs) {
      if (!o.isTable || o.node.kind !== 'table') continue;
      const d: Delta = [];
      if (o.byKey) for (const row of o.byKey.values()) d.push([row, 1]);
      else o.integrated.forEach((row, w) => d.push([row, w]));
      contents.set(o.node.table, d);
    }
    this.runOps(contents, true, this.now === undefined ? undefined : [[[this.now], 1]]);
    this.running = undefined;
    const wmOf = (table: string, col: number): number | undefined => this.tables.get(table)?.watermarks.get(col);
    for (const op of this.ops.values()) op.release?.(wmOf);
  }

  /** The error a failed step is refused with: an EngineStepError naming the view whose operator failed. */
  private stepError(err: unknown, node: PlanNode | undefined): unknown {
    if (err instanceof EngineInputError || err instanceof EngineStepError) return err;
    const view = node ? this.viewOf(node) : undefined;
    if (err instanceof IntOverflow) return new EngineStepError(`${err.message}, in view ${view ?? '(unknown)'}; the step was refused`, view ?? '', err.expression, err.type);
    return err; // a bug, not the input's fault: thrown as it is (the state is restored all the same)
  }

  /** The first declared view whose plan contains the node (the view that defines it). */
  private viewOf(node: PlanNode): string | undefined {
    for (const v of this.program.views) {
      const seen = new Set<number>();
      const stack: PlanNode[] = [v.node];
      while (stack.length) {
        const n = stack.pop()!;
        if (n.id === node.id) return v.name;
        if (seen.has(n.id)) continue;
        seen.add(n.id);
        stack.push(...n.inputs);
      }
    }
    return undefined;
  }

  /** A delta as JSON rows, deletes before inserts. */
  private formatDelta(o: Output, d: Delta): WeightedRow[] {
    let ordered = true; // sort only when needed
    for (let i = 1; i < d.length && ordered; i++) if (d[i - 1]![1] > 0 && d[i]![1] < 0) ordered = false;
    const sorted = ordered ? d : d.slice().sort((a, b) => a[1] - b[1]);
    return sorted.map(([row, w]) => ({ row: this.toJsonRow(o, row), weight: w }));
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
    else o.integrated.forEach((row, w) => out.push({ row: this.toJsonRow(o, row), weight: w }));
    return out;
  }

  forEachContent(name: string, visit: (row: JsonRow, weight: number) => void): void {
    const o = this.findOutput(name);
    if (!o) throw new Error(`unknown relation '${name}'`);
    if (o.byKey) for (const row of o.byKey.values()) visit(this.toJsonRow(o, row), 1);
    else o.integrated.forEachEntry((row, w) => visit(this.toJsonRow(o, row), w));
  }

  /* ---------- checkpoints (api.ts: exportState, restoreCircuit) ---------- */

  /** What a checkpoint must match: each output's name, kind and column types, in order. */
  private stateShape(): string[] {
    return this.outputs.map((o) => `${o.isTable ? 'table' : 'view'} ${o.name}(${o.columns.map((c) => JSON.stringify(c.type)).join(',')})`);
  }

  exportState(write: (part: CircuitStatePart) => void): void {
    write({ kind: 'circuit', version: STATE_VERSION, shape: this.stateShape(), now: this.now ?? null } as StatePart);
    for (const [name, t] of this.tables) if (t.watermarks.size) write({ kind: 'watermarks', table: name, marks: [...t.watermarks] } as StatePart);
    let total = 0;
    this.outputs.forEach((o, output) => {
      let rows: Row[] = [];
      let weights: number[] = [];
      let ones = true;
      const flush = (): void => {
        if (!rows.length) return;
        write({ kind: 'rows', output, rows, weights: ones ? null : weights } as StatePart);
        total += rows.length;
        rows = [];
        weights = [];
        ones = true;
      };
      const add = (row: Row, w: number): void => {
        rows.push(row);
        weights.push(w);
        if (w !== 1) ones = false;
        if (rows.length >= STATE_PART_ROWS) flush();
      };
      if (o.byKey) for (const row of o.byKey.values()) add(row, 1);
      else o.integrated.forEachEntry(add);
      flush();
      if (o.final?.held.size) write({ kind: 'held', output, entries: [...o.final.held.values()] } as StatePart);
    });
    write({ kind: 'end', rows: total } as StatePart);
  }

  /** Restores an exported state into this fresh circuit (index.ts restoreCircuit), then rebuilds the operators from the tables. */
  importState(parts: Iterable<CircuitStatePart>): void {
    const refuse = (why: string): never => {
      throw new EngineStateError(`the checkpoint does not fit this program: ${why}`);
    };
    let started = false;
    let ended = false;
    let total = 0;
    for (const raw of parts) {
      const part = raw as StatePart;
      if (ended) refuse('parts after its end');
      if (!started) {
        if (part?.kind !== 'circuit') refuse('it does not begin with the circuit part');
        const p = part as Extract<StatePart, { kind: 'circuit' }>;
        if (p.version !== STATE_VERSION) refuse(`state version ${String(p.version)}, this engine reads ${STATE_VERSION}`);
        const mine = this.stateShape();
        if (!Array.isArray(p.shape) || p.shape.length !== mine.length || p.shape.some((s, i) => s !== mine[i])) {
          const i = Array.isArray(p.shape) ? mine.findIndex((s, j) => p.shape[j] !== s) : 0;
          refuse(
            `its relations differ (${i >= 0 ? `this program has ${mine[i]}, the checkpoint ${Array.isArray(p.shape) ? (p.shape[i] ?? 'nothing') : 'no list'}` : 'a different number of relations'})`,
          );
        }
        // the contents made at creation (constants, a global aggregate's row over nothing) are replaced
        for (const o of this.outputs) {
          o.integrated = new RelationContents();
          o.byKey?.clear();
        }
        if (p.now !== null) this.now = p.now;
        started = true;
        continue;
      }
      switch (part.kind) {
        case 'watermarks': {
          const t = this.tables.get(part.table) ?? refuse(`no table ${part.table}`);
          t.watermarks = new Map(part.marks);
          break;
        }
        case 'rows': {
          const o = this.outputs[part.output] ?? refuse(`no relation #${part.output}`);
          const { rows, weights } = part;
          if (!Array.isArray(rows) || (weights !== null && weights.length !== rows.length)) refuse('a damaged part of rows');
          if (o.byKey) {
            const t = this.tables.get(o.name)!;
            for (const row of rows) o.byKey.set(this.pkKey(t, row), row);
          } else o.integrated.append(rows.map((row, i): [Row, number] => [row, weights === null ? 1 : weights[i]!]));
          total += rows.length;
          break;
        }
        case 'held': {
          const f = this.outputs[part.output]?.final ?? refuse(`no emit_final view #${part.output}`);
          for (const e of part.entries) f.held.set(rowKey(e[0]), e);
          break;
        }
        case 'end':
          if (part.rows !== total) refuse(`it ends after ${total} rows where it wrote ${String(part.rows)}`);
          ended = true;
          break;
        default:
          refuse(`an unknown part '${String((part as { kind?: unknown }).kind)}'`);
      }
    }
    if (!ended) refuse(started ? 'it ends early' : 'it is empty');
    try {
      this.rebuildOperators();
    } catch (err) {
      throw this.stepError(err, this.running);
    }
  }

  stateSize(): number {
    let n = 0;
    for (const op of this.ops.values()) n += op.stateSize();
    for (const o of this.outputs) n += o.byKey ? o.byKey.size : o.integrated.size;
    return n;
  }
}

export type { TableDef, ViewDef };
