/**
 * What crosses between the server and a pipeline's worker about its storage: the settings the server derives
 * from runtime_config (control/storage-settings.ts) and sends at start, what the worker found and did at
 * start, and each checkpoint it took. Plain data only (they travel in protocol messages).
 */

export interface StorageConfig {
  /** The pipeline's storage folder (made 0700 when missing). */
  dir: string;
  /** Log every input before it is applied (exactly once across crashes). */
  inputLog: boolean;
  /** Periodic checkpoints (null: none). */
  checkpointIntervalMs: number | null;
  /** The program's fingerprint (its code and output casing): a checkpoint of another is not resumed. */
  fingerprint: string;
  programVersion: number;
}

/** What the start found and did, for the host's log and events. */
export interface StorageReport {
  /** The checkpoint resumed from (null: none usable, the pipeline started empty). */
  restored: { uuid: string; ordinal: number; created_at: string; steps: number } | null;
  /** Log records replayed after it, and the steps they took. */
  replayedRecords: number;
  replayedSteps: number;
  /** Why stored state was not resumed (another program's checkpoint), when it was not. */
  notResumed: string | null;
  /** Checkpoints passed over as damaged, each with why. */
  damaged: string[];
  /** Time the restore and replay took, in ms. */
  msecs: number;
  /** Why the storage could not be written at the start (a full disk), when it could not: the pipeline runs, inputs get 507 until it can. */
  unwritable: string | null;
}

export interface CheckpointDone {
  uuid: string;
  ordinal: number;
  bytes: number;
  msecs: number;
  steps: number;
}
