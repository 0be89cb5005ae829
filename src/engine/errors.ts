/** The errors the engine raises through its public contract (engine/api.ts re-exports them). A leaf: imports nothing. */

/** Raised by Circuit.step when an input is bad; the step is then not applied at all. */
export class EngineInputError extends Error {
  constructor(
    message: string,
    /** Index into the batch given to step(). */
    public readonly index: number,
  ) {
    super(message);
    this.name = 'EngineInputError';
  }
}

/**
 * Raised by Circuit.step when a view's computation fails for this step's input (integer overflow, integer
 * division by zero): the whole step is refused and the circuit is exactly as before it (tables, views,
 * watermarks, held emit_final rows), as if step() had not been called.
 */
export class EngineStepError extends Error {
  constructor(
    message: string,
    /** Output name of the view whose computation failed (a local view's name too). */
    public readonly view: string,
    /** The failing expression as SQL text. */
    public readonly expression: string,
    /** The SQL type the result did not fit. */
    public readonly type: string,
  ) {
    super(message);
    this.name = 'EngineStepError';
  }
}

/** A checkpoint's parts that do not fit this program (another program's, or damaged): restore refuses them. */
export class EngineStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineStateError';
  }
}

/** A value that does not fit its column's type; the message is serde-like, as Feldera's. */
export class EngineValueError extends Error {}
