/**
 * RowBatch: many input rows of one table in a compact, columnar form (the `batch` InputChange of api.ts),
 * so that a big request costs bytes per value, not a JS object per row. Rows are written cell by cell in
 * column order (push ... endRow) and read back by the engine's step block by block.
 *
 * Rules: a batch holds values in the engine's JSON input form, exactly as given: a number is kept as a
 * 64-bit float (the value itself, -0 included), a string whose characters are all below U+0100 as one
 * byte a character, true/false/null as a tag; anything else (other strings, arrays, objects, values of
 * future forms) is kept as the value itself. Reading a row gives back values equal to those pushed.
 * A row's cells are given either in column order (push) or each column once in any order (the set*
 * methods, for readers whose input names the columns in its own order); endRow checks that every cell
 * of the row was given. setText takes Latin-1 bytes straight from the caller's buffer (no string).
 * Storage is in blocks of BLOCK_ROWS rows, so growing a batch never copies what it already holds (a block's
 * text grows by doubling). fit() cuts each block's text to its size and the last block to its rows
 * for a batch that is kept a while (a transaction's), and seals the batch: no row can be added after it.
 *
 * Storage is pooled: release() gives a batch's column storage (typed arrays and text buffers, outside the JS
 * heap) back to a pool of this thread, which new blocks take before they allocate (at most POOL_BYTES kept).
 * Why: V8 counts memory allocated outside its heap and, past a threshold, starts a full collection ("external
 * memory pressure"), so a batch allocated per request made a pipeline's worker collect its whole heap (its
 * operators' state) every few requests. A released batch is empty and sealed: reading it gives no rows.
 */
import type { ColumnKeeps, JsonValue } from './json-value.js';

/**
 * Converts column c of a block into cell c of rows[0 .. rows of the block): a cell whose value `kept` says its
 * converter gives back as it is (a number, a string, a boolean) is written straight from storage, without the
 * JsonValue in between; a text cell that `fromText` (when given) reads from its Latin-1 bytes is its answer, no
 * string made (undefined: the text goes to `convert` as a string); any other goes through `convert` (which may
 * throw). A null cell is null, and so is a value `convert` turns into null: with `nullOk` false, the first such
 * cell stops the conversion (false).
 */
export type ColumnConverter = (
  c: number,
  rows: unknown[][],
  kept: ColumnKeeps | null,
  convert: (v: JsonValue) => unknown,
  nullOk: boolean,
  fromText?: ((bytes: Uint8Array, from: number, to: number) => unknown) | null,
) => boolean;

/** Rows per block: the unit of storage and of the step's conversion to internal rows. */
export const BLOCK_ROWS = 16384;

const NULL = 0;
const NUMBER = 1;
const TEXT = 2;
const TRUE = 3;
const FALSE = 4;
const OTHER = 5;

/** One column of one block. */
class ColumnBlock {
  tags = new Uint8Array(BLOCK_ROWS);
  /** Numbers; for OTHER cells, the index into the block's `others`. */
  nums: Float64Array | null = null;
  /** Text bytes (one byte a character, Latin-1) of TEXT cells, back to back. */
  text: Buffer | null = null;
  textLength = 0;
  /** End offset in `text` after each row (rows without text repeat the previous end). */
  ends: Uint32Array | null = null;
}

class Block {
  length = 0;
  readonly columns: ColumnBlock[];
  others: JsonValue[] = [];
  constructor(width: number) {
    this.columns = Array.from({ length: width }, () => new ColumnBlock());
  }

  /** Bytes of its storage outside the JS heap. */
  get storageBytes(): number {
    let n = 0;
    for (const col of this.columns) n += col.tags.byteLength + (col.nums?.byteLength ?? 0) + (col.ends?.byteLength ?? 0) + (col.text?.length ?? 0);
    return n;
  }
}

/** Most bytes of block storage the pool keeps. */
const POOL_BYTES = 32 * 1024 * 1024;
/**
 * Blocks of released batches by width, for new blocks of batches of that width (a table's requests: the same
 * columns, so each column finds the arrays and the text room its values took before).
 */
const pool = new Map<number, Block[]>();
let pooledBytes = 0;

