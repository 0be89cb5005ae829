/**
 * The delivery retry schedule. Attempt 1 is immediate; attempt N (2..5) waits its delay after
 * attempt N-1 failed: 1 min, 5 min, 30 min, 2 h. After the 5th failure the delivery is failed.
 * A scale factor (`--retry-scale`) multiplies every delay so tests and demos run in seconds.
 */

export const MAX_ATTEMPTS = 5;

/** Delay before attempt N, indexed by N-1 (attempt 1 has no delay). */
export const RETRY_DELAYS_MS: readonly number[] = Object.freeze([0, 60_000, 300_000, 1_800_000, 7_200_000]);

/** A receiver must answer with a 2xx within this time. */
export const DELIVERY_TIMEOUT_MS = 5_000;

/** A source of the current time, injected so that unit tests control it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to (for unit tests). */
export class ManualClock implements Clock {
  constructor(private t: number = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(t: number): void {
    this.t = t;
  }
}

/** Checks a retry scale: a finite number > 0. Returns the error message, or null when valid. */
export function retryScaleProblem(scale: unknown): string | null {
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) {
    return 'retry scale must be a number greater than 0 (1 = the real schedule, 0.001 = a thousand times faster)';
  }
  return null;
}

/** The delay in ms before attempt `attempt` (1-based), scaled. Attempt 1 is 0. */
export function delayBeforeAttempt(attempt: number, scale = 1): number {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt > MAX_ATTEMPTS) {
    throw new RangeError(`attempt must be an integer from 1 to ${MAX_ATTEMPTS}`);
  }
  return Math.round(RETRY_DELAYS_MS[attempt - 1]! * scale);
}

/**
 * What happens after a failed attempt: `attemptsMade` failed attempts so far (>= 1), the last one
 * ending at `failedAt`. Returns the time of the next attempt, or null when the delivery is failed.
 */
export function nextAttemptAfterFailure(attemptsMade: number, failedAt: number, scale = 1): number | null {
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  return failedAt + delayBeforeAttempt(attemptsMade + 1, scale);
}

/** The whole scaled schedule as delays before attempts 1..5 (for docs, dry runs and tests). */
export function scaledSchedule(scale = 1): number[] {
  return RETRY_DELAYS_MS.map((d) => Math.round(d * scale));
}
