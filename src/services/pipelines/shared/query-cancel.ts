/**
 * Cancelling an ad-hoc query whose client went away. An ad-hoc query runs in its pipeline's worker, and
 * while it runs the worker serves nothing else of that pipeline (ingress and stats wait behind it); a
 * client that closed its connection (Ctrl-C in `ops pipe query`, a script's timeout) no longer wants the
 * answer, so its query stops at its guard's next check (query-memory.ts: every 16,384 join pairs looked
 * at or rows written out) and the pipeline goes on with what waited.
 *
 * Rules: the worker reads QUERY_CANCEL_SLOTS 32-bit slots of shared memory, given to it when it starts by
 * the process it runs in (workers/worker-process.ts), whose thread writes them at the host's word while the
 * worker computes. The host cancels request `id` by having its mark (id + 1, so that a slot's initial 0
 * names no request) written into slot id % QUERY_CANCEL_SLOTS (cancelMark); the worker asks whether the slot
 * holds that mark. Ids grow by one a request, so a slot holds the latest mark written to it: a cancel is
 * lost only when more than QUERY_CANCEL_SLOTS requests of one pipeline are outstanding, and then the query
 * runs to its end, as it would have without cancelling. Reads and writes are Atomics.
 */

/** Slots shared by a pipeline's host and worker. */
export const QUERY_CANCEL_SLOTS = 64;

const mark = (id: number): number => (id + 1) | 0;

/** Host: the slot to write, and its value, that say the query of request `id` is no longer wanted. */
export function cancelMark(id: number): { index: number; value: number } {
  return { index: id % QUERY_CANCEL_SLOTS, value: mark(id) };
}

/** Worker: whether the query of request `id` was cancelled. */
export function isCancelled(slots: Int32Array, id: number): boolean {
  return Atomics.load(slots, id % QUERY_CANCEL_SLOTS) === mark(id);
}
