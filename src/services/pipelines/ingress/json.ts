/**
 * JSON ingress: the update formats of the reference (insert_delete, raw, weighted, debezium), with or
 * without `array=true`, turned into engine changes for one table. Pure: no I/O, no engine state.
 * Every bad event is reported (event number, line, field); the caller applies nothing when any is bad.
 */
import type { InputChange } from '../../../engine/index.js';
import { RowError, type RowOp, type TableBinding } from './binding.js';
import { lineAt, splitJson, SplitError, type Segment } from './json-split.js';
import type { ParseErrorEntry } from './parse-error.js';

export type UpdateFormat = 'insert_delete' | 'raw' | 'weighted' | 'debezium';
export const UPDATE_FORMATS: readonly string[] = ['insert_delete', 'raw', 'weighted', 'debezium'];

export interface JsonInputOptions {
  updateFormat: UpdateFormat;
  array: boolean;
}

export interface ParsedInput {
  changes: InputChange[];
  /** Number of input records (events) read. */
  records: number;
  /** For each change, the index of the event it came from (to map engine errors back). */
  eventOf: number[];
  /** 1-based line of each event, computed lazily (only needed for errors). */
  lineOf(event: number): number;
  /** Text of an event, for error messages. */
  textOf(event: number): string | null;
  errors: ParseErrorEntry[];
}

interface Event {
  value: unknown;
  line?: number;
  text?: string;
}

/** Events as parallel arrays (values, and lines/texts when known) to keep the fast path allocation-free. */
class Events {
  values: unknown[] = [];
  lines: (number | undefined)[] = [];
  texts: (string | undefined)[] = [];
  get length(): number {
    return this.values.length;
  }
  set length(n: number) {
    this.values.length = n;
    this.lines.length = n;
    this.texts.length = n;
  }
  push(e: Event): void {
    const i = this.values.length;
    this.values.push(e.value);
    if (e.line !== undefined) this.lines[i] = e.line;
    if (e.text !== undefined) this.texts[i] = e.text;
  }
}

export function parseJsonInput(body: string, binding: TableBinding, opts: JsonInputOptions): ParsedInput {
  const errors: ParseErrorEntry[] = [];
  const events = new Events();
  let lazyLines: (() => number[]) | null = null;

  const syntaxError = (message: string, line: number, text: string | null) => {
    errors.push({
      description: `failed to parse JSON: ${message}`,
      event_number: events.length + 1,
      line,
      field: null,
      invalid_bytes: null,
      invalid_text: text,
      suggestion: null,
    });
  };

  if (opts.array) {
    // Fast path: the whole body is one JSON array.
    let parsed: unknown;
    let ok = false;
    try {
      parsed = JSON.parse(body);
      ok = Array.isArray(parsed);
    } catch {
      ok = false;
    }
    if (ok) {
      events.values = parsed as unknown[];
      lazyLines = () => safeLines(body);
    } else {
      // Several arrays back to back, or a syntax error somewhere: locate values one by one.
      let segs: Segment[];
      try {
        segs = splitJson(body, 0);
      } catch (err) {
        const e = err as SplitError;
        syntaxError(e.message, e.line, null);
        segs = [];
      }
      for (const s of segs) {
        const text = body.slice(s.start, s.end);
        let v: unknown;
        try {
          v = JSON.parse(text);
        } catch (err) {
          syntaxError((err as Error).message, errorLine(err, text, s.line), text);
          continue;
        }
        if (!Array.isArray(v)) {
          syntaxError('expected an array of updates (array=true)', s.line, text);
          continue;
        }
        const elems = splitJson(text, 1);
        v.forEach((x, i) => events.push({ value: x, line: s.line + (elems[i] ? elems[i]!.line - 1 : 0) }));
      }
    }
  } else {
    // Fast path: one JSON value per line.
    let lineNo = 0;
    let start = 0;
    let fallback = false;
    while (start <= body.length) {
      let end = body.indexOf('\n', start);
      if (end < 0) end = body.length;
      lineNo++;
      const text = body.slice(start, end).trim();
      start = end + 1;
      if (text === '') continue;
      try {
        events.push({ value: JSON.parse(text), line: lineNo });
      } catch {
        fallback = true;
        break;
      }
    }
    if (fallback) {
      events.length = 0;
      let segs: Segment[];
      try {
        segs = splitJson(body, 0);
      } catch (err) {
        const e = err as SplitError;
        syntaxError(e.message, e.line, null);
        segs = [];
      }
      for (const s of segs) {
        const text = body.slice(s.start, s.end);
        try {
          events.push({ value: JSON.parse(text), line: s.line, text });
        } catch (err) {
          syntaxError((err as Error).message, errorLine(err, text, s.line), text);
          events.push({ value: undefined, line: s.line, text });
        }
      }
    }
  }

  let lines: number[] | null = null;
  const lineOf = (ev: number): number => {
    const known = events.lines[ev];
    if (known !== undefined) return known;
    if (!lines) lines = lazyLines ? lazyLines() : [];
    return lines[ev] ?? 1;
  };

  const changes: InputChange[] = [];
  const eventOf: number[] = [];
  const emit = (op: RowOp, row: unknown, ev: number, weight = 1) => {
    changes.push(binding.change(op, binding.row(row, op), weight));
    eventOf.push(ev);
  };
  const values = events.values;
  const n = values.length;
  if (opts.updateFormat === 'raw') {
    // Fast path for plain rows; falls through to the general loop on the first bad one.
    let ev = 0;
    try {
      for (; ev < n; ev++) {
        const value = values[ev];
        if (value === undefined) break;
        changes.push(binding.change('insert', binding.row(value, 'insert')));
        eventOf.push(ev);
      }
    } catch (err) {
      if (!(err instanceof RowError)) throw err;
    }
    if (ev === n) return result();
    changes.length = 0;
    eventOf.length = 0;
  }
  for (let ev = 0; ev < n; ev++) {
    const value = values[ev];
    if (value === undefined) continue; // syntax error already reported
    try {
      switch (opts.updateFormat) {
        case 'raw':
          emit('insert', value, ev);
          break;
        case 'insert_delete':
          insertDelete(value, binding, (op, row) => emit(op, row, ev));
          break;
        case 'weighted':
          weighted(value, (op, row, w) => emit(op, row, ev, w));
          break;
        case 'debezium':
          debezium(value, (op, row) => emit(op, row, ev));
          break;
      }
    } catch (err) {
      if (!(err instanceof RowError)) throw err;
      // drop the changes this event produced so far
      while (eventOf.length > 0 && eventOf[eventOf.length - 1] === ev) {
        eventOf.pop();
        changes.pop();
      }
      errors.push({
        description: `failed to deserialize JSON record: ${err.message}`,
        event_number: ev + 1,
        line: lineOf(ev),
        field: err.field,
        invalid_bytes: null,
        invalid_text: events.texts[ev] ?? fragment(value),
        suggestion: null,
      });
    }
  }
  return result();

  function result(): ParsedInput {
    errors.sort((a, b) => a.event_number - b.event_number);
    return {
      changes,
      records: n,
      eventOf,
      lineOf,
      textOf: (ev) => (ev < n ? (events.texts[ev] ?? fragment(values[ev])) : null),
      errors,
    };
  }
}

