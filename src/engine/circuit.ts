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
import { EngineInputError, EngineStepError, type Circuit, type CircuitStatePart, type InputChange, type JsonRow, type StepResult, type WeightedRow } from './api.js';
import type { BoundProgram, TableDef, ViewDef } from './bind/program.js';
import type { PlanNode, PlanColumn } from './plan/nodes.js';
import { consolidate, type Delta, type Operator } from './ops/zset.js';
import { consolidateStep } from './contents.js';
import { StepChanges } from './step-changes.js';
import type { Row } from './types/values.js';
import { jsonConverter, jsonKept, jsonTextReader } from './codec-json.js';
import { convertBatch, convertChange, foldKey, type Action, type TableState } from './inputs.js';
import { resolveName } from './names.js';
import { IntOverflow } from './types/int64.js';
import { guarded, rowsProduced, StepStopped } from './step-guard.js';
import { mayForget, retentionRules, type RetentionRule } from './plan/retention.js';
import { StepUndoLog } from './circuit/undo-log.js';
import { applyRow, advanceWatermarks } from './circuit/table-input.js';
import { heldRows, takeFinal } from './circuit/emit-final.js';
import { formatDelta, newOutput, toJsonRow, type Output } from './circuit/outputs.js';
import { exportState, importState } from './circuit/checkpoint.js';

/** A table that forgets rows (plan/retention.ts) looks for rows to forget once it holds this many, then again at twice what it kept. */
const FORGET_FROM_ROWS = 4096;

export class EngineCircuit implements Circuit {
  private readonly nodes: PlanNode[];
  private readonly ops = new Map<number, Operator>();
  private readonly tables = new Map<string, TableState>();
  private readonly outputs: Output[] = [];
  private readonly nameCache = new Map<string, Output | undefined>();
  private readonly tableCache = new Map<string, TableState | undefined>();
  private readonly singleTouch = new Set<string>();
  /** The step's undo log: the keyed table rows it replaced and the watermarks it moved (circuit/undo-log.ts). */
  private readonly undo = new StepUndoLog();
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
      const fromText = t.columns.map((c) => jsonTextReader(c.type));
      this.tables.set(t.name, { def: t, byKey, exact, folded, altNames, convert, kept, fromText, watermarks: new Map() });
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
      if (v.emitFinal) this.outputs[this.outputs.length - 1]!.final = heldRows(v.emitFinal);
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
    this.outputs.push(newOutput(name, node, columns, quoted, this.casing, isTable));
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
      if (o.final) d = takeFinal(o.final, d, this.tables.get(o.final.table)?.watermarks.get(o.final.wmCol));
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
    try {
      for (const ch of inputs) {
        if (ch !== null && typeof ch === 'object' && ch.op === 'batch') index = convertBatch(ch, index, find, actions);
        else actions.push(convertChange(ch, index++, find));
        rowsProduced(1); // converted rows are memory too: the step's guard, if any, may stop a step grown too big
      }
    } catch (err) {
      // stopped while its input was converted (nothing applied yet): the guard's own error, as below
      if (err instanceof StepStopped) {
        this.stopped = err.cause;
        throw err.cause;
      }
      throw err;
    }
    // apply; a view that fails below undoes it all (the undo log)
    const now = this.readClock();
    try {
      const result = this.apply(actions, now);
      if (now !== undefined) this.now = now;
      this.undo.commit();
      return result;
    } catch (err) {
      if (err instanceof StepStopped) {
        // not rebuilt (that would run the same work again): the circuit is done with
        this.stopped = err.cause;
        this.running = undefined;
        throw err.cause;
      }
      this.undo.rollback();
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
        for (let r = 0; r < rows.length; r++) applyRow(t, d, action.as, rows[r]!, action.w, undefined, maxSeen, touchedKeys, this.undo);
        continue;
      }
      applyRow(t, d, action.kind, action.row, (action as { w?: number }).w ?? 1, (action as { set?: number[] }).set, maxSeen, touchedKeys, this.undo);
    }
    const advanced = advanceWatermarks(maxSeen, this.undo);
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
    for (const [o, d] of result) if (d.length) changes.add(o.name, () => formatDelta(o, d));
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

  contents(name: string): WeightedRow[] {
    const o = this.findOutput(name);
    if (!o) throw new Error(`unknown relation '${name}'`);
    const out: WeightedRow[] = [];
    if (o.byKey) for (const row of o.byKey.values()) out.push({ row: toJsonRow(o, row), weight: 1 });
    else o.integrated.forEach((row, w) => out.push({ row: toJsonRow(o, row), weight: w }));
    return out;
  }

  forEachContent(name: string, visit: (row: JsonRow, weight: number) => void): void {
    const o = this.findOutput(name);
    if (!o) throw new Error(`unknown relation '${name}'`);
    if (o.byKey) for (const row of o.byKey.values()) visit(toJsonRow(o, row), 1);
    else o.integrated.forEachEntry((row, w) => visit(toJsonRow(o, row), w));
  }

  /* ---------- checkpoints (api.ts: exportState, restoreCircuit) ---------- */

  exportState(write: (part: CircuitStatePart) => void): void {
    exportState({ outputs: this.outputs, tables: this.tables, now: this.now }, write);
  }

  /** Restores an exported state into this fresh circuit (index.ts restoreCircuit), then rebuilds the operators from the tables. */
  importState(parts: Iterable<CircuitStatePart>): void {
    const now = importState({ outputs: this.outputs, tables: this.tables }, parts);
    if (now !== undefined) this.now = now;
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
