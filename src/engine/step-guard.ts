/**
 * A step's guard: a check the caller of a circuit may give it (CircuitOptions.guard), called while a step
 * runs, at least once per GUARD_ROWS rows produced by the operators whose output can be far larger than
 * their input (joins), and once per GUARD_WORK characters of string work reported by the functions whose
 * cost grows with their text (regular expressions, LIKE, strings built: workDone), so that a step of few
 * rows but long texts is checked too. stepRowsBuilt() tells the guard the rows the step has built so far. The check
 * throws to stop the step (e.g. when memory or time runs short); the error it throws is what step() throws.
 *
 * Rules: one step runs at a time in a thread (steps are synchronous), so the guard of the running step is
 * module state, set for the step's duration only; with no guard, counting rows or work costs one comparison.
 * A step stopped by its guard leaves its circuit unusable (it is not rebuilt: rebuilding would run the
 * same work again); the guard is meant for throwaway circuits such as an ad-hoc query's.
 */

/** Rows produced between two calls of the guard. */
export const GUARD_ROWS = 16_384;
/** Characters of string work between two calls of the guard (some milliseconds of regex matching). */
export const GUARD_WORK = 4 * 1024 * 1024;

type Guard = () => void;

let active: Guard | null = null;
let countdown = GUARD_ROWS;
let workCountdown = GUARD_WORK;
let built = 0;

/** Thrown through step() (wrapping the guard's own error, as `cause`) so that the circuit knows not to rebuild. */
export class StepStopped extends Error {
  constructor(override readonly cause: unknown) {
    super('the step was stopped by its guard', { cause });
  }
}

function callGuard(guard: Guard): void {
  try {
    guard();
  } catch (err) {
    throw new StepStopped(err);
  }
}

/** Operators: `n` rows were produced; calls the running step's guard once GUARD_ROWS have been. */
export function rowsProduced(n: number): void {
  if (active === null) return;
  built += n;
  countdown -= n;
  if (countdown > 0) return;
  countdown = GUARD_ROWS;
  callGuard(active);
}

/** Functions: `units` characters of work were done (a text matched, a string built); calls the guard once GUARD_WORK have been. */
export function workDone(units: number): void {
  if (active === null) return;
  workCountdown -= units;
  if (workCountdown > 0) return;
  workCountdown = GUARD_WORK;
  callGuard(active);
}

/** Rows the running (guarded) step has built so far: its input rows, the pairs its joins looked at, the rows its maps made. */
export function stepRowsBuilt(): number {
  return built;
}

/** Runs `fn` (a step) with `guard` as the running step's guard. */
export function guarded<T>(guard: Guard | undefined, fn: () => T): T {
  if (guard === undefined) return fn();
  const outer = { active, countdown, workCountdown, built };
  active = guard;
  countdown = GUARD_ROWS;
  workCountdown = GUARD_WORK;
  built = 0;
  try {
    return fn();
  } finally {
    ({ active, countdown, workCountdown, built } = outer);
  }
}