/** A block of `width` columns from the pool (emptied: its arrays are written row by row before they are read), else a new one. */
function takeBlock(width: number): Block {
  const b = pool.get(width)?.pop();
  if (b === undefined) return new Block(width);
  pooledBytes -= b.storageBytes;
  b.length = 0;
  b.others = [];
  for (const col of b.columns) col.textLength = 0;
  return b;
}

/** Gives a block's storage to the pool when it is whole (room for BLOCK_ROWS rows, as fit() leaves only the last block otherwise) and the pool has room. */
function poolBlock(b: Block): void {
  for (const col of b.columns) if (col.tags.length !== BLOCK_ROWS || (col.nums !== null && col.nums.length !== BLOCK_ROWS) || (col.ends !== null && col.ends.length !== BLOCK_ROWS)) return;
  const bytes = b.storageBytes;
  if (pooledBytes + bytes > POOL_BYTES) return;
  pooledBytes += bytes;
  const list = pool.get(b.columns.length);
  if (list === undefined) pool.set(b.columns.length, [b]);
  else list.push(b);
}

/** Texts longer than this are copied into a batch by one native copy (setText), shorter ones byte by byte. */
const LONG_COPY = 48;

/** Texts shorter than this are read as substrings of their column's whole text (see convertColumn). */
const SHORT_TEXT = 13;

/** Buffer's own Latin-1 reader, without toString's argument checks. */
type Latin1 = { latin1Slice(start: number, end: number): string };

function isOneByte(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 255) return false;
  return true;
}

function writeShort(to: Buffer, at: number, s: string): number {
  for (let i = 0; i < s.length; i++) to[at + i] = s.charCodeAt(i);
  return s.length;
}

export class RowBatch {
  private readonly blocks: Block[] = [];
  /** Complete rows. */
  private rows = 0;
  /** Cells given of the row in progress. */
  private cell = 0;
  private current: Block | null = null;
  /** fit() was called: the last block has no room left, rows can no longer be added. */
  private sealed = false;
  /** Length of the current block's `others` when the row in progress began. */
  private othersAtRowStart = 0;

  /** `width`: the table's number of columns; every row has exactly that many cells. */
  constructor(readonly width: number) {}

  /** Number of complete rows. */
  get length(): number {
    return this.rows;
  }

  /** The next cell of the row in progress (cells in column order). */
  push(value: JsonValue): void {
    this.set(this.cell, value);
  }

  /** Cell `c` of the row in progress (each column once a row, in any order). */
  set(c: number, value: JsonValue): void {
    switch (typeof value) {
      case 'number':
        return this.setNumber(c, value);
      case 'string':
        if (isOneByte(value)) {
          const col = this.column(c);
          this.appendText(col, value);
          col.tags[this.current!.length] = TEXT;
          col.ends![this.current!.length] = col.textLength;
          return;
        }
        return this.other(c, value);
      case 'boolean':
        return this.setTag(c, value ? TRUE : FALSE);
      default:
        return value === null ? this.setTag(c, NULL) : this.other(c, value);
    }
  }

  /** Cell `c` of the row in progress: a number. */
  setNumber(c: number, value: number): void {
    const col = this.column(c);
    const r = this.current!.length;
    col.tags[r] = NUMBER;
    (col.nums ??= new Float64Array(BLOCK_ROWS))[r] = value;
    if (col.ends !== null) col.ends[r] = col.textLength;
  }

  /** Cell `c` of the row in progress: null, true or false. */
  setNull(c: number): void {
    this.setTag(c, NULL);
  }

  setBoolean(c: number, value: boolean): void {
    this.setTag(c, value ? TRUE : FALSE);
  }

  /** Cell `c` of the row in progress: the string of the Latin-1 bytes `bytes[from, end)` (ASCII text read from UTF-8 is such). */
  setText(c: number, bytes: Uint8Array, from: number, end: number): void {
    const col = this.column(c);
    const r = this.current!.length;
    const n = end - from;
    if (col.ends === null) col.ends = new Uint32Array(BLOCK_ROWS); // earlier rows: no text, end 0
    const at = this.reserveText(col, n);
    const text = col.text!;
    // a loop, not text.set(bytes.subarray(...)): no view object per cell (measured: a tenth of a body's parse);
    // a long text is copied natively, where the view costs less than the loop
    if (n > LONG_COPY) text.set(bytes.subarray(from, end), at);
    else for (let i = 0; i < n; i++) text[at + i] = bytes[from + i]!;
    col.textLength = at + n;
    col.tags[r] = TEXT;
    col.ends[r] = col.textLength;
  }

