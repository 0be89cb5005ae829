/**
 * Cancelling an ad-hoc query whose client went away. An ad-hoc query runs in its pipeline's worker, and
 * while it runs the worker serves nothing else of that pipeline (ingress and stats wait behind it); a
 * client that closed its connection (Ctrl-C in `ops pipe query`, a script's timeout) no longer wants the
 * answer, so its query stops at its guard's next check (query-memory.ts: every 16,384 join pairs looked
 * at or rows written out) and the pipeline goes on with what waited.
 *
 * Rules: the host (main thread) and the worker share QUERY_CANCEL_SLOTS 32-bit slots, a SharedArrayBuffer
 * given to the worker when it starts. The host cancels request `id` by writing its mark (id + 1, so that a
 * slot's initial 0 names no request) into slot id % QUERY_CANCEL_SLOTS; the worker asks whether the slot
 * holds that mark. Ids grow by one a request, so a slot holds the latest mark written to it: a cancel is
 * lost only when more than QUERY_CANCEL_SLOTS requests of one pipeline are outstanding, and then the query
 * runs to its end, as it would have without cancelling. Reads and writes are Atomics.
 */

/** Slots shared by a pipeline's host and worker. */
export const QUERY_CANCEL_SLOTS = 64;

/** The shared memory of a pipeline's cancel slots (created by the host, handed to the worker). */
export function newCancelSlots(): SharedArrayBuffer {
  return new SharedArrayBuffer(QUERY_CANCEL_SLOTS * Int32Array.BYTES_PER_ELEMENT);
}

const mark = (id: number): number => (id + 1) | 0;

/** Main thread: the query of request `id` is no longer wanted. */
export function cancelQuery(slots: Int32Array, id: number): void {
  Atomics.store(slots, id % QUERY_CANCEL_SLOTS, mark(id));
}

/** Worker: whether the query of request `id` was cancelled. */
export function isCancelled(slots: Int32Array, id: number): boolean {
  return Atomics.load(slots, id % QUERY_CANCEL_SLOTS) === mark(id);
}
