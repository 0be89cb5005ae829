/**
 * JSON ingress: the update formats of the reference (insert_delete, raw, weighted, debezium), with or
 * without `array=true`, turned into engine changes for one table. Pure: no I/O, no engine state.
 * Every bad event is reported (event number, line, field); the caller applies nothing when any is bad.
 * Parsed in chunks (JsonParser); nesting deeper than MAX_JSON_DEPTH is a parse error, never a recursion.
 */
import { RowError, type RowOp, type TableBinding } from './binding.js';
import { JsonSplitter, lineAt, type SegmentFlaw } from './json-split.js';
import { MAX_JSON_DEPTH } from './limits.js';
import { ParsedSink, Pieces, type IngressParser, type ParsedInput } from './parser.js';

export type { ParsedInput } from './parser.js';

export type UpdateFormat = 'insert_delete' | 'raw' | 'weighted' | 'debezium';
export const UPDATE_FORMATS: readonly string[] = ['insert_delete', 'raw', 'weighted', 'debezium'];

export interface JsonInputOptions {
  updateFormat: UpdateFormat;
  array: boolean;
}

const DEPTH_MESSAGE = `the value is nested deeper than the limit of ${MAX_JSON_DEPTH} levels of arrays and objects`;
/** Longest invalid_text kept for a value that cannot be parsed as it is (a deep one can be long). */
const MAX_FRAGMENT = 200;

/** Longest line the line path holds to parse whole (beyond it, the line goes through the splitter). */
const MAX_LINE = 1024 * 1024;

/**
 * The incremental JSON parser: values (or, with `array`, the elements of top-level arrays) are parsed
 * as soon as the body's chunks complete them; only the value in progress is kept as text.
 * The line path: a line that starts between values is given to JSON.parse whole (its depth is then
 * checked without recursion); a line that does not parse so, or is longer than MAX_LINE, goes through
 * the splitter, which finds each value and each error precisely.
 */
export class JsonParser implements IngressParser {
  private readonly decoder = new TextDecoder();
  private readonly sink = new ParsedSink();
  private readonly splitter: JsonSplitter;
  private ended = false;

  constructor(
    private readonly binding: TableBinding,
    private readonly opts: JsonInputOptions,
    /** Longest line held for the line path (tests set it low to take the splitter path). */
    private readonly maxLine = MAX_LINE,
  ) {
    this.splitter = new JsonSplitter(opts.array, MAX_JSON_DEPTH, (text, line, flaw) => this.value(text, line, flaw));
  }

  private readonly line = new Pieces();
  private lineLength = 0;
  /** The rest of the current line goes to the splitter (it was too long to hold). */
  private longLine = false;

  push(chunk: Uint8Array): void {
    this.pushText(this.decoder.decode(chunk, { stream: true }));
  }

