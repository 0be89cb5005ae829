/** The cancel slots a pipeline's worker reads (egress/query-cancel.ts); their writing across processes is process-worker.test.ts's. */
import { describe, expect, it } from 'vitest';
import { cancelMark, isCancelled, QUERY_CANCEL_SLOTS } from '../../../../src/services/pipelines/shared/query-cancel.js';

const newCancelSlots = () => new SharedArrayBuffer(QUERY_CANCEL_SLOTS * Int32Array.BYTES_PER_ELEMENT);
/** What the worker's process does with the host's word. */
function cancelQuery(slots: Int32Array, id: number): void {
  const { index, value } = cancelMark(id);
  Atomics.store(slots, index, value);
}

describe('query cancel slots', () => {
  it('name no request at first (request 0 included)', () => {
    const slots = new Int32Array(newCancelSlots());
    for (let id = 0; id < 2 * QUERY_CANCEL_SLOTS; id++) expect(isCancelled(slots, id)).toBe(false);
  });

  it('a cancelled request is seen as such; the others are not', () => {
    const slots = new Int32Array(newCancelSlots());
    cancelQuery(slots, 7);
    expect(isCancelled(slots, 7)).toBe(true);
    expect(isCancelled(slots, 6)).toBe(false);
    expect(isCancelled(slots, 7 + QUERY_CANCEL_SLOTS)).toBe(false); // same slot, a later request
  });

  it('a later request on the same slot takes it over: the earlier cancel is lost, never a wrong one made', () => {
    const slots = new Int32Array(newCancelSlots());
    cancelQuery(slots, 3);
    cancelQuery(slots, 3 + QUERY_CANCEL_SLOTS);
    expect(isCancelled(slots, 3 + QUERY_CANCEL_SLOTS)).toBe(true);
    expect(isCancelled(slots, 3)).toBe(false);
  });
});