/** The line of a JSON.parse error inside `text` (which starts at `firstLine`), from its "position N". */
function errorLine(err: unknown, text: string, firstLine: number): number {
  const m = /position (\d+)/.exec((err as Error)?.message ?? '');
  return m ? firstLine + lineAt(text, Number(m[1])) - 1 : firstLine;
}

function fragment(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function safeLines(body: string): number[] {
  try {
    return splitJson(body, 1).map((s) => s.line);
  } catch {
    return [];
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function insertDelete(value: unknown, binding: TableBinding, emit: (op: RowOp, row: unknown) => void): void {
  if (!isObject(value)) throw new RowError(`invalid type: ${Array.isArray(value) ? 'sequence' : typeof value}, expected an update object such as {"insert": row}`);
  let n = 0;
  for (const key of Object.keys(value)) {
    if (key === 'table') continue;
    if (key !== 'insert' && key !== 'delete' && key !== 'update')
      throw new RowError(`unknown field \`${key}\`, expected one of \`table\`, \`insert\`, \`delete\`, \`update\``);
    n++;
  }
  if (n === 0) throw new RowError('the update has none of `insert`, `delete`, `update`');
  if (value.delete !== undefined) emit('delete', value.delete);
  if (value.insert !== undefined) emit('insert', value.insert);
  if (value.update !== undefined) {
    if (!binding.hasKey) throw new RowError(`\`update\` needs a table with a primary key; table '${binding.table.name}' has none`);
    emit('update', value.update);
  }
}

function weighted(value: unknown, emit: (op: RowOp, row: unknown, weight: number) => void): void {
  if (!isObject(value)) throw new RowError('expected a weighted update {"weight": n, "data": row}');
  const w = value.weight;
  if (typeof w !== 'number' || !Number.isInteger(w)) throw new RowError('field `weight` must be an integer');
  if (value.data === undefined) throw new RowError('missing field `data`');
  if (w > 0) emit('insert', value.data, w);
  else if (w < 0) emit('delete', value.data, -w);
}

function debezium(value: unknown, emit: (op: RowOp, row: unknown) => void): void {
  const payload = isObject(value) ? value.payload : undefined;
  if (!isObject(payload)) throw new RowError('missing field `payload`');
  const op = payload.op;
  if (op !== 'c' && op !== 'u' && op !== 'd' && op !== 'r') throw new RowError('field `op` must be one of "c", "u", "d", "r"');
  if (payload.before !== undefined && payload.before !== null) emit('delete', payload.before);
  if (payload.after !== undefined && payload.after !== null) emit('insert', payload.after);
}

export { lineAt };
