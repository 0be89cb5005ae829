/**
 * The incremental ingress parser contract and what both formats share: a parser takes the body in
 * chunks (push) as it streams in and, at end(), gives the engine changes of the whole request or the
 * list of bad events (the caller applies nothing when any is bad: one request, one transaction).
 * Memory grows with the chunk and the changes kept, never with the body text. Pure: no I/O, no engine.
 */
import type { InputChange } from '../../../engine/index.js';
import { IntList } from './int-list.js';
import { MAX_REPORTED_ERRORS, type ParseErrorEntry } from './parse-error.js';

export interface ParsedInput {
  changes: InputChange[];
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
  /** The next bytes of the body (UTF-8; a character may be split between chunks). */
  push(chunk: Uint8Array): void;
  /** The next text of the body (for callers that already hold a string). */
  pushText(text: string): void;
  /** The end of the body: the changes, or the bad events. */
  end(): ParsedInput;
}

/** Changes, their events and lines, and bad events, as a parser produces them. */
export class ParsedSink {
  readonly changes: InputChange[] = [];
  private readonly changeEvent = new IntList();
  private readonly eventLine = new IntList();
  readonly errors: ParseErrorEntry[] = [];
  errorCount = 0;

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
    this.changes.push(c);
    this.changeEvent.push(ev);
  }

  /** Drops the changes the event `ev` produced so far (it turned out bad). */
  dropEvent(ev: number): void {
    while (this.changeEvent.length > 0 && this.changeEvent.last() === ev) {
      this.changeEvent.pop();
      this.changes.pop();
    }
  }

  error(e: ParseErrorEntry): void {
    this.errorCount++;
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push(e);
  }

  result(rowText: (change: InputChange) => string): ParsedInput {
    const { changes, changeEvent, eventLine } = this;
    this.errors.sort((a, b) => a.event_number - b.event_number);
    return {
      changes,
      records: eventLine.length,
      eventOf: (c) => changeEvent.get(c) ?? 0,
      lineOf: (ev) => eventLine.get(ev) ?? 1,
      textOf: (ev) => {
        for (let c = 0; c < changes.length; c++) if (changeEvent.get(c) === ev) return rowText(changes[c]!);
        return null;
      },
      errors: this.errors,
      errorCount: this.errorCount,
    };
  }
}
