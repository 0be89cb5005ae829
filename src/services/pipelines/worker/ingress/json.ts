/**
 * JSON ingress: the update formats of the reference (insert_delete, raw, weighted, debezium), with or
 * without `array=true`, turned into engine changes for one table. Pure: no I/O, no engine state.
 * Every bad event is reported (event number, line, field); the caller applies nothing when any is bad.
 * Parsed in chunks (JsonParser) by the shared JsonValueReader of src/formats/json-split.ts; nesting deeper
 * than MAX_JSON_DEPTH is a parse error, never a recursion. Number literals keep their digits (parseJsonText:
 * BIGINT beyond 2^53 and a long DECIMAL are exact). This module binds the values to a table.
 */
import { RowError, type RowOp, type TableBinding } from './binding.js';
import { JsonValueReader, lineAt, type SegmentFlaw } from '../../../../formats/json-split.js';
import { MAX_JSON_DEPTH } from '../../shared/ingress-limits.js';
import { ParsedSink, type IngressParser, type ParsedInput } from './parser.js';
import { JsonNumberText, jsonText, parseJsonText } from '../../../../engine/index.js';
import { JsonFastRows } from './json-fast.js';
import type { UpdateFormat } from '../../shared/update-formats.js';

export type { ParsedInput } from './parser.js';

export interface JsonInputOptions {
  updateFormat: UpdateFormat;
  array: boolean;
}

const DEPTH_MESSAGE = `the value is nested deeper than the limit of ${MAX_JSON_DEPTH} levels of arrays and objects`;
/** Longest invalid_text kept for a value that cannot be parsed as it is (a deep one can be long). */
const MAX_FRAGMENT = 200;

/** Longest line the line path holds to parse whole (beyond it, the line goes through the splitter). */
const MAX_LINE = 1024 * 1024;

/** Longest line held for the fast path (json-fast.ts; a longer one goes to the reader as it comes). */
const MAX_FAST_LINE = 16 * 1024 * 1024;
/** Largest line buffer kept between lines (a bigger one is let go once its line is done). */
const HELD_KEPT = 4 * 1024 * 1024;

/**
 * The line buffer of the last parser that ended (at most HELD_KEPT bytes), for the next one to hold its
 * lines in: a request's body of one long line (an array) otherwise grows a new buffer by doubling and
 * touches fresh memory each time (measured: a tenth of the parse of 2 MB bodies of Nexmark bids).
 */
let spareHeld: Buffer<ArrayBuffer> | null = null;

/**
 * The incremental JSON parser: values (or, with `array`, the elements of top-level arrays) are parsed
 * as soon as the body's chunks complete them; only the value in progress is kept as text.
 * The line path: a line that starts between values is given to JSON.parse whole (its depth is then
 * checked without recursion); a line that does not parse so, or is longer than MAX_LINE, goes through
 * the splitter, which finds each value and each error precisely.
 */
export class JsonParser implements IngressParser {
  private decoder = new TextDecoder();
  private readonly laterDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private readonly sink: ParsedSink;
  private readonly reader: JsonValueReader;
  private ended = false;
  /** The fast path of flat rows (raw format), when it applies; see json-fast.ts. */
  private fast: JsonFastRows | null;
  /** Lines the fast path took (for tests and measurements). */
  fastLines = 0;
  /** Events read so far (for tests: the rows of a line are read as its bytes come). */
  get records(): number {
    return this.sink.events;
  }
  /** Scans the fast path ran (for tests). */
  get fastScans(): number {
    return this.fast?.scans ?? 0;
  }
  /** Rows the fast path read against the shape of the row before (for tests). */
  get shapedRows(): number {
    return this.fast?.shapedRows ?? 0;
  }
  /** The bytes of the line in progress, held for the fast path, and where each piece of them that came ended. */
  private held = Buffer.alloc(0);
  private heldLength = 0;
  private heldCuts: number[] = [];
  /** The rest of the current line goes to the reader (it was too long to hold, or the reader is inside a value). */
  private passing = false;

  constructor(
    private readonly binding: TableBinding,
    private readonly opts: JsonInputOptions,
    /** Longest line held for the line path (tests set it low to take the splitter path). */
    private readonly maxLine = MAX_LINE,
    /** The fast path for flat rows (tests turn it off to compare with the general path). */
    fastPath = true,
  ) {
    this.sink = new ParsedSink(binding.makeRow);
    this.reader = new JsonValueReader(
      { array: opts.array, maxDepth: MAX_JSON_DEPTH, maxLine, parse: parseJsonText },
      { parsed: (value, line) => this.event(value, line, null), text: (text, line, flaw) => this.value(text, line, flaw) },
    );
    this.fast = fastPath && opts.updateFormat === 'raw' ? new JsonFastRows(binding, opts.array) : null;
  }

