/**
 * The guard of an ad-hoc query: what stops it, checked while it runs in its pipeline's worker. An ad-hoc
 * query is computed in the pipeline's worker, beside the pipeline's state; a query whose result (or whose
 * joins' work) is huge must be refused as the query's fault, not run the worker out of memory (which would
 * fail the pipeline and lose its state), and a query that runs long must not hold the pipeline for ever.
 *
 * Rules: the query may run while the worker's live heap stays under QUERY_HEAP_SHARE of the worker's heap
 * limit (runtime_config.resources.memory_mb_max), within its limits (query-limits.ts: time, rows built, answer
 * rows and bytes) and while its client is there (`cancelled`, query-cancel.ts). The checks run as the query's
 * step builds rows and does string work (the engine's step guard: check()), as its input is copied in and
 * its answer written out (rows(), answer()), every CHECK_ROWS rows. An answer built outside the heap (the
 * Arrow buffers of `arrow_ipc` and `parquet`) counts its bytes with the heap (bytes()), checked at each batch.
 * Past any of them: the refusal made by `refuse` (a 400 AdHocQueryError naming the limit, with details saying
 * which); nothing of it is applied.
 */
import { getHeapStatistics } from 'node:v8';
import { stepRowsBuilt } from '../../../../engine/index.js';
import { liveHeapBytes, usedHeapBytes } from '../live-heap.js';
import { limitReasons, type QueryLimits } from '../../shared/query-limits.js';

/** The share of the worker's heap limit the heap may reach while a query runs. */
export const QUERY_HEAP_SHARE = 0.6;
/** Rows written between two checks when expanding an answer. */
const CHECK_ROWS = 16_384;

export interface QueryGuard {
  /** Throws the query's refusal when its client went away, it is past a limit, or the heap is over the share. */
  check(): void;
  /** `n` more rows were copied in or expanded: checks every CHECK_ROWS rows. */
  rows(n: number): void;
  /** One more row of the answer, of `bytes` bytes: refused past the answer's limits; checks every CHECK_ROWS rows. */
  answer(bytes: number): void;
  /** `n` more bytes of answer are held outside the heap (Arrow buffers): they count with the heap, checked now. */
  bytes(n: number): void;
}

/** Makes a query's error from a reason and the details of its limit. */
export type Refuse = (reason: string, details?: Record<string, unknown>) => Error;

/**
 * A guard for one query; `refuse` makes the query's error (adhoc.ts: a 400 AdHocQueryError) from a reason;
 * `cancelled` says whether the query's client went away; `memoryMb` is the worker's memory_mb_max (the old
 * generation's limit, which is what runs out: V8's heap_size_limit, used when it is not given, adds the
 * young generation's room, so at small limits 60% of it was more than the limit itself); `limits` are the
 * query's time, row and answer limits (none when null: a snapshot's guard), its time counted from now.
 */
export function queryGuard(refuse: Refuse, cancelled: () => boolean = () => false, memoryMb: number | null = null, subject = 'The query', limits: QueryLimits | null = null): QueryGuard {
  const limit = memoryMb !== null ? memoryMb * 1024 * 1024 : getHeapStatistics().heap_size_limit;
  const max = limit * QUERY_HEAP_SHARE;
  const deadline = limits ? Date.now() + limits.timeoutMs : Infinity;
  let countdown = CHECK_ROWS;
  let answerRows = 0;
  let answerBytes = 0;
  const stop = (r: { message: string; details: Record<string, unknown> }): never => {
    throw refuse(r.message, r.details);
  };
  const checkCancelled = (): void => {
    if (cancelled()) throw refuse('The query was cancelled: its client closed the connection before the answer; nothing was changed');
  };
  let outside = 0;
  const check = (): void => {
    checkCancelled();
    if (limits) {
      if (Date.now() > deadline) stop(limitReasons.time(limits));
      const built = stepRowsBuilt(); // 0 outside the query's step
      if (built > limits.maxRows) stop(limitReasons.rows(limits, built));
    }
    if (usedHeapBytes() + outside <= max || liveHeapBytes() + outside <= max) return; // garbage of earlier work does not refuse a query
    const mb = Math.round(limit / (1024 * 1024));
    throw refuse(
      `${subject} needs more memory than the pipeline can spare: its work went past ${Math.round(QUERY_HEAP_SHARE * 100)}% of the pipeline's heap limit of ${mb} MiB (set by runtime_config.resources.memory_mb_max); nothing was changed. Narrow it (a WHERE, a LIMIT, an aggregate) or raise the limit`,
    );
  };
  const rows = (n: number): void => {
    countdown -= n;
    if (countdown > 0) return;
    countdown = CHECK_ROWS;
    check();
  };
  return {
    check,
    rows,
    answer(bytes: number): void {
      answerRows++;
      answerBytes += bytes;
      if (limits && answerRows > limits.maxRows) stop(limitReasons.answerRows(limits));
      if (limits && answerBytes > limits.maxBytes) stop(limitReasons.answerBytes(limits));
      rows(1);
    },
    bytes(n: number): void {
      outside += n;
      check();
    },
  };
}
