/**
 * The guard of a pipeline's steps (the engine's CircuitOptions.guard): a step whose rows fill the worker's
 * heap is stopped while the worker can still answer, and the pipeline fails as out of memory at once. Without
 * it, near the heap limit V8 runs full collections back to back, each freeing little, before it ends the
 * worker with the same outcome: a 4,000 x 4,000 join in a pipeline of 2048 MiB took 24 s to fail so, and
 * takes 10 s with this guard (a 3,000 x 3,000 join, 4 s, still fits). Its share leaves room above a
 * transaction's commit (TXN_HEAP_SHARE of the same limit, transaction-memory.ts).
 *
 * Rules: the engine calls the guard every few thousand rows a step converts or its joins produce
 * (engine/step-guard.ts). Each call reads the used heap (cheap, garbage included). Only past NEAR_SHARE of
 * the limit is the live heap read, after a full collection (live-heap.ts), and then not again until the used
 * heap has grown by RECHECK_SHARE of the limit: garbage never stops a step, and a pipeline that holds much
 * live data is not collected over and over. Past LIVE_SHARE of the limit after a collection, the step is
 * stopped with StepMemoryExhausted (the circuit is then unusable: the pipeline fails). The limit is the old
 * generation's, memory_mb_max, as resourceLimits sets it.
 */
import { liveHeapBytes, usedHeapBytes } from './live-heap.js';

export const NEAR_SHARE = 0.9;
export const LIVE_SHARE = 0.85;
export const RECHECK_SHARE = 0.02;
const MIB = 1024 * 1024;

/** Why a step was stopped (the pipeline fails as out of memory). */
export class StepMemoryExhausted extends Error {
  constructor(
    readonly liveBytes: number,
    readonly limitMb: number,
  ) {
    super(`a step filled the worker's heap: ${Math.round(liveBytes / MIB)} MiB live after a full collection, over ${Math.round(LIVE_SHARE * 100)}% of its limit of ${limitMb} MiB`);
  }
}

/** Whether `err` (what a step threw) is, or wraps, a stop of this guard. */
export function memoryExhaustion(err: unknown): StepMemoryExhausted | null {
  if (err instanceof StepMemoryExhausted) return err;
  const cause = (err as { cause?: unknown } | null)?.cause;
  return cause instanceof StepMemoryExhausted ? cause : null;
}

/** The guard for a worker whose heap limit is `limitMb` (the heap's figures are injected in tests). */
export function stepMemoryGuard(limitMb: number, heap = { used: usedHeapBytes, live: liveHeapBytes }): () => void {
  const limit = limitMb * MIB;
  /** The used heap at which the live heap is read again. */
  let nextCheck = NEAR_SHARE * limit;
  return () => {
    const used = heap.used();
    if (used < nextCheck) return;
    const live = heap.live();
    if (live > LIVE_SHARE * limit) throw new StepMemoryExhausted(live, limitMb);
    nextCheck = Math.max(NEAR_SHARE * limit, used + RECHECK_SHARE * limit);
  };
}