  push(chunk: Uint8Array): void {
    if (this.fast === null) return this.pushText(this.decode(chunk));
    // the fast path takes whole lines of bytes; what it does not take goes to the reader decoded, in the
    // pieces it came in (the reader's choice of path for a long line depends on them)
    const n = chunk.length;
    let start = 0;
    while (start < n) {
      const nl = chunk.indexOf(10, start);
      const end = nl < 0 ? n : nl + 1;
      const piece = start === 0 && end === n ? chunk : chunk.subarray(start, end);
      start = end;
      if (this.passing) {
        this.reader.push(this.decode(piece));
        if (nl >= 0) this.passing = false;
      } else if (this.heldLength === 0 && !this.reader.idle) {
        this.reader.push(this.decode(piece)); // the reader is inside a value that began on an earlier line
      } else {
        if (this.heldLength === 0) this.fast.begin(this.reader.currentLine, this.sink);
        this.hold(piece);
        if (nl >= 0) this.fastLine();
        else if (this.heldLength > MAX_FAST_LINE || !this.fast.more(this.held.subarray(0, this.heldLength), false, this.sink)) {
          // too long to hold, or given up before its end: the line so far and the rest of it to the reader
          this.fast.abandon(this.sink);
          this.release();
          this.passing = true;
        }
      }
    }
  }

  pushText(text: string): void {
    if (this.fast !== null && !(text as unknown as { isWellFormed(): boolean }).isWellFormed()) {
      // a lone surrogate has no UTF-8 form: from here on the general path only
      if (this.heldLength > 0) {
        this.fast.abandon(this.sink);
        this.release();
      }
      this.reader.push(this.decoder.decode());
      this.fast = null;
    }
    if (this.fast === null) return this.reader.push(text);
    // text the caller holds (connectors, tests) takes the same path; it was never decoded, so a U+FEFF at
    // its start is a character, as the general path sees it
    this.decoder = this.laterDecoder;
    this.push(Buffer.from(text, 'utf8'));
  }

  private decode(bytes: Uint8Array): string {
    return this.decoder.decode(bytes, { stream: true });
  }

  private hold(piece: Uint8Array): void {
    const need = this.heldLength + piece.length;
    if (need > this.held.length) {
      let bigger: Buffer<ArrayBuffer>;
      if (spareHeld !== null && spareHeld.length >= need) {
        bigger = spareHeld;
        spareHeld = null;
      } else bigger = Buffer.allocUnsafe(Math.max(need, this.held.length * 2, 4096));
      this.held.copy(bigger, 0, 0, this.heldLength);
      this.held = bigger;
    }
    this.held.set(piece, this.heldLength);
    this.heldLength = need;
    this.heldCuts.push(need);
  }

  /** The held line through the fast path, or (when it is not taken) to the reader. */
  private fastLine(): void {
    const line = this.held.subarray(0, this.heldLength);
    if (this.fast!.more(line, true, this.sink)) {
      if (line[line.length - 1] === 10) this.reader.skipLine();
      this.fastLines++;
      // what the reader gets from here on is not the start of the body: a U+FEFF there is a character
      this.decoder = this.laterDecoder;
      this.heldLength = 0;
      this.heldCuts = [];
      if (this.held.length > HELD_KEPT) this.held = Buffer.alloc(0);
    } else this.release();
  }

  /** The held pieces to the reader, decoded, as they came. */
  private release(): void {
    let from = 0;
    for (const cut of this.heldCuts) {
      this.reader.push(this.decode(this.held.subarray(from, cut)));
      from = cut;
    }
    this.heldLength = 0;
    this.heldCuts = [];
    if (this.held.length > HELD_KEPT) this.held = Buffer.alloc(0);
  }

  end(): ParsedInput {
    if (!this.ended) {
      this.ended = true;
      if (this.heldLength > 0) this.fastLine();
      // nothing reads the line buffer after the last line (rows were copied into their batches)
      if (this.held.length <= HELD_KEPT && this.held.length > (spareHeld?.length ?? 0)) spareHeld = this.held;
      this.held = Buffer.alloc(0);
      const rest = this.decoder.decode();
      if (rest) this.reader.push(rest);
      const { unterminated } = this.reader.end();
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
      value = parseJsonText(text);
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
        sink.emit(binding, 'insert', value, 1, ev);
        return;
      } catch (err) {
        if (!(err instanceof RowError)) throw err;
        // reported below, as for the other formats
      }
    }
    const emit = (op: RowOp, row: unknown, weight = 1) => sink.emit(binding, op, row, weight, ev);
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
    return jsonText(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumberText);
}

function insertDelete(value: unknown, binding: TableBinding, emit: (op: RowOp, row: unknown) => void): void {
  if (!isObject(value)) throw new RowError(`invalid type: ${Array.isArray(value) ? 'sequence' : typeof value}, expected an update object such as {"insert": row}`);
  let n = 0;
  for (const key of Object.keys(value)) {
    if (key === 'table') continue;
    if (key !== 'insert' && key !== 'delete' && key !== 'update') throw new RowError(`unknown field \`${key}\`, expected one of \`table\`, \`insert\`, \`delete\`, \`update\``);
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
