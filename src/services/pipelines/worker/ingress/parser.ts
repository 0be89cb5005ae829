/**
 * The incremental ingress parser contract and what both formats share: a parser takes the body in
 * chunks (push) as it streams in and, at end(), gives the engine changes of the whole request or the
 * list of bad events (the caller applies nothing when any is bad: one request, one transaction).
 * Memory grows with the chunk and the changes kept, never with the body text. Pure: no I/O, no engine state.
 * Full rows of weight 1 (inserts, upserts, deletes on a table without a key) are kept in the engine's
 * compact RowBatch form, one batch for each run of them with the same table and operation; the other
 * changes as they are, in order. Change indexes count a batch's rows one each (as the engine's step does).
 */
import { RowBatch, type InputChange, type JsonRow, type JsonValue } from '../../../../engine/index.js';
import type { RowOp, TableBinding } from './binding.js';
import { IntList } from './int-list.js';
import { MAX_REPORTED_ERRORS, type ParseErrorEntry } from './parse-error.js';

export interface ParsedInput {
  /** The changes as the engine's step takes them (runs of full rows as compact batches). */
  input: InputChange[];
  /** Number of changes (a batch's rows counted one each). */
  count: number;
  /** The changes in row form, one object per change (built when first read: for tests and small inputs). */
  readonly changes: InputChange[];
  /** Number of input records (events) read. */
  records: number;
  /** The index of the event a change came from (to map engine errors back). */
  eventOf(change: number): number;
  /** 1-based line of each event. */
  lineOf(event: number): number;
  /** Text of an event (for an engine error: the row as the engine got it), for error messages. */
  textOf(event: number): string | null;
  /** Bad events (the first MAX_REPORTED_ERRORS of them); errorCount counts all. */
  errors: ParseErrorEntry[];
  errorCount: number;
}

export interface IngressParser {
  /**
   * The next bytes of the body (UTF-8; a character may be split between chunks). They are the caller's again
   * once push returns (it reuses its buffers): a parser that needs them later copies them.
   */
  push(chunk: Uint8Array): void;
  /** The next text of the body (for callers that already hold a string). */
  pushText(text: string): void;
  /** The end of the body: the changes, or the bad events. */
  end(): ParsedInput;
}

type BatchChange = Extract<InputChange, { op: 'batch' }>;

/**
 * Gives the storage of the batches among `input` back to the engine's pool (RowBatch.release): for the owner
 * of a step's input once the step has read it and nothing will read it again.
 */
export function releaseBatches(input: readonly InputChange[]): void {
  for (const c of input) if (c.op === 'batch') c.rows.release();
}

/** Changes, their events and lines, and bad events, as a parser produces them. */
export class ParsedSink {
  private readonly changes: InputChange[] = [];
  /** Number of changes, a batch's rows counted one each. */
  private count = 0;
  /** The batch that the next full row of the same table and operation joins. */
  private open: BatchChange | null = null;
  private readonly changeEvent = new IntList();
  private readonly eventLine = new IntList();
  readonly errors: ParseErrorEntry[] = [];
  errorCount = 0;

  constructor(private readonly makeRow: (vals: JsonValue[]) => JsonRow) {}

  /** Number of events so far (the next event's index). */
  get events(): number {
    return this.eventLine.length;
  }

  /** Starts an event; returns its index. */
  event(line: number): number {
    this.eventLine.push(line);
    return this.eventLine.length - 1;
  }

  change(c: InputChange, ev: number): void {
    this.open = null;
    this.changes.push(c);
    this.count++;
    this.changeEvent.push(ev);
  }

  /** The batch that takes the next full row of `table` for `rowOp` (a batch row is written, then batchRow() is called). */
  batch(table: string, rowOp: BatchChange['rowOp'], width: number): RowBatch {
    const open = this.open;
    if (open !== null && open.table === table && open.rowOp === rowOp) return open.rows;
    const c: BatchChange = { table, op: 'batch', rowOp, rows: new RowBatch(width) };
    this.changes.push(c);
    this.open = c;
    return c.rows;
  }

  /** The row just completed in the open batch came from event `ev`. */
  batchRow(ev: number): void {
    this.count++;
    this.changeEvent.push(ev);
  }

  /**
   * One operation of event `ev` on a row (a JSON value) of `binding`'s table: a full row of weight 1 goes
   * to a batch, anything else is a change of its own. Throws RowError (nothing kept) when the row is bad.
   */
  emit(binding: TableBinding, op: RowOp, value: unknown, weight: number, ev: number): void {
    if (weight === 1 && (op === 'insert' || (op === 'delete' && !binding.hasKey))) {
      const batch = this.batch(binding.engineTable, op === 'insert' && binding.hasKey ? 'upsert' : op, binding.names.length);
      binding.rowInto(value, batch);
      this.batchRow(ev);
    } else this.change(binding.change(op, binding.row(value, op), weight), ev);
  }

  /** Drops the changes the event `ev` produced so far (it turned out bad). */
  dropEvent(ev: number): void {
    while (this.changeEvent.length > 0 && this.changeEvent.last() === ev) this.popChange();
  }

  /** A point that rollback() returns to. */
  mark(): { events: number; count: number } {
    return { events: this.eventLine.length, count: this.count };
  }

  /** Forgets the events and changes since `mark` (a caller that read ahead hands the text to another path). */
  rollback(mark: { events: number; count: number }): void {
    while (this.count > mark.count) this.popChange();
    while (this.eventLine.length > mark.events) this.eventLine.pop();
  }

  private popChange(): void {
    this.changeEvent.pop();
    this.count--;
    let last = this.changes[this.changes.length - 1]!;
    while (last.op === 'batch' && last.rows.length === 0) {
      // a batch whose only row was refused before it was counted
      this.changes.pop();
      if (this.open === last) this.open = null;
      last = this.changes[this.changes.length - 1]!;
    }
    if (last.op === 'batch') {
      last.rows.popRow();
      if (last.rows.length > 0) return;
    }
    this.changes.pop();
    if (this.open === last) this.open = null;
  }

  error(e: ParseErrorEntry): void {
    this.errorCount++;
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push(e);
  }

  result(rowText: (change: InputChange) => string): ParsedInput {
    const { changes, changeEvent, eventLine, count, makeRow } = this;
    this.open = null;
    this.errors.sort((a, b) => a.event_number - b.event_number);
    let rowForm: InputChange[] | null = null;
    /** Change `i` (a batch's rows counted one each) in row form. */
    const changeAt = (i: number): InputChange | undefined => {
      for (const c of changes) {
        const n = c.op === 'batch' ? c.rows.length : 1;
        if (i < n) return c.op === 'batch' ? { table: c.table, op: c.rowOp, row: makeRow(c.rows.row(i)) } : c;
        i -= n;
      }
      return undefined;
    };
    return {
      input: changes,
      count,
      get changes(): InputChange[] {
        if (rowForm === null) {
          rowForm = [];
          for (const c of changes) {
            if (c.op !== 'batch') rowForm.push(c);
            else for (let r = 0; r < c.rows.length; r++) rowForm.push({ table: c.table, op: c.rowOp, row: makeRow(c.rows.row(r)) });
          }
        }
        return rowForm;
      },
      records: eventLine.length,
      eventOf: (c) => changeEvent.get(c) ?? 0,
      lineOf: (ev) => eventLine.get(ev) ?? 1,
      textOf: (ev) => {
        for (let c = 0; c < count; c++) if (changeEvent.get(c) === ev) return rowText(changeAt(c)!);
        return null;
      },
      errors: this.errors,
      errorCount: this.errorCount,
    };
  }
}
