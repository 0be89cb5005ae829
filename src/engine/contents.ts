/**
 * The integrated contents of an output relation (what a snapshot reads), kept as a log of step deltas
 * that is consolidated only when deletions make it worth it. An insert-only relation costs one array
 * push per step and no hashing at all; with deletions, the log is compacted once the entries appended
 * since the last compaction include enough deletes to shrink it, so the work per change stays constant
 * on average and the log holds at most a bounded fraction of entries that cancel out.
 */
import { consolidate, type Delta } from './ops/zset.js';

/** Logs shorter than this are never compacted on the fly (reading them is cheap anyway). */
const MIN_COMPACT = 1024;

export class RelationContents {
  private log: Delta[] = [];
  private entries = 0;
  /** Negative entries appended since the last compaction. */
  private negatives = 0;
  /** Whether the log is one consolidated delta (nothing appended since the last compaction). */
  private consolidated = true;

  append(d: Delta): void {
    if (!d.length) return;
    this.log.push(d);
    this.entries += d.length;
    this.consolidated = false;
    for (let i = 0; i < d.length; i++) if (d[i]![1] < 0) this.negatives++;
    if (this.entries >= MIN_COMPACT && this.negatives * 4 >= this.entries) this.compact();
  }

  /** The consolidated contents: every distinct row once, with its (non-zero) weight. */
  rows(): Delta {
    if (!this.consolidated) this.compact();
    return this.log[0] ?? [];
  }

  /** Number of entries held (rows, or more before a compaction). */
  get size(): number {
    return this.entries;
  }

  private compact(): void {
    const all = this.log.length === 1 ? this.log[0]! : this.log.flat(1);
    const merged = consolidate(all);
    this.log = merged.length ? [merged] : [];
    this.entries = merged.length;
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
