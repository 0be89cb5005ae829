/**
 * The integrated contents of an output relation (what a snapshot reads), kept as rows appended step by
 * step that are consolidated only when deletions make it worth it. Rows are held in chunks packed column
 * by column (packed-rows.ts: no object per row for the collector to copy and mark, about a third of the
 * memory), with their weights in a parallel array that exists only once a weight other than 1 has come,
 * so an insert-only relation costs no hashing at all. A big step's rows get a chunk of their own, packed
 * at once; small steps share a chunk of entries as they came, packed once it holds PACK_OPEN rows. Rows
 * are read in the order they came (after a compaction: each distinct row at its first place). With
 * deletions, the rows are compacted once those appended since the last compaction include enough deletes
 * to shrink them, so the work per change stays constant on average and at most a bounded fraction of what
 * is held cancels out.
 */
import { rowKey, type Row } from './types/values.js';
import { consolidate, type Delta } from './ops/zset.js';
import { PackedRows } from './packed-rows.js';

/** Contents shorter than this are never compacted on the fly (reading them is cheap anyway). */
const MIN_COMPACT = 1024;
/** A step of at least this many rows gets a chunk of its own. */
const OWN_CHUNK = 256;
/** The chunk small steps share is packed and closed once it holds this many rows. */
const PACK_OPEN = 4096;

/** Entries as they came: the chunk small steps share (`open`), or rows that do not pack (not all of one width). */
interface EntryChunk {
  entries: Delta;
  open: boolean;
}

type Chunk = PackedRows | EntryChunk;

/** A chunk of `entries` (neither the array nor its pairs are kept: a caller may go on using them): packed when they pack. */
function chunkOf(entries: Delta): Chunk {
  return PackedRows.pack(entries) ?? { entries: entries.map(([row, w]) => [row, w]), open: false };
}

/** Calls `visit` with every row of a chunk and its weight. */
function visitChunk(chunk: Chunk, visit: (row: Row, weight: number) => void): void {
  if (chunk instanceof PackedRows) for (let i = 0; i < chunk.length; i++) visit(chunk.row(i), chunk.weight(i));
  else for (const [row, w] of chunk.entries) visit(row, w);
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
    for (let i = 0; i < n; i++) if (d[i]![1] < 0) this.negatives++;
    if (n >= OWN_CHUNK) this.chunks.push(chunkOf(d));
    else {
      let chunk = this.chunks[this.chunks.length - 1];
      if (chunk === undefined || chunk instanceof PackedRows || !chunk.open) this.chunks.push((chunk = { entries: [], open: true }));
      const entries = chunk.entries;
      for (let i = 0; i < n; i++) entries.push([d[i]![0], d[i]![1]]);
      if (entries.length >= PACK_OPEN) this.chunks[this.chunks.length - 1] = chunkOf(entries);
    }
    this.held += n;
    this.consolidated = false;
    if (this.held >= MIN_COMPACT && this.negatives * 4 >= this.held) this.compact();
  }

  /** Calls `visit` with every distinct row once and its (non-zero) weight. */
  forEach(visit: (row: Row, weight: number) => void): void {
    if (!this.consolidated) this.compact();
    for (const chunk of this.chunks) visitChunk(chunk, visit);
  }

  /**
   * Calls `visit` with every row as it is held, without consolidating first: a row may come more than once,
   * and with a negative weight, the sum of its weights being its weight (for callers that add them up
   * themselves: reading costs nothing beyond the visit, where forEach may first build an index of every row).
   */
  forEachEntry(visit: (row: Row, weight: number) => void): void {
    for (const chunk of this.chunks) visitChunk(chunk, visit);
  }

  /** The consolidated contents as a delta (built on each call). */
  rows(): Delta {
    const out: Delta = [];
    this.forEach((row, w) => out.push([row, w]));
    return out;
  }

  /**
   * Keeps only the rows `keep` says yes to (bounded state: plan/retention.ts), consolidated, in their order;
   * answers how many distinct rows went.
   */
  retain(keep: (row: Row) => boolean): number {
    if (!this.consolidated) this.compact();
    const kept: Delta = [];
    let dropped = 0;
    for (const chunk of this.chunks)
      visitChunk(chunk, (row, w) => {
        if (keep(row)) kept.push([row, w]);
        else dropped++;
      });
    if (dropped === 0) return 0;
    this.chunks = kept.length ? [chunkOf(kept)] : [];
    this.held = kept.length;
    this.negatives = 0;
    this.consolidated = true;
    return dropped;
  }

  /** Number of entries held (rows, or more before a compaction). */
  get size(): number {
    return this.held;
  }

  /** One chunk of distinct rows with their summed, non-zero weights, in order of first appearance. */
  private compact(): void {
    const at = new Map<string, number>();
    const sums: Delta = [];
    for (const chunk of this.chunks)
      visitChunk(chunk, (row, w) => {
        const k = rowKey(row);
        const j = at.get(k);
        if (j === undefined) {
          at.set(k, sums.length);
          sums.push([row, w]);
        } else sums[j]![1] += w;
      });
    const kept = sums.filter((e) => e[1] !== 0);
    this.chunks = kept.length ? [chunkOf(kept)] : [];
    this.held = kept.length;
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