  pushText(text: string): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) {
        const rest = text.slice(start);
        if (this.longLine) this.splitter.push(rest);
        else if (this.lineLength + rest.length > this.maxLine) {
          this.longLine = true;
          this.splitter.push(this.line.take(rest));
          this.lineLength = 0;
        } else {
          this.line.add(rest);
          this.lineLength += rest.length;
        }
        return;
      }
      const piece = text.slice(start, nl + 1);
      start = nl + 1;
      if (this.longLine) {
        this.longLine = false;
        this.splitter.push(piece);
      } else {
        const line = this.line.take(piece);
        this.lineLength = 0;
        if (!this.wholeLine(line)) this.splitter.push(line);
      }
    }
  }

  /** The line path: parses a whole line of values at once, when it can; false: use the splitter. */
  private wholeLine(line: string): boolean {
    if (!this.splitter.atTop) return false;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return false; // blank, several values, part of a multi-line value, or a syntax error
    }
    const top = this.opts.array ? 1 : 0;
    if ((this.opts.array && !Array.isArray(value)) || depthOver(value, MAX_JSON_DEPTH)) return false;
    const lineNo = this.splitter.currentLine;
    this.splitter.skipLine();
    if (top === 0) this.event(value, lineNo, null);
    else for (const v of value as unknown[]) this.event(v, lineNo, null);
    return true;
  }

  end(): ParsedInput {
    if (!this.ended) {
      this.ended = true;
      const rest = this.decoder.decode();
      if (rest) this.pushText(rest);
      if (this.longLine) this.longLine = false;
      else if (!this.line.empty) {
        const last = this.line.take();
        this.lineLength = 0;
        if (!this.wholeLine(last)) this.splitter.push(last);
      }
      const { unterminated } = this.splitter.end();
      if (unterminated) {
        const ev = this.sink.event(unterminated.line);
        this.syntaxError(ev, 'unexpected end of input (unterminated JSON value)', unterminated.line, unterminated.text ? clip(unterminated.text) : null);
      }
    }
    return this.sink.result((c) => ('row' in c ? fragment(c.row) : fragment((c as { fields: unknown }).fields)));
  }

  private syntaxError(ev: number, message: string, line: number, text: string | null): void {
    this.sink.error({
      description: `failed to parse JSON: ${message}`,
      event_number: ev + 1,
      line,
      field: null,
      invalid_bytes: null,
      invalid_text: text,
      suggestion: null,
    });
  }

  private value(text: string, line: number, flaw: SegmentFlaw): void {
    const ev = this.sink.event(line);
    if (flaw === 'too_deep') return this.syntaxError(ev, DEPTH_MESSAGE, line, clip(text));
    if (flaw === 'not_array') return this.syntaxError(ev, 'expected an array of updates (array=true)', line, clip(text));
    if (flaw === 'unexpected_close') return this.syntaxError(ev, `unexpected '${text.trim().slice(-1)}'`, line, clip(text));
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return this.syntaxError(ev, (err as Error).message, errorLine(err, text, line), text);
    }
    this.event(value, line, text, ev);
  }

  /** One event's changes (or its error); `text` is its source when the splitter found it. */
  private event(value: unknown, line: number, text: string | null, ev = this.sink.event(line)): void {
    const binding = this.binding;
    const sink = this.sink;
    if (this.opts.updateFormat === 'raw') {
      try {
        sink.change(binding.change('insert', binding.row(value, 'insert')), ev);
        return;
      } catch (err) {
        if (!(err instanceof RowError)) throw err;
        // reported below, as for the other formats
      }
    }
    const emit = (op: RowOp, row: unknown, weight = 1) => sink.change(binding.change(op, binding.row(row, op), weight), ev);
    try {
      switch (this.opts.updateFormat) {
        case 'raw':
          emit('insert', value);
          break;
        case 'insert_delete':
          insertDelete(value, binding, emit);
          break;
        case 'weighted':
          weighted(value, emit);
          break;
        case 'debezium':
          debezium(value, emit);
          break;
      }
    } catch (err) {
      if (!(err instanceof RowError)) throw err;
      sink.dropEvent(ev);
      sink.error({
        description: `failed to deserialize JSON record: ${err.message}`,
        event_number: ev + 1,
        line,
        field: err.field,
        invalid_bytes: null,
        invalid_text: text !== null ? text.trim() : fragment(value),
        suggestion: null,
      });
    }
  }
}

/** A whole JSON body at once (input connectors; tests). */
export function parseJsonInput(body: string, binding: TableBinding, opts: JsonInputOptions): ParsedInput {
  const parser = new JsonParser(binding, opts);
  parser.pushText(body);
  return parser.end();
}

/** Whether a parsed value nests arrays and objects deeper than `max` (walked without recursion). */
function depthOver(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const d = depths.pop()!;
    if (d > max) return true;
    if (Array.isArray(v)) {
      for (const child of v) {
        if (typeof child === 'object' && child !== null) {
          stack.push(child);
          depths.push(d + 1);
        }
      }
    } else {
      for (const k in v) {
        const child = (v as Record<string, unknown>)[k];
        if (typeof child === 'object' && child !== null) {
          stack.push(child);
          depths.push(d + 1);
        }
      }
    }
  }
  return false;
}

function clip(text: string): string {
  const t = text.trim();
  return t.length > MAX_FRAGMENT ? `${t.slice(0, MAX_FRAGMENT)}…` : t;
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
