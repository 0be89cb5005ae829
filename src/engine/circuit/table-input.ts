/**
 * How an input row changes its table (the second phase of a step, after every input was converted and
 * checked: nothing here can fail). Contract:
 * - LATENESS: a row below its table's watermark on a LATENESS column is dropped; the largest value seen per
 *   column is gathered in `maxSeen`, and `advanceWatermarks` moves each watermark to it minus the lateness
 *   (never back);
 * - a primary-key table's key map is its contents: an upsert replaces the row of its key (no change for the same
 *   row), a delete by key removes it, an update sets some columns of it; each writes the change as a retraction
 *   and an insertion into the table's delta, after recording the old row in the step's undo log;
 * - a keyless table takes the row with its weight.
 * `touchedKeys` tells the circuit which primary-key tables' deltas need no consolidation (each key touched once).
 */
import type { Delta } from '../ops/zset.js';
import type { TableState } from '../inputs.js';
import { compareValues, rowKey, sameRow, type Row } from '../types/values.js';
import type { StepUndoLog } from './undo-log.js';

export type RowChange = 'weighted' | 'upsert' | 'deleteKey' | 'update';

/** The key of a row in its primary-key table's map: the value of a one-number key itself, else a row key. */
export function pkKey(t: TableState, row: Row): string | number {
  const pk = t.def.pk;
  if (pk.length === 1) {
    const v = row[pk[0]!]!;
    return typeof v === 'number' ? v : rowKey([v]);
  }
  return rowKey(pk.map((i) => row[i]!));
}

/** LATENESS: rows older than the table's watermark are dropped. */
function late(t: TableState, row: Row): boolean {
  for (const [i] of t.def.lateness) {
    const wm = t.watermarks.get(i);
    const v = row[i];
    if (wm !== undefined && v !== null && v !== undefined && compareValues(v, wm) < 0) return true;
  }
  return false;
}

/** Applies one converted input row to its table, writing the table's changes into `d`. */
export function applyRow(
  t: TableState,
  d: Delta,
  kind: RowChange,
  row: Row,
  w: number,
  set: number[] | undefined,
  maxSeen: Map<TableState, Map<number, number>>,
  touchedKeys: Map<string, Set<string | number> | null>,
  undo: StepUndoLog,
): void {
  if (t.def.lateness.size) {
    if (late(t, row)) return;
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
  const k = pkKey(t, row);
  // the keys this step touched (null once one was touched twice: the table's delta then needs consolidating)
  let keys = touchedKeys.get(t.def.name);
  if (keys === undefined) touchedKeys.set(t.def.name, (keys = new Set()));
  if (keys !== null) {
    if (keys.has(k)) touchedKeys.set(t.def.name, null);
    else keys.add(k);
  }
  const old = t.byKey.get(k);
  undo.keyed(t.byKey, k, old);
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

/** Moves each table's LATENESS watermarks up to the largest values the step brought (saved in `undo` first); true when one moved. */
export function advanceWatermarks(maxSeen: Map<TableState, Map<number, number>>, undo: StepUndoLog): boolean {
  let advanced = false;
  for (const t of maxSeen.keys()) undo.saveWatermarks(t);
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
  return advanced;
}
