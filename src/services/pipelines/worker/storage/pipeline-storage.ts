/**
 * A running pipeline's durable state, on the worker's side: the checkpoint it resumes from, the replay of
 * the input log after it, the log written while it runs, and the checkpoints it takes (on request, every
 * `checkpointIntervalMs` while something changed, and before a graceful stop).
 *
 * Rules (docs/pipelines.md, "Durable pipelines"):
 * - Start: the newest checkpoint that reads back whole and was taken of this program (fingerprint) is
 *   restored; a damaged one is passed over for the one before it (said in the report). A checkpoint of
 *   another program is not applied: the pipeline starts empty and the report says why (its files are kept
 *   until the next checkpoint replaces them). Then the log is replayed from the checkpoint's replay point,
 *   exactly as the run applied it (each step with its NOW() value); a transaction never committed is dropped.
 *   When anything was replayed, a checkpoint is taken at once, so each start replays at most one interval.
 * - Running: `commitPoint` hands the runtime a function to call right before a step (or a hold in a
 *   transaction) is applied; it writes the step's record and makes the log durable, so an answer that
 *   follows means the input survives a crash. A record that cannot be written (disk full) refuses the step
 *   with 507 and nothing is applied.
 * - With `inputLog` false (fault_tolerance model "none"), nothing is logged: checkpoints alone (on request
 *   and at a graceful stop) keep the state.
 */
import { randomUUID } from 'node:crypto';
import type { Circuit, CircuitOptions, CompiledProgram } from '../../../../engine/index.js';
import { FelderaError } from '../../shared/errors.js';
import { CheckpointDamaged, listCheckpoints, pruneCheckpoints, restoreNewest, writeCheckpoint, type CheckpointMeta, type StoredCheckpoint } from '../../shared/storage/checkpoints.js';
import { InputLog, pruneLog, readLog, truncateTornTail, type LogRecord } from './input-log.js';
import type { CheckpointDone, StorageConfig, StorageReport } from '../../shared/storage/storage-figures.js';

/** A write that failed because the disk is full (or over quota): 507, naming the file's folder. */
export function storageWriteError(err: unknown, what: string, dir: string): FelderaError {
  const code = (err as NodeJS.ErrnoException)?.code;
  const full = code === 'ENOSPC' || code === 'EDQUOT';
  const message = full
    ? `${what}: the disk holding the pipeline's storage (${dir}) is full; nothing of this request was applied`
    : `${what}: the pipeline's storage (${dir}) could not be written (${(err as Error)?.message ?? String(err)}); nothing of this request was applied`;
  return new FelderaError(full ? 507 : 503, full ? 'StorageFull' : 'StorageError', message, { storage: dir, cause: code ?? null });
}

/** What the runtime is, as far as storage needs it (runtime.ts). */
export interface DurableRuntime {
  readonly circuit: Circuit;
  steps: number;
  totalInputRecords: number;
  totalProcessedRecords: number;
  /** Input connectors whose data is in the state (endpoint name -> position). */
  connectorPositions(): Record<string, unknown>;
  /** The open transaction's id, if any. */
  openTransaction(): number | null;
  /** NOW()'s value in the last step (null: none). */
  lastNow: number | null;
}

export class PipelineStorage {
  private log: InputLog | null = null;
  /** The lsn of the open transaction's `txn` record (its held input is read again on replay). */
  private txnStart: number | null = null;
  /** Requests whose body is still coming or being applied: id -> the lsn of their `job` record. */
  private readonly jobStarts = new Map<number, number>();
  /**
   * The lsns of the `job` records of requests the open transaction holds: a request's body may begin before
   * the transaction does (its `job` record then comes before the `txn` record), and replay needs it whole.
   */
  private heldJobStarts: number[] = [];
  /** The steps taken when the last checkpoint was written (a periodic one is skipped while nothing changed). */
  private checkpointedSteps = -1;
  private restoredMeta: CheckpointMeta | null = null;
  private readonly damaged: string[] = [];
  private notResumed: string | null = null;
  /** Where the log goes on when it is opened late (after a full disk at the start). */
  private nextLsn = 0;

