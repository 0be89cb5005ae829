import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, ManualClock, delayBeforeAttempt, nextAttemptAfterFailure, retryScaleProblem, scaledSchedule } from '../../src/webhooks/schedule.js';

describe('retry schedule', () => {
  it('is immediate, then 1 min, 5 min, 30 min, 2 h', () => {
    expect(MAX_ATTEMPTS).toBe(5);
    expect([1, 2, 3, 4, 5].map((n) => delayBeforeAttempt(n))).toEqual([0, 60_000, 300_000, 1_800_000, 7_200_000]);
  });

  it('delays are gaps after each failure, and the 5th failure ends it', () => {
    const t = 1_000_000;
    expect(nextAttemptAfterFailure(1, t)).toBe(t + 60_000);
    expect(nextAttemptAfterFailure(2, t)).toBe(t + 300_000);
    expect(nextAttemptAfterFailure(3, t)).toBe(t + 1_800_000);
    expect(nextAttemptAfterFailure(4, t)).toBe(t + 7_200_000);
    expect(nextAttemptAfterFailure(5, t)).toBeNull();
    expect(nextAttemptAfterFailure(6, t)).toBeNull();
  });

  it('scales every delay', () => {
    expect(scaledSchedule(0.001)).toEqual([0, 60, 300, 1800, 7200]);
    expect(nextAttemptAfterFailure(1, 0, 0.5)).toBe(30_000);
  });

  it('rejects bad scales and attempt numbers', () => {
    expect(retryScaleProblem(0)).toMatch(/greater than 0/);
    expect(retryScaleProblem(-1)).not.toBeNull();
    expect(retryScaleProblem(Number.NaN)).not.toBeNull();
    expect(retryScaleProblem('1')).not.toBeNull();
    expect(retryScaleProblem(0.001)).toBeNull();
    expect(() => delayBeforeAttempt(0)).toThrow(RangeError);
    expect(() => delayBeforeAttempt(6)).toThrow(RangeError);
  });

  it('ManualClock moves only when told', () => {
    const c = new ManualClock(5);
    expect(c.now()).toBe(5);
    c.advance(10);
    expect(c.now()).toBe(15);
  });
});
