/**
 * The errors of POST /v0/pipelines/{name}/clock/advance, in Feldera's words (crates/adapters/src/server.rs
 * `clock_advance`, transport/clock.rs): its pipeline answers 400 InvalidParam ("Invalid parameter: ...")
 * when the program does not read NOW() or the clock is not http-driven; a body that does not deserialize
 * is 400 (serde's message, as the other routes' bodies). Beyond Feldera: an advance that would take NOW()
 * past the largest TIMESTAMP is refused the same way (Feldera saturates).
 */
import { FelderaError, Errors } from './errors.js';

const invalidParam = (error: string): FelderaError => new FelderaError(400, 'InvalidParam', `Invalid parameter: ${error}.`, { error });

export const ClockErrors = {
  noNow: () => invalidParam("this pipeline's program does not reference `NOW()`; the clock connector is not active and cannot be advanced"),
  wallClock: () => invalidParam('clock is wall-clock driven; set dev_tweaks.now_http_driven = true to enable POST /clock/advance'),
  pastMax: (deltaMs: number) => invalidParam(`advancing the clock by ${deltaMs} ms would take NOW() past 9999-12-31 23:59:59.999, the largest TIMESTAMP`),
  /** The body as serde_json reads a ClockAdvanceRequest `{"delta_ms": u64 | null}`. */
  badBody: (reason: string) => Errors.badBody(`Json deserialize error: ${reason}`),
};
