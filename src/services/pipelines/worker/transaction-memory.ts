/**
 * How much input an open transaction may hold in its pipeline's worker. The held input is compact (a
 * RowBatch: about 9 bytes an INTEGER cell, outside the JS heap), but the commit applies all of it as one
 * engine step, and that step needs far more heap than the held form: a row per held row, the tables' new
 * contents (a keyed table's key map), the views' changes and contents, all alive at once. Measured on the
 * test machine: the least memory_mb_max at which the commit of N held CSV rows succeeds, beyond the
 * worker's live heap before it, is about 136 bytes a row for a table of one INTEGER, 200 for one
 * 40-character VARCHAR, 250 for ten columns; 215-230 for an INTEGER primary key alone (new keys or keys
 * already there), 285 for a 4-column keyed table, 315 for a 10-column keyed one; a view adds 10 (a grouped
 * one) to 150 (one that keeps a row per row): 275 for one INTEGER and a view of it, 290, 435 and 580 for
 * the 4-column keyed table with a grouped view, a projecting one, and three views.
 *
 * Rules: a held row is counted at `ROW_BYTES + COLUMN_BYTES x its table's columns` (with a primary key:
 * KEYED_ROW_BYTES + KEYED_COLUMN_BYTES x columns), plus VIEW_ROW_BYTES for each view of the program, plus
 * HELD_BYTES_FACTOR x the bytes it is held in (the held bytes themselves, and the JS strings made of its
 * text): above every measured cost (1.2 to 2.6 times). A request may be held while the worker's live heap
 * plus the estimate of everything held, the request included, stays within TXN_HEAP_SHARE of the
 * pipeline's memory limit (runtime_config.resources.memory_mb_max). The live heap is read as it is first,
 * and only when that says no, again after a full garbage collection (garbage of earlier requests must not
 * refuse one). Over it: 413 TransactionTooLarge naming the limit, and the caller holds nothing of the
 * request. No engine state is touched here.
 */
import { getHeapStatistics } from 'node:v8';
import type { CompiledProgram, InputChange } from '../../../engine/index.js';
import { FelderaError } from '../shared/errors.js';
import { liveHeapBytes } from './live-heap.js';
import { engineName } from '../shared/names.js';

/** The share of the worker's memory limit that its live heap plus a commit's estimated need may reach. */
export const TXN_HEAP_SHARE = 0.8;
/** A held row's commit cost in a table without a primary key: a fixed part and a part per column (bytes). */
export const ROW_BYTES = 128;
export const COLUMN_BYTES = 24;
/** The same in a table with a primary key (its key map keeps every row, an upsert replaces rows). */
export const KEYED_ROW_BYTES = 224;
export const KEYED_COLUMN_BYTES = 32;
/** Each view of the program adds this much per held row (its contents and its changes). */
export const VIEW_ROW_BYTES = 160;
/** Bytes of heap the commit needs per byte of held compact input (text becomes JS strings). */
export const HELD_BYTES_FACTOR = 2;
/** A change held in row form (not a batch: updates, weighted rows) also costs its JS objects. */
const ROW_FORM_BYTES = 128;

const MIB = 1024 * 1024;

/** The commit cost estimate of input changes, for one program's tables. */
export class CommitCostModel {
  /** Engine table name -> bytes a held row of it costs the commit. */
  private readonly rowCost = new Map<string, number>();
  /** For a table not found by name (none: the runtime checked the input): the dearest row. */
  private readonly defaultRowCost: number;

  constructor(program: CompiledProgram) {
    const views = VIEW_ROW_BYTES * program.views.length;
    let dearest = KEYED_ROW_BYTES + views;
    for (const t of program.tables) {
      const w = t.columns.length;
      const row = (t.primaryKey.length > 0 ? KEYED_ROW_BYTES + KEYED_COLUMN_BYTES * w : ROW_BYTES + COLUMN_BYTES * w) + views;
      this.rowCost.set(engineName(t), row);
      dearest = Math.max(dearest, row);
    }
    this.defaultRowCost = dearest;
  }

  /** Estimated bytes of heap the commit needs for `input` beyond what the worker holds now. */
  cost(input: InputChange[]): number {
    let bytes = 0;
    for (const c of input) {
      const row = this.rowCost.get(c.table) ?? this.defaultRowCost;
      if (c.op === 'batch') bytes += c.rows.length * row + HELD_BYTES_FACTOR * c.rows.byteLength;
      else bytes += row + ROW_FORM_BYTES;
    }
    return bytes;
  }
}

/**
 * Throws 413 TransactionTooLarge when the transaction cannot hold a request whose input costs `request`
 * (CommitCostModel.cost) on top of `held` (what it holds already, estimated the same way).
 * `memoryMb`: the pipeline's memory_mb_max (null: the worker's heap limit as V8 reports it). `records`: what the transaction holds (records).
 */
export function admitToTransaction(held: number, request: number, info: { transactionId: number; records: number; memoryMb: number | null }): void {
  const stats = getHeapStatistics();
  // the old generation's limit (what resourceLimits caps; heap_size_limit adds the young generation's room)
  const max = (info.memoryMb !== null ? info.memoryMb * MIB : stats.heap_size_limit) * TXN_HEAP_SHARE;
  const need = held + request;
  if (stats.used_heap_size + need <= max) return;
  if (liveHeapBytes() + need <= max) return;
  const limit = info.memoryMb ?? Math.round(stats.heap_size_limit / MIB);
  throw new FelderaError(
    413,
    'TransactionTooLarge',
    `The transaction cannot take this request: committing it with what it holds (${info.records} records) would need more memory than the pipeline can spare, about ${Math.ceil(need / MIB)} MiB on top of its state, within ${Math.round(TXN_HEAP_SHARE * 100)}% of its memory limit of ${limit} MiB (runtime_config.resources.memory_mb_max). Nothing of this request was held; the transaction stays open with what it held before. Commit it and send the rest in another transaction, or raise the limit`,
    { transaction_id: info.transactionId, transaction_records: info.records, estimated_commit_bytes: need, memory_mb_max: limit },
  );
}