  /**
   * Cell `c` of the row in progress: the text of the bytes from `from` up to the first `stop` byte, checked
   * and copied in one pass, when every byte before it is ASCII from 32 to 127 other than `reject` and the
   * stop comes before `end` and within `max` bytes. Returns where the stop is; -1 when the bytes do not
   * qualify, and then the cell is not written (the caller gives it another way).
   */
  setTextUntil(c: number, bytes: Uint8Array, from: number, end: number, stop: number, reject: number, max: number): number {
    const col = this.column(c);
    const length = this.reserveText(col, Math.max(0, Math.min(max, end - from)));
    const text = col.text!;
    const limit = Math.min(end, from + max);
    let at = length;
    for (let i = from; i < limit; i++) {
      const b = bytes[i]!;
      if (b === stop) {
        if (col.ends === null) col.ends = new Uint32Array(BLOCK_ROWS); // earlier rows: no text, end 0
        const r = this.current!.length;
        col.textLength = at;
        col.tags[r] = TEXT;
        col.ends[r] = at;
        return i;
      }
      if (b < 32 || b > 127 || b === reject) break;
      text[at++] = b;
    }
    this.cell--; // not given after all (the bytes past textLength are free space)
    return -1;
  }

  private setTag(c: number, tag: number): void {
    const col = this.column(c);
    const r = this.current!.length;
    col.tags[r] = tag;
    if (col.ends !== null) col.ends[r] = col.textLength;
  }

  /** Column c of the row in progress, counting the cell (a row's first cell opens it). */
  private column(c: number): ColumnBlock {
    if (this.sealed) throw new RangeError('this batch was fitted to its rows: no row can be added');
    let b = this.current;
    if (this.cell === 0) {
      if (b === null || b.length === BLOCK_ROWS) b = this.newBlock();
      this.othersAtRowStart = b.others.length;
    }
    if (c >= this.width || c < 0 || this.cell >= this.width) throw new RangeError(`a row of this batch has ${this.width} cells`);
    this.cell++;
    return b!.columns[c]!;
  }

  /** Completes the row in progress. */
  endRow(): void {
    if (this.cell !== this.width) throw new RangeError(`a row of this batch has ${this.width} cells, got ${this.cell}`);
    const b = this.current!;
    this.cell = 0;
    b.length++;
    this.rows++;
  }

  /** Discards the cells of the row in progress (its input turned out bad). */
  dropRow(): void {
    if (this.cell === 0) return;
    const b = this.current!;
    const r = b.length;
    b.others.length = this.othersAtRowStart;
    for (const col of b.columns) if (col.ends !== null) col.textLength = r === 0 ? 0 : col.ends[r - 1]!;
    this.cell = 0;
  }

  /** Removes the last complete row (its input turned out bad after all). */
  popRow(): void {
    if (this.cell !== 0) this.dropRow();
    if (this.rows === 0) return;
    let b = this.current!;
    while (b.length === 0) b = this.current = this.blocks[this.blocks.indexOf(b) - 1]!;
    const r = --b.length;
    this.rows--;
    let others = -1;
    for (const col of b.columns) {
      if (col.tags[r] === OTHER && others < 0) others = col.nums![r]!;
      if (col.ends !== null) col.textLength = r === 0 ? 0 : col.ends[r - 1]!;
    }
    if (others >= 0) b.others.length = others;
  }

  /**
   * Bytes the batch's storage takes: its typed arrays and text buffers (outside the JS heap), and for
   * values kept as they are (`others`) a rough 64 bytes each. For memory budgets, not an exact figure.
   */
  get byteLength(): number {
    let n = 0;
    for (const b of this.blocks) {
      n += b.others.length * 64;
      for (const col of b.columns) n += col.tags.byteLength + (col.nums?.byteLength ?? 0) + (col.ends?.byteLength ?? 0) + (col.text?.length ?? 0);
    }
    return n;
  }

