/**
 * Delta entries (rows of one width, with their weights) kept column by column, for contents that are written once and read rarely (a
 * relation's integrated contents: read by snapshots and ad-hoc queries, never by a step). A column whose
 * values are all numbers (or null) is one array of numbers, which V8 holds unboxed; all strings (or null),
 * one string holding them one after another, with the end of each; anything else, an array of its
 * values. Nulls are marked apart.
 *
 * Why: a row held as an array costs V8's collector two objects (the array and its elements) plus one per
 * fractional number, each copied out of the young generation and marked again by every full collection
 * for as long as the relation lives. Packed, a chunk of rows is a few big objects whatever its size, so
 * keeping what a pipeline ingests costs the collector next to nothing per row, and about a third of the
 * memory (measured: 202 bytes of heap an input row of 4 columns and a view of 3 take as rows, 75 packed). Everything
 * stays in the JS heap (no ArrayBuffer), so the heap limit of a pipeline's worker still bounds it. Reading
 * makes each row again (a new array, its strings slices of the column's text).
 *
 * Contract: pack(entries).row(i) equals entries[i]'s row value for value, and weight(i) its weight (numbers the same number, -0 and NaN
 * included; strings code unit for code unit, lone surrogates included; other values the same objects).
 * Rows of different widths are not packed (pack gives null).
 */
import type { Row, Value } from './types/values.js';
import type { Delta } from './ops/zset.js';

/** A column's text longer than this (UTF-16 code units) is kept as an array of its strings instead (V8's longest string is about 2^29). */
const MAX_TEXT = 1 << 26;

interface Column {
  get(i: number): Value;
}

/** 1 where a row's value is null (an array of small integers: no object per row). */
type NullMarks = number[] | null;

/** Marks with every row 0 but row i, for a column whose first null is at i. */
function marksFrom(n: number, i: number): number[] {
  const marks = new Array<number>(n).fill(0);
  marks[i] = 1;
  return marks;
}

class NumberColumn implements Column {
  constructor(
    private readonly nums: number[],
    private readonly nulls: NullMarks,
  ) {}

  get(i: number): Value {
    return this.nulls !== null && this.nulls[i] === 1 ? null : this.nums[i]!;
  }
}

class TextColumn implements Column {
  constructor(
    private readonly text: string,
    /** Where each value ends in `text` (a value starts where the one before ends). */
    private readonly ends: number[],
    private readonly nulls: NullMarks,
  ) {}

  get(i: number): Value {
    if (this.nulls !== null && this.nulls[i] === 1) return null;
    return this.text.slice(i === 0 ? 0 : this.ends[i - 1]!, this.ends[i]!);
  }
}

class ValueColumn implements Column {
  constructor(private readonly values: Value[]) {}

  get(i: number): Value {
    return this.values[i]!;
  }
}

/** Column `c` of the rows of `entries` in its packed form. */
function packColumn(entries: Delta, c: number): Column {
  const n = entries.length;
  // the kind of the first value that is not null; then one pass that fills it, until a value of another kind
  let first = 0;
  while (first < n && entries[first]![0][c] === null) first++;
  const kind = first < n ? typeof entries[first]![0][c] : 'object';
  let nulls: NullMarks = null;
  if (kind === 'number') {
    // filled with a fraction first: V8 then holds the array unboxed from the start (no change of its kind, no holes to check)
    const nums = new Array<number>(n).fill(0.5);
    let i = 0;
    for (; i < n; i++) {
      const v = entries[i]![0][c];
      if (typeof v === 'number') nums[i] = v;
      else if (v === null) {
        nums[i] = 0;
        if (nulls === null) nulls = marksFrom(n, i);
        else nulls[i] = 1;
      } else break;
    }
    if (i === n) return new NumberColumn(nums, nulls);
  } else if (kind === 'string') {
    // appended one by one, then flattened by reading a character: faster than joining an array of them
    let text = '';
    const ends = new Array<number>(n).fill(0);
    let i = 0;
    for (; i < n; i++) {
      const v = entries[i]![0][c];
      if (typeof v === 'string') {
        if (text.length + v.length > MAX_TEXT) break;
        text += v;
      } else if (v === null) {
        if (nulls === null) nulls = marksFrom(n, i);
        else nulls[i] = 1;
      } else break;
      ends[i] = text.length;
    }
    if (i === n) {
      text.charCodeAt(0);
      return new TextColumn(text, ends, nulls);
    }
  }
  const values: Value[] = new Array<Value>(n);
  for (let i = 0; i < n; i++) values[i] = entries[i]![0][c]!;
  return new ValueColumn(values);
}

export class PackedRows {
  private constructor(
    private readonly columns: Column[],
    /** Each entry's weight, or null when every weight is 1. */
    private readonly weights: number[] | null,
    readonly length: number,
  ) {}

  /** `entries` packed (their rows and their weights), or null when their rows are not all of one width. */
  static pack(entries: Delta): PackedRows | null {
    const n = entries.length;
    const width = n === 0 ? 0 : entries[0]![0].length;
    let weights: number[] | null = null;
    for (let i = 0; i < n; i++) {
      const e = entries[i]!;
      if (e[0].length !== width) return null;
      const w = e[1];
      if (w !== 1) {
        if (weights === null) weights = new Array<number>(n).fill(1);
        weights[i] = w;
      }
    }
    const columns: Column[] = [];
    for (let c = 0; c < width; c++) columns.push(packColumn(entries, c));
    return new PackedRows(columns, weights, n);
  }

  /** Row i, made again. */
  row(i: number): Row {
    const columns = this.columns;
    const row: Row = new Array<Value>(columns.length);
    for (let c = 0; c < columns.length; c++) row[c] = columns[c]!.get(i);
    return row;
  }

  /** Entry i's weight. */
  weight(i: number): number {
    return this.weights === null ? 1 : this.weights[i]!;
  }
}
