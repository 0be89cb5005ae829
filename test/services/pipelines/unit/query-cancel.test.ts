/** The cancel slots shared by a pipeline's host and worker (egress/query-cancel.ts). */
import { describe, expect, it } from 'vitest';
import { cancelQuery, isCancelled, newCancelSlots, QUERY_CANCEL_SLOTS } from '../../../../src/services/pipelines/egress/query-cancel.js';

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

  it('the worker sees what the host wrote, through memory shared between threads', async () => {
    const { Worker } = await import('node:worker_threads');
    const shared = newCancelSlots();
    cancelQuery(new Int32Array(shared), 42);
    const code = `const { workerData, parentPort } = require('node:worker_threads');
const slots = new Int32Array(workerData);
parentPort.postMessage([Atomics.load(slots, 42 % ${QUERY_CANCEL_SLOTS}), Atomics.load(slots, 41 % ${QUERY_CANCEL_SLOTS})]);`;
    const w = new Worker(code, { eval: true, workerData: shared });
    const seen = await new Promise<number[]>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
    await w.terminate();
    expect(seen).toEqual([43, 0]); // the mark of request 42, and nothing for 41
  });
});
