/**
 * A step's guard: a check the caller of a circuit may give it (CircuitOptions.guard), called while a step
 * runs, at least once per GUARD_ROWS rows produced by the operators whose output can be far larger than
 * their input (joins). The check throws to stop the step (e.g. when memory runs short); the error it
 * throws is what step() throws.
 *
 * Rules: one step runs at a time in a thread (steps are synchronous), so the guard of the running step is
 * module state, set for the step's duration only; with no guard, counting rows costs one comparison.
 * A step stopped by its guard leaves its circuit unusable (it is not rebuilt: rebuilding would run the
 * same work again); the guard is meant for throwaway circuits such as an ad-hoc query's.
 */

/** Rows produced between two calls of the guard. */
export const GUARD_ROWS = 16_384;

let active: (() => void) | null = null;
let countdown = GUARD_ROWS;

/** Thrown through step() (wrapping the guard's own error, as `cause`) so that the circuit knows not to rebuild. */
export class StepStopped extends Error {
  constructor(override readonly cause: unknown) {
    super('the step was stopped by its guard', { cause });
  }
}

/** Operators: `n` rows were produced; calls the running step's guard once GUARD_ROWS have been. */
export function rowsProduced(n: number): void {
  if (active === null) return;
  countdown -= n;
  if (countdown > 0) return;
  countdown = GUARD_ROWS;
  try {
    active();
  } catch (err) {
    throw new StepStopped(err);
  }
}

/** Runs `fn` (a step) with `guard` as the running step's guard. */
export function guarded<T>(guard: (() => void) | undefined, fn: () => T): T {
  if (guard === undefined) return fn();
  const outer = active;
  active = guard;
  countdown = GUARD_ROWS;
  try {
    return fn();
  } finally {
    active = outer;
  }
}