  constructor(readonly config: StorageConfig) {}

  /**
   * The circuit to run: restored from the newest usable checkpoint of this program, else a fresh one.
   * (The runtime calls this while it is built.)
   */
  makeCircuit(program: CompiledProgram, options: CircuitOptions): Circuit {
    let foreign: StoredCheckpoint | undefined;
    const restored = restoreNewest(
      this.config.dir,
      (meta, parts) => {
        if (meta.fingerprint !== this.config.fingerprint) {
          foreign ??= { path: '', meta, bytes: 0 };
          throw new ForeignCheckpoint();
        }
        return program.restoreCircuit(parts as Iterable<never>, options);
      },
      (path, err) => {
        if (!(err instanceof ForeignCheckpoint)) this.damaged.push(err instanceof CheckpointDamaged ? err.message : `checkpoint ${path} could not be restored: ${err.message}`);
      },
    );
    if (restored) {
      this.restoredMeta = restored.checkpoint.meta;
      return restored.result;
    }
    if (foreign)
      this.notResumed = `the program changed since its checkpoint of ${foreign.meta.createdAt} (program version ${foreign.meta.programVersion}, now ${this.config.programVersion}): the pipeline starts with empty tables and views, and the next checkpoint replaces the old state`;
    return program.newCircuit(options);
  }

  /** Where the restored checkpoint left the counters and connectors (none: a fresh start). */
  get restored(): CheckpointMeta | null {
    return this.restoredMeta;
  }

  /**
   * Replays the log after the restored checkpoint through `apply` (which applies one record as the run did),
   * then opens the log for this run and, when anything was replayed, takes a checkpoint. Answers the report.
   */
  start(rt: DurableRuntime, replay: (rec: LogRecord, inState: boolean) => boolean, startedAt: number): StorageReport {
    let records = 0;
    let steps = 0;
    let next: number;
    const meta = this.restoredMeta;
    if (this.notResumed === null) {
      const from = meta ? meta.replayFrom : 0;
      const inStateBelow = meta ? meta.lsn : 0;
      truncateTornTail(this.config.dir);
      next = readLog(this.config.dir, from, (rec, lsn) => {
        records++;
        if (replay(rec, lsn < inStateBelow)) steps++;
      });
    } else next = Math.max(0, ...listCheckpoints(this.config.dir).map((c) => c.meta.lsn));
    let unwritable: string | null = null;
    this.nextLsn = next;
    if (this.config.inputLog) {
      try {
        this.log = new InputLog(this.config.dir, next);
        this.log.append({ t: 'run' });
      } catch (err) {
        // a full disk: the pipeline runs, and each input is refused (507) until its record can be written
        unwritable = storageWriteError(err, 'The input log could not be opened', this.config.dir).message;
      }
    }
    this.checkpointedSteps = rt.steps;
    if (steps > 0 || this.notResumed !== null) {
      try {
        this.checkpoint(rt);
      } catch (err) {
        // the log keeps what was replayed: the next start replays it again
        unwritable ??= (err as Error).message;
      }
    }
    return {
      restored: meta ? { uuid: meta.uuid, ordinal: meta.ordinal, created_at: meta.createdAt, steps: meta.steps } : null,
      replayedRecords: records,
      replayedSteps: steps,
      notResumed: this.notResumed,
      damaged: this.damaged,
      msecs: Date.now() - startedAt,
      unwritable,
    };
  }

  /** Logs a record that needs no sync of its own (a body's chunk, a request's start, a refusal, a transaction's start). */
  note(rec: LogRecord): void {
    if (!this.log) return;
    try {
      const lsn = this.log.append(rec);
      if (rec.t === 'txn') this.txnStart = lsn;
      else if (rec.t === 'job') this.jobStarts.set(rec.id, lsn);
    } catch {
      // the request's commit point will fail on the same disk and refuse it; a lost refusal is harmless
    }
  }

