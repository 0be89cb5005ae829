/**
 * How much memory an ad-hoc query may take in its pipeline's worker. An ad-hoc query is computed in the
 * pipeline's worker, beside the pipeline's state; a query whose result (or whose joins' work) is huge must
 * be refused as the query's fault, not run the worker out of memory (which would fail the pipeline and lose
 * its state).
 *
 * Rules: the query may run while the worker's live heap stays under QUERY_HEAP_SHARE of the worker's heap
 * limit (runtime_config.resources.memory_mb_max); the check runs as the query's joins produce rows (the
 * engine's step guard) and as its answer is written out row by row (a row's weight expands to that many
 * rows), every CHECK_ROWS rows. An answer built outside the heap (the Arrow buffers of `arrow_ipc` and `parquet`)
 * counts its bytes with the heap, checked at each batch. Over the share: 400 AdHocQueryError naming the limit;
 * the pipeline is untouched.
 * The same checks stop a query whose client went away (`cancelled`, query-cancel.ts): it is refused the
 * same way, and nothing of it is applied.
 */
import { getHeapStatistics } from 'node:v8';
import { liveHeapBytes, usedHeapBytes } from '../live-heap.js';

/** The share of the worker's heap limit the heap may reach while a query runs. */
export const QUERY_HEAP_SHARE = 0.6;
/** Rows written between two checks when expanding an answer. */
const CHECK_ROWS = 16_384;

export interface QueryGuard {
  /** Throws the query's refusal when its client went away or the heap is over the share. */
  check(): void;
  /** `n` more rows were written out: checks every CHECK_ROWS rows. */
  rows(n: number): void;
  /** `n` more bytes of answer are held outside the heap (Arrow buffers): they count with the heap, checked now. */
  bytes(n: number): void;
}

/**
 * A guard for one query; `refuse` makes the query's error (adhoc.ts: a 400 AdHocQueryError) from a reason;
 * `cancelled` says whether the query's client went away; `memoryMb` is the worker's memory_mb_max (the old
 * generation's limit, which is what runs out: V8's heap_size_limit, used when it is not given, adds the
 * young generation's room, so at small limits 60% of it was more than the limit itself).
 */
export function queryGuard(refuse: (reason: string) => Error, cancelled: () => boolean = () => false, memoryMb: number | null = null, subject = 'The query'): QueryGuard {
  const limit = memoryMb !== null ? memoryMb * 1024 * 1024 : getHeapStatistics().heap_size_limit;
  const max = limit * QUERY_HEAP_SHARE;
  let countdown = CHECK_ROWS;
  const checkCancelled = (): void => {
    if (cancelled()) throw refuse('The query was cancelled: its client closed the connection before the answer; nothing was changed');
  };
  let outside = 0;
  const check = (): void => {
    checkCancelled();
    if (usedHeapBytes() + outside <= max || liveHeapBytes() + outside <= max) return; // garbage of earlier work does not refuse a query
    const mb = Math.round(limit / (1024 * 1024));
    throw refuse(
      `${subject} needs more memory than the pipeline can spare: its work went past ${Math.round(QUERY_HEAP_SHARE * 100)}% of the pipeline's heap limit of ${mb} MiB (set by runtime_config.resources.memory_mb_max); nothing was changed. Narrow it (a WHERE, a LIMIT, an aggregate) or raise the limit`,
    );
  };
  return {
    check,
    rows(n: number): void {
      countdown -= n;
      if (countdown > 0) return;
      countdown = CHECK_ROWS;
      check();
    },
    bytes(n: number): void {
      outside += n;
      check();
    },
  };
}