  /**
   * Cuts the storage of the last (partial) block to its rows: a batch of a few rows otherwise keeps room
   * for BLOCK_ROWS (about 147 KB a numeric column). Seals the batch (push, set* then throw); a row in
   * progress is dropped. Reading is unchanged.
   */
  fit(): void {
    if (this.cell !== 0) this.dropRow();
    this.sealed = true;
    // full blocks keep their arrays (a block's room), their text cut to its size
    for (const full of this.blocks) if (full !== this.current) this.trim(full);
    const b = this.current;
    if (b === null || b.length === BLOCK_ROWS) {
      if (b !== null) this.trim(b);
      return;
    }
    const n = b.length;
    for (const col of b.columns) {
      col.tags = col.tags.slice(0, n);
      if (col.nums !== null) col.nums = col.nums.slice(0, n);
      if (col.ends !== null) col.ends = col.ends.slice(0, n);
    }
    this.trim(b);
  }

  /**
   * Gives the batch's storage back to the pool (see the header): the batch is then empty and sealed. For the
   * owner of a batch that nothing reads any more (a request's, once its step has taken it).
   */
  release(): void {
    for (const b of this.blocks) poolBlock(b);
    this.blocks.length = 0;
    this.current = null;
    this.rows = 0;
    this.cell = 0;
    this.sealed = true;
  }

  /** Row `i` as values in column order. */
  row(i: number): JsonValue[] {
    if (i < 0 || i >= this.rows) throw new RangeError(`row ${i} of a batch of ${this.rows}`);
    const b = this.blocks[Math.floor(i / BLOCK_ROWS)]!;
    const r = i % BLOCK_ROWS;
    const out: JsonValue[] = new Array(this.width);
    for (let c = 0; c < this.width; c++) out[c] = RowBatch.cell(b, c, r);
    return out;
  }

  /**
   * Calls `visit` once per block with its row count and a reader of its cells (column, row in block).
   * The reader is valid during the call only.
   */
  forEachBlock(visit: (rows: number, cell: (column: number, row: number) => JsonValue, firstRow: number) => void): void {
    let first = 0;
    for (const b of this.blocks) {
      if (b.length === 0) continue;
      visit(b.length, (c, r) => RowBatch.cell(b, c, r), first);
      first += b.length;
    }
  }

  /**
   * Calls `visit` once per block with its row count, the index of its first row, a reader that puts the
   * values of column c of the block's rows in `out` (row r at out[r]), and a converter that writes them,
   * converted, into cell c of the rows given (see ColumnConverter): a column at a time, for readers that
   * convert values column by column. The reader and the converter are valid during the call only.
   */
  forEachBlockColumns(visit: (rows: number, firstRow: number, column: (c: number, out: JsonValue[]) => void, convert: ColumnConverter) => void): void {
    let first = 0;
    for (const b of this.blocks) {
      if (b.length === 0) continue;
      visit(
        b.length,
        first,
        (c, out) => RowBatch.column(b, c, out),
        (c, rows, kept, convert, nullOk, fromText) => RowBatch.convertColumn(b, c, rows, kept, convert, nullOk, fromText ?? null),
      );
      first += b.length;
    }
  }

