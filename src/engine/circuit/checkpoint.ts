/**
 * A circuit's state for checkpoints (api.ts Circuit.exportState, index.ts restoreCircuit): the clock's value,
 * each table's watermarks, each output's integrated contents (in parts of at most STATE_PART_ROWS rows) and
 * each emit_final view's held rows, then an end part counting the rows. Operators' state is not written: the
 * circuit rebuilds it from the tables' contents after a restore. Contract: `importState` fills a fresh circuit's
 * outputs and tables, or throws EngineStateError (another program's state, another version, damaged parts)
 * and returns the clock value to restore (undefined: none).
 */
import { EngineStateError, type CircuitStatePart } from '../api.js';
import { RelationContents } from '../contents.js';
import type { TableState } from '../inputs.js';
import { rowKey, type Row } from '../types/values.js';
import type { Output } from './outputs.js';
import { pkKey } from './table-input.js';

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

/** What a checkpoint holds of a circuit. */
export interface CheckpointedState {
  outputs: Output[];
  tables: Map<string, TableState>;
  now: number | undefined;
}

/** What a checkpoint must match: each output's name, kind and column types, in order. */
function stateShape(outputs: Output[]): string[] {
  return outputs.map((o) => `${o.isTable ? 'table' : 'view'} ${o.name}(${o.columns.map((c) => JSON.stringify(c.type)).join(',')})`);
}

export function exportState(s: CheckpointedState, write: (part: CircuitStatePart) => void): void {
  write({ kind: 'circuit', version: STATE_VERSION, shape: stateShape(s.outputs), now: s.now ?? null } as StatePart);
  for (const [name, t] of s.tables) if (t.watermarks.size) write({ kind: 'watermarks', table: name, marks: [...t.watermarks] } as StatePart);
  let total = 0;
  s.outputs.forEach((o, output) => {
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

/** Restores an exported state into a fresh circuit's outputs and tables; returns the clock's value (undefined: none). */
export function importState(s: Omit<CheckpointedState, 'now'>, parts: Iterable<CircuitStatePart>): number | undefined {
  const refuse = (why: string): never => {
    throw new EngineStateError(`the checkpoint does not fit this program: ${why}`);
  };
  let started = false;
  let ended = false;
  let total = 0;
  let now: number | undefined;
  for (const raw of parts) {
    const part = raw as StatePart;
    if (ended) refuse('parts after its end');
    if (!started) {
      if (part?.kind !== 'circuit') refuse('it does not begin with the circuit part');
      const p = part as Extract<StatePart, { kind: 'circuit' }>;
      if (p.version !== STATE_VERSION) refuse(`state version ${String(p.version)}, this engine reads ${STATE_VERSION}`);
      const mine = stateShape(s.outputs);
      if (!Array.isArray(p.shape) || p.shape.length !== mine.length || p.shape.some((x, i) => x !== mine[i])) {
        const i = Array.isArray(p.shape) ? mine.findIndex((x, j) => p.shape[j] !== x) : 0;
        refuse(
          `its relations differ (${i >= 0 ? `this program has ${mine[i]}, the checkpoint ${Array.isArray(p.shape) ? (p.shape[i] ?? 'nothing') : 'no list'}` : 'a different number of relations'})`,
        );
      }
      // the contents made at creation (constants, a global aggregate's row over nothing) are replaced
      for (const o of s.outputs) {
        o.integrated = new RelationContents();
        o.byKey?.clear();
      }
      if (p.now !== null) now = p.now;
      started = true;
      continue;
    }
    switch (part.kind) {
      case 'watermarks': {
        const t = s.tables.get(part.table) ?? refuse(`no table ${part.table}`);
        t.watermarks = new Map(part.marks);
        break;
      }
      case 'rows': {
        const o = s.outputs[part.output] ?? refuse(`no relation #${part.output}`);
        const { rows, weights } = part;
        if (!Array.isArray(rows) || (weights !== null && weights.length !== rows.length)) refuse('a damaged part of rows');
        if (o.byKey) {
          const t = s.tables.get(o.name)!;
          for (const row of rows) o.byKey.set(pkKey(t, row), row);
        } else o.integrated.append(rows.map((row, i): [Row, number] => [row, weights === null ? 1 : weights[i]!]));
        total += rows.length;
        break;
      }
      case 'held': {
        const f = s.outputs[part.output]?.final ?? refuse(`no emit_final view #${part.output}`);
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
  return now;
}
