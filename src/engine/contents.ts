/**
 * The integrated contents of an output relation (what a snapshot reads), kept as rows appended step by
 * step that are consolidated only when deletions make it worth it. Rows are held flat, in chunks (one
 * array slot a row, no per-row wrapper), with their weights in a parallel array that exists only once a
 * weight other than 1 has come, so an insert-only relation costs one slot per row and no hashing at all.
 * A big step's rows get a chunk of their own, of exactly their size (no growth, no copying); small steps
 * share a growable chunk. Rows are read in the order they came (after a compaction: each distinct row at
 * its first place). With deletions, the rows are compacted once those appended since the last compaction
 * include enough deletes to shrink them, so the work per change stays constant on average and at most a
 * bounded fraction of what is held cancels out.
 */
import { rowKey, type Row } from './types/values.js';
import { consolidate, type Delta } from './ops/zset.js';

/** Contents shorter than this are never compacted on the fly (reading them is cheap anyway). */
const MIN_COMPACT = 1024;
/** A step of at least this many rows gets a chunk of its own. */
const OWN_CHUNK = 256;

interface Chunk {
  rows: Row[];
  /** Weight of each row, or null while every weight is 1. */
  weights: number[] | null;
  /** Whether later small steps may append to it. */
  open: boolean;
}

export class RelationContents {
  private chunks: Chunk[] = [];
  private held = 0;
  /** Negative entries appended since the last compaction. */
  private negatives = 0;
  /** Whether every held row is distinct with a non-zero weight (nothing appended since the last compaction). */
  private consolidated = true;

  append(d: Delta): void {
    const n = d.length;
    if (!n) return;
    let chunk = this.chunks[this.chunks.length - 1];
    if (n >= OWN_CHUNK) {
      const rows: Row[] = new Array(n);
      let weights: number[] | null = null;
      for (let i = 0; i < n; i++) {
        const e = d[i]!;
        const w = e[1];
        rows[i] = e[0];
        if (w !== 1) {
          if (weights === null) weights = new Array<number>(n).fill(1);
          weights[i] = w;
          if (w < 0) this.negatives++;
        }
      }
      this.chunks.push({ rows, weights, open: false });
    } else {
      if (chunk === undefined || !chunk.open) this.chunks.push((chunk = { rows: [], weights: null, open: true }));
      const { rows } = chunk;
      for (let i = 0; i < n; i++) {
        const e = d[i]!;
        const w = e[1];
        if (w !== 1 && chunk.weights === null) chunk.weights = new Array<number>(rows.length).fill(1);
        if (w < 0) this.negatives++;
        rows.push(e[0]);
        if (chunk.weights !== null) chunk.weights.push(w);
      }
    }
    this.held += n;
    this.consolidated = false;
    if (this.held >= MIN_COMPACT && this.negatives * 4 >= this.held) this.compact();
  }

  /** Calls `visit` with every distinct row once and its (non-zero) weight. */
  forEach(visit: (row: Row, weight: number) => void): void {
    if (!this.consolidated) this.compact();
    for (const { rows, weights } of this.chunks) for (let i = 0; i < rows.length; i++) visit(rows[i]!, weights === null ? 1 : weights[i]!);
  }

  /**
   * Calls `visit` with every row as it is held, without consolidating first: a row may come more than once,
   * and with a negative weight, the sum of its weights being its weight (for callers that add them up
   * themselves: reading costs nothing beyond the visit, where forEach may first build an index of every row).
   */
  forEachEntry(visit: (row: Row, weight: number) => void): void {
    for (const { rows, weights } of this.chunks) for (let i = 0; i < rows.length; i++) visit(rows[i]!, weights === null ? 1 : weights[i]!);
  }

  /** The consolidated contents as a delta (built on each call). */
  rows(): Delta {
    const out: Delta = [];
    this.forEach((row, w) => out.push([row, w]));
    return out;
  }

  /** Number of entries held (rows, or more before a compaction). */
  get size(): number {
    return this.held;
  }

  /** One chunk of distinct rows with their summed, non-zero weights, in order of first appearance. */
  private compact(): void {
    const at = new Map<string, number>();
    const rows: Row[] = [];
    const sums: number[] = [];
    for (const chunk of this.chunks) {
      const weights = chunk.weights;
      for (let i = 0; i < chunk.rows.length; i++) {
        const row = chunk.rows[i]!;
        const w = weights === null ? 1 : weights[i]!;
        const k = rowKey(row);
        const j = at.get(k);
        if (j === undefined) {
          at.set(k, rows.length);
          rows.push(row);
          sums.push(w);
        } else sums[j]! += w;
      }
    }
    const keptRows: Row[] = [];
    const keptWeights: number[] = [];
    let allOne = true;
    for (let j = 0; j < rows.length; j++) {
      const w = sums[j]!;
      if (w === 0) continue;
      if (w !== 1) allOne = false;
      keptRows.push(rows[j]!);
      keptWeights.push(w);
    }
    this.chunks = keptRows.length ? [{ rows: keptRows, weights: allOne ? null : keptWeights, open: false }] : [];
    this.held = keptRows.length;
    this.negatives = 0;
    this.consolidated = true;
  }
}

/**
 * A step's delta for one output, consolidated as far as anyone can observe: a row never appears both
 * inserted and deleted, and no weight is zero. When every weight has the same sign there is nothing to
 * cancel, so the delta is passed on as it is (equal rows may then appear as separate entries whose
 * weights add up, which reads the same as one entry with their sum).
 */
export function consolidateStep(d: Delta): Delta {
  if (d.length <= 1) return d.length === 1 && d[0]![1] === 0 ? [] : d;
  const positive = d[0]![1] > 0;
  for (let i = 0; i < d.length; i++) {
    const w = d[i]![1];
    if (w === 0 || w > 0 !== positive) return consolidate(d);
  }
  return d;
}
