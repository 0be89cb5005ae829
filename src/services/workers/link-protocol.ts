/**
 * Messages between a ProcessWorker (process-worker.ts, in the server) and the process it starts
 * (worker-process.ts), over Node's IPC channel with advanced serialization (the structured clone
 * algorithm: typed arrays, Maps and plain objects cross as they are; SharedArrayBuffers and transfers do
 * not). The worker's own messages travel inside `post` and `message` untouched.
 */

/** Shared 32-bit slots the worker thread reads with Atomics (e.g. cancelled queries), put in its workerData. */
export interface SharedSlots {
  /** The workerData field that gets the SharedArrayBuffer. */
  field: string;
  /** Number of Int32 slots. */
  length: number;
}

export interface StartSpec {
  /** The worker thread's module (file: URL). */
  entry: string;
  workerData: Record<string, unknown> | string | null;
  resourceLimits: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number; stackSizeMb?: number };
  sharedSlots: SharedSlots | null;
}

export type ToProcess =
  | { k: 'start'; spec: StartSpec }
  /** A message for the worker thread. */
  | { k: 'post'; m: unknown }
  /** Atomics.store into the shared slots. */
  | { k: 'store'; index: number; value: number };

export type FromProcess =
  /** A message of the worker thread. */
  | { k: 'message'; m: unknown }
  /** The worker thread's 'error' event (its error's name, message and code). */
  | { k: 'error'; name: string; message: string; code: string | null }
  /** The worker thread exited with `code`; the process ends right after. */
  | { k: 'exit'; code: number };
