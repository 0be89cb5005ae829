/**
 * The step guard's rule (step-memory.ts), on heap figures given to it: the used heap is read at every call,
 * the live heap (a full collection) only past NEAR_SHARE and then not again until the heap grew by
 * RECHECK_SHARE; a step is stopped only when the live heap is over LIVE_SHARE; the stop is found through the
 * engine's wrapper. The guard on a real step is tested through a pipeline (isolation.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { LIVE_SHARE, NEAR_SHARE, RECHECK_SHARE, StepMemoryExhausted, memoryExhaustion, stepMemoryGuard } from '../../../../src/services/pipelines/worker/step-memory.js';

const MIB = 1024 * 1024;
const LIMIT_MB = 100;
const limit = LIMIT_MB * MIB;

function heap() {
  const h = { usedBytes: 0, liveBytes: 0, collections: 0 };
  const readers = {
    used: () => h.usedBytes,
    live: () => {
      h.collections++;
      return h.liveBytes;
    },
  };
  return { h, guard: stepMemoryGuard(LIMIT_MB, readers) };
}

describe('step memory guard', () => {
  it('reads only the used heap while it is under its share, whatever the live heap', () => {
    const { h, guard } = heap();
    h.usedBytes = NEAR_SHARE * limit - 1;
    h.liveBytes = limit;
    for (let i = 0; i < 100; i++) guard();
    expect(h.collections).toBe(0);
  });

  it('goes on when a collection shows the heap was garbage, and does not collect again until it grew', () => {
    const { h, guard } = heap();
    h.usedBytes = NEAR_SHARE * limit;
    h.liveBytes = 0.5 * limit;
    guard();
    expect(h.collections).toBe(1);
    guard();
    h.usedBytes += 0.5 * RECHECK_SHARE * limit;
    guard();
    expect(h.collections).toBe(1);
    h.usedBytes += RECHECK_SHARE * limit;
    guard();
    expect(h.collections).toBe(2);
  });

  it('stops the step when the live heap is over its share, naming the figures', () => {
    const { h, guard } = heap();
    h.usedBytes = limit;
    h.liveBytes = LIVE_SHARE * limit + MIB;
    expect(guard).toThrow(StepMemoryExhausted);
    expect(guard).toThrow(/86 MiB live after a full collection, over 85% of its limit of 100 MiB/);
  });

  it('finds its stop as thrown, or as the cause the engine wraps it in', () => {
    const stop = new StepMemoryExhausted(90 * MIB, LIMIT_MB);
    expect(memoryExhaustion(stop)).toBe(stop);
    expect(memoryExhaustion(new Error('the step was stopped by its guard', { cause: stop }))).toBe(stop);
    expect(memoryExhaustion(new Error('other'))).toBeNull();
    expect(memoryExhaustion(null)).toBeNull();
    expect(memoryExhaustion('text')).toBeNull();
  });
});