  /**
   * The function a step calls right before it is applied: writes `make(now)` and makes the log durable.
   * Throws a 507/503 FelderaError (nothing applied) when the record cannot be written. Null without a log.
   */
  commitPoint(make: (now: number | null) => LogRecord): ((now: number | null) => void) | undefined {
    if (!this.config.inputLog) return undefined;
    if (!this.log) {
      // the log could not be opened (a full disk): try again, and refuse the input while it cannot be
      try {
        this.log = new InputLog(this.config.dir, this.nextLsn);
        this.log.append({ t: 'run' });
      } catch (err) {
        this.log = null;
        const e = storageWriteError(err, 'The input could not be logged', this.config.dir);
        return () => {
          throw e;
        };
      }
    }
    const log = this.log;
    return (now) => {
      try {
        const rec = make(now);
        log.append(rec);
        log.sync();
      } catch (err) {
        throw storageWriteError(err, 'The input could not be logged', this.config.dir);
      }
    };
  }

  /** The open transaction ended (committed or dropped): replay no longer needs its records. */
  transactionEnded(): void {
    this.txnStart = null;
    this.heldJobStarts = [];
  }

  /**
   * Request `id` ended (applied, refused, aborted): replay needs its records no more, unless the open
   * transaction holds it (`held`), until that ends.
   */
  jobEnded(id: number, held: boolean): void {
    const lsn = this.jobStarts.get(id);
    this.jobStarts.delete(id);
    if (held && lsn !== undefined) this.heldJobStarts.push(lsn);
  }

  /**
   * Where the replay of a checkpoint taken now begins: at the log's end, or earlier at the first record
   * still needed: the open transaction's start, and the `job` record of every request it holds or whose
   * body is still coming (its chunks and its `ingest` record may follow the checkpoint).
   */
  private replayPoint(lsn: number, rt: DurableRuntime): number {
    let from = lsn;
    if (rt.openTransaction() !== null) {
      if (this.txnStart !== null) from = Math.min(from, this.txnStart);
      for (const at of this.heldJobStarts) from = Math.min(from, at);
    }
    for (const at of this.jobStarts.values()) from = Math.min(from, at);
    return from;
  }

  /** Whether a periodic checkpoint has something new to keep (steps were taken since the last one). */
  changedSinceCheckpoint(rt: DurableRuntime): boolean {
    return rt.steps !== this.checkpointedSteps;
  }

  /**
   * Writes a checkpoint of the runtime's state now (between steps), then starts a new log segment and drops
   * what no kept checkpoint needs. Throws a 507/503 FelderaError when it cannot be written (the previous
   * checkpoint stays the one a start resumes from).
   */
  checkpoint(rt: DurableRuntime): CheckpointDone {
    const began = performance.now();
    const lsn = this.log ? this.log.lsn : (this.restoredMeta?.lsn ?? 0);
    const meta: Omit<CheckpointMeta, 'ordinal'> = {
      uuid: randomUUID(),
      fingerprint: this.config.fingerprint,
      programVersion: this.config.programVersion,
      lsn,
      replayFrom: this.replayPoint(lsn, rt),
      steps: rt.steps,
      processedRecords: rt.totalProcessedRecords,
      createdAt: new Date().toISOString(),
      connectors: rt.connectorPositions(),
      clockNow: rt.lastNow,
    };
    let stored: StoredCheckpoint;
    try {
      stored = writeCheckpoint(this.config.dir, meta, (write) => rt.circuit.exportState(write));
    } catch (err) {
      throw storageWriteError(err, 'The checkpoint could not be written', this.config.dir);
    }
    this.checkpointedSteps = rt.steps;
    try {
      this.log?.rotate();
      pruneCheckpoints(this.config.dir);
      const kept = listCheckpoints(this.config.dir);
      const oldest = kept[kept.length - 1];
      if (oldest) pruneLog(this.config.dir, oldest.meta.replayFrom);
    } catch {
      // the checkpoint is written; what is left over is removed by a later one
    }
    return { uuid: stored.meta.uuid, ordinal: stored.meta.ordinal, bytes: stored.bytes, msecs: performance.now() - began, steps: rt.steps };
  }

  close(): void {
    try {
      this.log?.close();
    } catch {
      // closing after a failed write: nothing more can be made durable
    }
    this.log = null;
  }
}

class ForeignCheckpoint extends Error {}