  /** ColumnConverter of block b: values straight from storage (no JsonValue in between) where `kept` allows. */
  private static convertColumn(
    b: Block,
    c: number,
    rows: unknown[][],
    kept: ColumnKeeps | null,
    convert: (v: JsonValue) => unknown,
    nullOk: boolean,
    fromText: ((bytes: Uint8Array, from: number, to: number) => unknown) | null,
  ): boolean {
    const col = b.columns[c]!;
    const n = b.length;
    const tags = col.tags;
    const nums = col.nums;
    const ends = col.ends;
    const text = col.text as unknown as Latin1 | null;
    const allNumbers = kept?.kind === 'number';
    const ints = kept?.kind === 'int';
    const lo = kept?.kind === 'int' ? kept.lo : 0;
    const hi = kept?.kind === 'int' ? kept.hi : 0;
    const strings = kept?.kind === 'string';
    const booleans = kept?.kind === 'boolean';
    let whole: string | undefined;
    for (let r = 0; r < n; r++) {
      let v: unknown;
      switch (tags[r]) {
        case NUMBER: {
          const x = nums![r]!;
          if (allNumbers || (ints && Number.isInteger(x) && x >= lo && x <= hi)) {
            rows[r]![c] = x;
            continue;
          }
          v = convert(x);
          break;
        }
        case TEXT: {
          const from = r === 0 ? 0 : ends![r - 1]!;
          const to = ends![r]!;
          if (fromText !== null) {
            const x = fromText(col.text!, from, to);
            if (x !== undefined) {
              rows[r]![c] = x;
              continue;
            }
          }
          // a short text as a piece of the column's whole text: V8 copies a substring shorter than 13
          // characters (SlicedString::kMinLength) without a call out of JS; a longer one would be a slice
          // that keeps the whole text alive, so it is read on its own
          const s = to - from < SHORT_TEXT ? (whole ??= text!.latin1Slice(0, col.textLength)).substring(from, to) : text!.latin1Slice(from, to);
          if (strings) {
            rows[r]![c] = s;
            continue;
          }
          v = convert(s);
          break;
        }
        case TRUE:
          v = booleans ? true : convert(true);
          break;
        case FALSE:
          v = booleans ? false : convert(false);
          break;
        case OTHER:
          v = convert(b.others[nums![r]!]!);
          break;
        default:
          v = null;
      }
      if (v === null && !nullOk) return false;
      rows[r]![c] = v;
    }
    return true;
  }

  private static column(b: Block, c: number, out: JsonValue[]): void {
    const col = b.columns[c]!;
    const n = b.length;
    const tags = col.tags;
    const nums = col.nums;
    const ends = col.ends;
    const text = col.text as unknown as Latin1 | null;
    for (let r = 0; r < n; r++) {
      switch (tags[r]) {
        case NUMBER:
          out[r] = nums![r]!;
          break;
        case TEXT:
          out[r] = text!.latin1Slice(r === 0 ? 0 : ends![r - 1]!, ends![r]!);
          break;
        case TRUE:
          out[r] = true;
          break;
        case FALSE:
          out[r] = false;
          break;
        case OTHER:
          out[r] = b.others[nums![r]!]!;
          break;
        default:
          out[r] = null;
      }
    }
  }

  private static cell(b: Block, c: number, r: number): JsonValue {
    const col = b.columns[c]!;
    switch (col.tags[r]) {
      case NUMBER:
        return col.nums![r]!;
      case TEXT:
        return col.text!.toString('latin1', r === 0 ? 0 : col.ends![r - 1]!, col.ends![r]!);
      case TRUE:
        return true;
      case FALSE:
        return false;
      case OTHER:
        return b.others[col.nums![r]!]!;
      default:
        return null;
    }
  }

  private newBlock(): Block {
    const b = takeBlock(this.width);
    this.blocks.push(b);
    this.current = b;
    return b;
  }

  private other(c: number, value: JsonValue): void {
    const col = this.column(c);
    const b = this.current!;
    const r = b.length;
    col.tags[r] = OTHER;
    (col.nums ??= new Float64Array(BLOCK_ROWS))[r] = b.others.length;
    b.others.push(value);
    if (col.ends !== null) col.ends[r] = col.textLength;
  }

  private appendText(col: ColumnBlock, s: string): void {
    if (col.ends === null) col.ends = new Uint32Array(BLOCK_ROWS); // earlier rows: no text, end 0
    const at = this.reserveText(col, s.length);
    col.textLength = at + (s.length <= 48 ? writeShort(col.text!, at, s) : col.text!.write(s, at, 'latin1'));
  }

  /** Room for n more bytes of text in col; returns where they go. */
  private reserveText(col: ColumnBlock, n: number): number {
    const text = col.text;
    const need = col.textLength + n;
    if (text === null || need > text.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(need, text === null ? 1024 : text.length * 2));
      if (text !== null) text.copy(bigger, 0, 0, col.textLength);
      col.text = bigger;
    }
    return col.textLength;
  }

  /** A full block's text buffers cut to their size (growth leaves up to half of them unused). */
  private trim(b: Block): void {
    for (const col of b.columns) {
      const text = col.text;
      if (text === null || text.length === col.textLength) continue;
      const exact = Buffer.allocUnsafeSlow(col.textLength);
      text.copy(exact, 0, 0, col.textLength);
      col.text = exact;
    }
  }
}
