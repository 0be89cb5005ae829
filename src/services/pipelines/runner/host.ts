/**
 * A deployed pipeline as the main thread holds it: the pipeline's worker thread (worker/pipeline-worker.ts,
 * with its own heap limit), the watch streams, and the last figures the worker reported. The main thread
 * only moves bytes: ingress bodies go to the worker as they come off the client's socket, on a pipe of
 * their own straight to the worker's thread (shared/ingress-frames.ts; past MAX_QUEUED_BYTES not yet
 * taken by the worker, the body's reading waits), encoded output comes back as bytes and is framed for each
 * watch stream here.
 *
 * Rules: a worker that runs out of memory, throws, exits or reports an engine failure fails the
 * pipeline once (onFail with a deployment_error); from then on every waiting request is answered
 * with that error, watch streams end, and the worker is gone. Nothing here waits for the worker to
 * answer a stats request or a heartbeat: a big step in the worker never stalls the main thread.
 * A transaction's state (open, committing, none) is kept here, so that its errors and stats answer at
 * once; its input is held in the worker (runtime.ts). A transaction does not outlive its pipeline's run.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RelationSchema } from '../../../engine/index.js';
import { ProcessWorker, OUT_OF_MEMORY } from '../../workers/process-worker.js';
import { siblingModule } from '../../workers/spawn.js';
import type { ConnectorAccess } from '../shared/connector-access.js';
import { encodingKey } from '../shared/encoding.js';
import { QUERY_CANCEL_SLOTS, cancelMark } from '../shared/query-cancel.js';
import type { EgressConfig } from '../control/egress-config.js';
import type { QueryFormat } from '../shared/query-format.js';
import { Watcher } from './watch.js';
import { FelderaError, Errors, type ErrorBody } from '../shared/errors.js';
import type { LogLevel } from './logs.js';
import type { ProgramSchema } from '../shared/names.js';
import { TokenBook, type CompletionToken, type TokenStatus } from '../control/tokens.js';
import { clockSettings, type ClockSettings } from '../shared/clock.js';
import { FrameKind, abortFrame, beginFrame, endFrame, frameHeader } from '../shared/ingress-frames.js';
import type { CheckpointDone, StorageConfig, StorageReport } from '../shared/storage/storage-figures.js';
import {
  isAnswer,
  type FromWorker,
  type IngestSpec,
  type SnapshotSpec,
  type ToWorker,
  type WireError,
  type WorkerAnswer,
  type WorkerCall,
  type WorkerCalls,
  type WorkerConfig,
  type WorkerEvent,
  type WorkerMetrics,
} from '../shared/protocol.js';
import type { QueryLimits } from '../shared/query-limits.js';

/** Heap limit of a pipeline's worker when runtime_config.resources.memory_mb_max is not set. */
export const DEFAULT_MEMORY_MB = 2048;
/**
 * Ingress bytes written to the worker's channel but not yet taken by it (held by reference, in the channel's
 * queue) before the request body is read further: the body keeps coming while the worker parses.
 */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;
/**
 * Share of a pipeline's memory limit that the bodies of its ingress requests may take together while they
 * are read, parsed and waiting for their steps: past it, newer requests wait (their bodies unread, the
 * client held by TCP) until older ones are applied; the oldest request never waits. The worker's heap
 * limit does not bound what parsed bodies hold (the compact batches live outside the heap), so without
 * this, requests arriving together took memory in proportion to their number.
 */
export const INGRESS_MEMORY_SHARE = 1 / 8;
/** How long a worker may take to close its output files on shutdown before it is ended. */
const STOP_TIMEOUT_MS = 5000;

export type HostState = 'Paused' | 'Running' | 'Terminated';

export interface HostOptions {
  programCode: string;
  outputCase: 'upper' | 'lower';
  programVersion: number;
  memoryMb: number;
  /** Bytes of ingress bodies in progress together beyond which newer requests wait (default: INGRESS_MEMORY_SHARE of memoryMb). */
  ingressBudgetBytes?: number;
  keepAliveMs: number;
  /** Per-watcher bounds on chunks and bytes written but not yet taken by the socket (runner/watch.ts). */
  watchMaxChunks?: number;
  watchMaxBytes?: number;
  fault?: WorkerConfig['fault'];
  /** Limits of the pipeline's ad-hoc queries (shared/query-limits.ts; the defaults when absent). */
  queryLimits?: QueryLimits;
  /** NOW()'s clock settings (clock.ts; default: one-second resolution, wall clock). */
  clock?: ClockSettings;
  /** Where the pipeline's connectors may reach (plain data: it goes to the worker as it is). */
  connectorAccess: ConnectorAccess;
  log: (level: LogLevel, message: string) => void;
  /** The running pipeline failed (after a successful init): called once with the deployment_error. */
  onFail: (error: ErrorBody) => void;
  /** The pipeline's durable state (storage/pipeline-storage.ts); absent: in memory only. */
  storage?: StorageConfig;
}

/** Today's Feldera checkpoint_status: the last sequence number written and the last failure ever. */
export interface CheckpointStatus {
  success: number | null;
  failure: { sequence_number: number; error: string; failed_at: string } | null;
}

interface Pending<T> {
  resolve: (v: T) => void;
  reject: (e: Error) => void;
}

/** A request waiting for its answer: the caller's result made from the answer, or its rejection. */
interface PendingCall {
  kind: WorkerCall;
  settle: (answer: WorkerAnswer) => void;
  reject: (e: Error) => void;
}

function emptyMetrics(): WorkerMetrics {
  return {
    state: 'Paused',
    buffered_input_records: 0,
    total_input_records: 0,
    total_processed_records: 0,
    total_completed_steps: 0,
    state_size_records: 0,
    pipeline_complete: false,
    memory_bytes: 0,
    process_rss_bytes: 0,
    heap_used_bytes: 0,
    busy_msecs: 0,
    process_cpu_msecs: 0,
    process: null,
    step_msecs: 0,
    transaction_records: null,
    inputs: [],
    file_outputs: [],
  };
}

/** Today's Feldera transaction phases as stats report them (transaction_status). */
export type TransactionStatus = 'NoTransaction' | 'TransactionInProgress' | 'CommitInProgress';

export interface HostTransaction {
  id: number;
  startedAt: number;
  /** When its commit began (null while open). */
  commitStartedAt: number | null;
}

const TransactionErrors = {
  inProgress: () => new FelderaError(409, 'TransactionInProgress', 'Cannot perform this operation while there is a transaction in progress'),
  noneInProgress: () => new FelderaError(400, 'NoTransactionInProgress', 'This operation requires an active transaction, but none is currently in progress'),
};

function toApiError(e: WireError): FelderaError {
  return new FelderaError(e.status, e.body.error_code, e.body.message, e.body.details, e.headers ?? {});
}

/** A snapshot's or an ad-hoc query's body, or its error. */
function answerBody(a: WorkerCalls['snapshot']): Buffer {
  if (a.error || !a.body) throw a.error ? toApiError(a.error) : Errors.terminating();
  return Buffer.from(a.body.buffer, a.body.byteOffset, a.body.byteLength);
}

/** The error a request waiting on a failed pipeline gets. */
function failureError(body: ErrorBody): FelderaError {
  return new FelderaError(500, body.error_code, body.message, body.details);
}

/** Errors that say the pipeline's process is gone (rather than that its engine failed). */
const PROCESS_GONE = new Set(['ERR_WORKER_PROCESS_ENDED', 'EPIPE', 'ECONNRESET']);

export class PipelineHost {
  state: HostState = 'Paused';
  readonly startedAt = Date.now();
  /** This run of the pipeline (a new one at every start): Feldera's incarnation_uuid. */
  readonly incarnation = randomUUID();
  readonly programVersion: number;
  readonly memoryMb: number;
  program: ProgramSchema = { tables: [], views: [] };
  metrics: WorkerMetrics = emptyMetrics();
  /** Why the pipeline failed, once it has. */
  failure: ErrorBody | null = null;
  private readonly worker: ProcessWorker;
  private readonly watchersByKey = new Map<string, Set<Watcher>>();
  private readonly waiters = new Set<Pending<void>>();
  /** Requests waiting for their answers, by id (one id space for every kind). */
  private readonly calls = new Map<number, PendingCall>();
  /** What the start restored and replayed from storage (null: no storage). */
  storageReport: StorageReport | null = null;
  /** Checkpoints asked for in this run (today's Feldera: sequence numbers from 0) and where they stand. */
  readonly checkpointStatus: CheckpointStatus = { success: null, failure: null };
  private nextCheckpoint = 0;
  /** The newest checkpoint written in this run (asked for, periodic or the worker's own). */
  lastCheckpoint: CheckpointDone | null = null;
  /** The open (or committing) transaction, and the last id given in this run. */
  transaction: HostTransaction | null = null;
  private lastTransactionId = 0;
  /** send_snapshot watch streams whose snapshot is still being sent, by the id the worker knows them by. */
  private readonly snapshotWatchers = new Map<number, Watcher>();
  /** Messages posted to the worker so far (an ingress request's End frame names how many came before it). */
  private posted = 0;
  private readonly wakers = new Set<() => void>();
  /** Body bytes of the ingress requests taken in and not yet applied, and those requests' ids, oldest first. */
  private ingressBytes = 0;
  private readonly ingressOrder: number[] = [];
  private nextId = 1;
  private initialized = false;
  private initWaiter: Pending<void> | null = null;
  private readonly initPromise: Promise<void>;
  private stopping = false;
  private exited = false;
  private readonly exitPromise: Promise<void>;
  private stopped: (() => void) | null = null;
  private keepAlive: NodeJS.Timeout | null = null;
  /** Callers of resume() waiting for the worker's answer, in order. */
  private resumed: (() => void)[] = [];
  private readonly termination = new AbortController();
  /** This incarnation's completion tokens (a new book on every start). */
  private readonly tokens = new TokenBook(this.incarnation);
  /** Records each declared input connector read (at init; all of it is applied when the pipeline first runs). */
  private readonly connectorRecords = new Map<string, number>();
  /** Aborted (with the error requests get) once the pipeline shuts down or fails. */
  readonly terminated: AbortSignal = this.termination.signal;

  constructor(private readonly opts: HostOptions) {
    this.programVersion = opts.programVersion;
    this.memoryMb = opts.memoryMb;
    this.initPromise = new Promise<void>((resolve, reject) => (this.initWaiter = { resolve, reject }));
    this.initPromise.catch(() => {});
    const config: WorkerConfig = {
      programCode: opts.programCode,
      outputCase: opts.outputCase,
      connectorAccess: opts.connectorAccess,
      memoryMb: opts.memoryMb,
      fault: opts.fault ?? null,
      queryLimits: opts.queryLimits,
      clock: opts.clock ?? clockSettings({}),
      ...(opts.storage ? { storage: opts.storage } : {}),
    };
    this.worker = new ProcessWorker(siblingModule(import.meta.url, '../worker/pipeline-worker'), {
      workerData: { ...config },
      resourceLimits: { maxOldGenerationSizeMb: opts.memoryMb },
      sharedSlots: { field: 'queryCancels', length: QUERY_CANCEL_SLOTS },
      dataChannel: { field: 'ingressFd' },
    });
    this.worker.data!.on('drain', () => this.wake());
    this.worker.on('message', (m: FromWorker) => this.onMessage(m));
    this.worker.on('error', (err: Error & { code?: string }) => this.fail(this.classify(err)));
    this.exitPromise = new Promise<void>((resolve) =>
      this.worker.once('exit', (code) => {
        this.exited = true;
        resolve();
        if (!this.stopping)
          this.fail({
            message: `The pipeline's worker exited unexpectedly (exit code ${code}).`,
            error_code: 'RuntimeError.WorkerPanic',
            details: { exit_code: code },
          });
      }),
    );
  }

  private classify(err: Error & { code?: string }): ErrorBody {
    if (err?.code === OUT_OF_MEMORY)
      return {
        message: `The pipeline ran out of memory: its worker reached the limit of ${this.memoryMb} MiB (runtime_config.resources.memory_mb_max) and was stopped.`,
        error_code: 'RuntimeError.OutOfMemory',
        details: { memory_mb_max: this.memoryMb, error: err.message },
      };
    const message = err?.message ?? String(err);
    return {
      message: `The pipeline's worker failed with an unexpected error: ${message}`,
      error_code: 'RuntimeError.WorkerPanic',
      // the process died (killed, crashed) rather than the engine failing on a step: the manager may start it again.
      // A write to its ingress channel can find the process gone (EPIPE, ECONNRESET) before its exit is seen.
      details: PROCESS_GONE.has(err?.code ?? '') ? { error: message, process_ended: true } : { error: message },
    };
  }

  private post(msg: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (this.exited || this.failure) return;
    this.posted++;
    this.worker.postMessage(msg, transfer);
  }

  /** Bytes on the ingress channel (written together, so that no other frame comes between them). */
  private writeFrame(...parts: Uint8Array[]): void {
    if (this.exited || this.failure) return;
    const data = this.worker.data!;
    data.cork();
    for (const part of parts) data.write(part);
    data.uncork();
  }

  /**
   * Sends a request (`send` gets its id) and waits for the answer that repeats the id; `read` makes the
   * caller's result of the answer (or throws its error). When the pipeline ends first, the result rejects.
   */
  private call<K extends WorkerCall, R>(kind: K, send: (id: number) => void, read: (answer: WorkerCalls[K]) => R): { id: number; result: Promise<R> } {
    const id = this.nextId++;
    const result = new Promise<R>((resolve, reject) => {
      const settle = (answer: WorkerAnswer) => {
        try {
          resolve(read(answer as WorkerCalls[K]));
        } catch (err) {
          reject(err as Error);
        }
      };
      this.calls.set(id, { kind, settle, reject });
    });
    send(id);
    return { id, result };
  }

  private onMessage(m: FromWorker): void {
    // every report and most answers carry the worker's latest figures
    if ('metrics' in m) this.metrics = m.metrics;
    if (isAnswer(m)) this.onAnswer(m);
    else this.onEvent(m);
  }

  /** An answer: what it changes here whether or not its caller still waits (tokens, the transaction), then the caller's result. */
  private onAnswer(m: WorkerAnswer): void {
    if (m.t === 'ingest-done' && m.applied) this.tokens.complete(m.applied.endpoint, m.applied.count, m.applied.step);
    if (m.t === 'transaction-committed') {
      for (const l of m.completed) this.tokens.complete(l.endpoint, l.count, l.step);
      this.transaction = null;
    }
    // a started connector's queued data was applied: its tokens complete
    if (m.t === 'connector-set') for (const l of m.completed) this.tokens.complete(l.endpoint, l.count, l.step);
    const call = this.calls.get(m.id);
    this.calls.delete(m.id);
    call?.settle(m);
  }

  private onEvent(m: WorkerEvent): void {
    switch (m.t) {
      case 'ready':
        this.program = { tables: m.tables, views: m.views };
        for (const ep of m.metrics.inputs) {
          this.connectorRecords.set(ep.endpoint_name, ep.metrics.buffered_records + ep.metrics.total_records);
          this.tokens.endpointId(ep.endpoint_name);
        }
        this.storageReport = m.storage;
        this.initialized = true;
        this.initWaiter?.resolve();
        return;
      case 'checkpointed':
        this.lastCheckpoint = m.checkpoint;
        return;
      case 'checkpoint-failed':
        return;
      case 'init-failed':
        this.initWaiter?.reject(toApiError(m.error));
        return;
      case 'output': {
        const set = this.watchersByKey.get(key(m.relation, m.encoding));
        if (!set) return;
        for (const w of set) for (const c of m.chunks) w.send({ data: c.bytes, records: c.records });
        return;
      }
      case 'output-end': {
        const set = this.watchersByKey.get(key(m.relation, m.encoding));
        if (!set) return;
        for (const w of [...set]) {
          this.opts.log('ERROR', `output endpoint '${w.endpointName}' ended: a step's changes to '${m.relation}' cannot be sent on it: ${m.reason}`);
          w.end();
        }
        return;
      }
      case 'watch-snapshot-part': {
        const w = this.snapshotWatchers.get(m.id);
        if (!w) return;
        if (m.error) {
          this.snapshotWatchers.delete(m.id);
          this.opts.log('ERROR', `output endpoint '${w.endpointName}': its snapshot could not be read: ${m.error.body.message}`);
          w.end();
          return;
        }
        if (m.done) this.snapshotWatchers.delete(m.id);
        const chunks = m.chunks.map((c) => ({ data: c.bytes, records: c.records }));
        w.snapshotPart(chunks, m.done, () => this.post({ t: 'watch-snapshot-more', id: m.id }));
        return;
      }
      case 'metrics':
        return;
      case 'connector-progress':
        for (const l of m.completed) {
          this.connectorRecords.set(l.endpoint, l.count);
          this.tokens.complete(l.endpoint, l.count, l.step);
        }
        return;
      case 'resumed':
        for (const l of m.completed) this.tokens.complete(l.endpoint, l.count, l.step);
        this.resumed.shift()?.();
        return;
      case 'log':
        this.opts.log(m.level, m.message);
        return;
      case 'fatal':
        // a step stopped as it filled the heap: the same failure as a worker that reached its limit
        if (m.outOfMemory) return this.fail(this.classify(Object.assign(new Error(m.message), { code: OUT_OF_MEMORY })));
        this.fail({
          message: `The pipeline failed while processing input: ${m.message}`,
          error_code: 'RuntimeError.WorkerPanic',
          details: { error: m.message },
        });
        return;
      case 'stopped':
        this.stopped?.();
        return;
    }
  }

  /** Initializing: resolves once the worker compiled the program and read its connectors. */
  async init(): Promise<void> {
    await this.initPromise;
    this.keepAlive = setInterval(() => this.tick(), Math.max(50, Math.floor(this.opts.keepAliveMs / 3)));
    this.keepAlive.unref();
  }

  /** Resolves once the worker runs (or the pipeline ended meanwhile). */
  resume(): Promise<void> {
    if (this.state === 'Terminated') return Promise.resolve();
    this.state = 'Running';
    const resumed = new Promise<void>((resolve) => this.resumed.push(resolve));
    this.post({ t: 'resume' });
    for (const w of this.waiters) w.resolve();
    this.waiters.clear();
    return resumed;
  }

  pause(): void {
    if (this.state !== 'Running') return;
    this.state = 'Paused';
    this.post({ t: 'pause' });
  }

  /** Resolves when the pipeline runs; rejects when it shuts down or fails first. */
  waitUntilRunning(): Promise<void> {
    if (this.state === 'Running') return Promise.resolve();
    if (this.state === 'Terminated') return Promise.reject(this.terminatedError());
    return new Promise((resolve, reject) => this.waiters.add({ resolve, reject }));
  }

  private terminatedError(): FelderaError {
    return this.failure ? failureError(this.failure) : Errors.terminating();
  }

  /**
   * One ingress request: the body's bytes go to the worker as they arrive; resolves when the worker
   * applied them as one step, with the completion token of the table's HTTP input at that point; rejects
   * with its error (nothing applied). `tooLarge` is thrown (and the request abandoned) when the body
   * grows beyond `limit` bytes.
   */
  async ingest(spec: IngestSpec, body: AsyncIterable<Uint8Array> | Uint8Array | null, limit: number, tooLarge: () => Error): Promise<string> {
    if (this.state === 'Terminated') throw this.terminatedError();
    const { id, result: done } = this.call(
      'ingest',
      (id) => this.writeFrame(beginFrame(id, spec)),
      (a) => {
        if (a.error) throw toApiError(a.error);
        if (a.applied) return this.tokens.token(a.applied.endpoint, a.applied.count);
        // held by the open transaction: in progress until the commit's step completes it
        if (a.held) return this.tokens.token(a.held.endpoint, a.held.count);
        throw Errors.terminating();
      },
    );
    done.catch(() => {});
    // this request's share of the pipeline's ingress memory, given back once it is applied (or abandoned)
    let taken = 0;
    this.ingressOrder.push(id);
    const giveBack = () => {
      this.ingressBytes -= taken;
      taken = 0;
      const at = this.ingressOrder.indexOf(id);
      if (at >= 0) this.ingressOrder.splice(at, 1);
      this.wake();
    };
    void done.then(giveBack, giveBack);
    const budget = this.opts.ingressBudgetBytes ?? this.memoryMb * 1024 * 1024 * INGRESS_MEMORY_SHARE;
    const channel = this.worker.data!;
    try {
      let total = 0;
      const parts: AsyncIterable<Uint8Array> | Uint8Array[] = body === null ? [] : body instanceof Uint8Array ? [body] : body;
      for await (const chunk of parts) {
        total += chunk.byteLength;
        if (total > limit) throw tooLarge();
        while (this.ingressOrder[0] !== id && this.ingressBytes + chunk.byteLength > budget && !this.ended) await new Promise<void>((r) => this.wakers.add(r));
        if (this.ended) throw this.terminatedError();
        this.ingressBytes += chunk.byteLength;
        taken += chunk.byteLength;
        // the chunk as it came (the socket's buffers are not reused), to the worker's thread at once
        this.writeFrame(frameHeader(FrameKind.Chunk, id, chunk.byteLength), chunk);
        // the channel's backpressure: past MAX_QUEUED_BYTES on their way, the body is read further once the worker took them
        while (channel.writableLength > MAX_QUEUED_BYTES && !this.ended) await new Promise<void>((r) => this.wakers.add(r));
        if (this.ended) throw this.terminatedError();
      }
      this.writeFrame(endFrame(id, this.posted));
    } catch (err) {
      this.calls.delete(id);
      this.writeFrame(abortFrame(id));
      giveBack();
      throw err;
    }
    return done;
  }

  /** A completion token of a declared input connector (`TABLE.connector`) for what it has read; null if there is none such. */
  connectorToken(endpointName: string): string | null {
    const count = this.connectorRecords.get(endpointName);
    return count === undefined ? null : this.tokens.token(endpointName, count);
  }

  /** Where a token of this pipeline stands, with the steps completed so far (stats' total_completed_steps). */
  completionStatus(token: CompletionToken): TokenStatus & { incarnation: string; completedSteps: number } {
    return { ...this.tokens.status(token), incarnation: this.tokens.incarnation, completedSteps: this.metrics.total_completed_steps };
  }

  private get ended(): boolean {
    return this.state === 'Terminated';
  }

  private wake(): void {
    const ws = [...this.wakers];
    this.wakers.clear();
    for (const w of ws) w();
  }

  /** A snapshot body, computed by the worker. */
  snapshot(spec: SnapshotSpec): Promise<Buffer> {
    if (this.state === 'Terminated') return Promise.reject(this.terminatedError());
    return this.call('snapshot', (id) => this.post({ t: 'snapshot', id, spec }), answerBody).result;
  }

  /**
   * An ad-hoc query's answer body, computed by the worker from the current contents. When `gone` aborts
   * (the client closed its connection) before the answer, the worker stops the query at its next check
   * and the promise rejects with the query's refusal.
   */
  query(sql: string, format: QueryFormat, gone?: AbortSignal): Promise<Buffer> {
    if (this.state === 'Terminated') return Promise.reject(this.terminatedError());
    const { id, result: p } = this.call('query', (id) => this.post({ t: 'query', id, sql, format }), answerBody);
    if (gone) {
      const cancel = () => this.cancelQuery(id);
      if (gone.aborted) cancel();
      else {
        gone.addEventListener('abort', cancel, { once: true });
        void p.finally(() => gone.removeEventListener('abort', cancel)).catch(() => {});
      }
    }
    return p;
  }

  /** Tells the worker that the ad-hoc query of request `id` is not wanted any more (shared/query-cancel.ts). */
  private cancelQuery(id: number): void {
    const { index, value } = cancelMark(id);
    this.worker.store(index, value);
  }

  /**
   * POST /clock/advance: resolves with NOW() (ms since the epoch) once the worker moved the clock and took
   * its step (running) or holds the value for the next one (paused); rejects with the worker's 400 when the
   * program does not read NOW() or the clock is not http-driven.
   */
  advanceClock(deltaMs: number | null): Promise<number> {
    if (this.state === 'Terminated') return Promise.reject(this.terminatedError());
    return this.call(
      'clock-advance',
      (id) => this.post({ t: 'clock-advance', id, deltaMs }),
      (a) => {
        if (a.error || a.nowMs === null) throw a.error ? toApiError(a.error) : Errors.terminating();
        return a.nowMs;
      },
    ).result;
  }

  /**
   * Pauses or starts a declared input connector (`TABLE.connector`): resolves once the worker has done it (and
   * kept it in storage); rejects with 404 UnknownInputEndpoint for a name that is none.
   */
  setConnectorPaused(endpoint: string, paused: boolean): Promise<void> {
    if (this.state === 'Terminated') return Promise.reject(this.terminatedError());
    return this.call(
      'connector-set',
      (id) => this.post({ t: 'connector-set', id, endpoint, paused }),
      (a) => {
        if (a.error) throw toApiError(a.error);
      },
    ).result;
  }

  /** Where transactions stand (stats' transaction_status). */
  get transactionStatus(): TransactionStatus {
    if (this.transaction === null) return 'NoTransaction';
    return this.transaction.commitStartedAt === null ? 'TransactionInProgress' : 'CommitInProgress';
  }

  /**
   * Opens a transaction (today's Feldera /start_transaction): answers its id (1, 2, ... in this run). From
   * here on ingress is checked and held by the worker until the commit. 409 TransactionInProgress while one
   * is open or committing.
   */
  startTransaction(): number {
    if (this.state === 'Terminated') throw this.terminatedError();
    if (this.transaction !== null) throw TransactionErrors.inProgress();
    const id = ++this.lastTransactionId;
    this.transaction = { id, startedAt: Date.now(), commitStartedAt: null };
    this.post({ t: 'transaction-start', transactionId: id });
    return id;
  }

  /**
   * Commits the open transaction: resolves once the worker applied everything it held as one step (stats
   * show CommitInProgress until then); rejects with 422 StepRefused when the engine refused that step
   * (nothing of it applied, the transaction is over either way). 400 NoTransactionInProgress when no
   * transaction is open (or its commit already began).
   */
  commitTransaction(): Promise<void> {
    if (this.state === 'Terminated') return Promise.reject(this.terminatedError());
    const txn = this.transaction;
    if (txn === null || txn.commitStartedAt !== null) return Promise.reject(TransactionErrors.noneInProgress());
    txn.commitStartedAt = Date.now();
    return this.call(
      'transaction-commit',
      (id) => this.post({ t: 'transaction-commit', id }),
      (a) => {
        if (a.error) throw toApiError(a.error);
      },
    ).result;
  }

  /**
   * A watch stream of `relation`, written as `config` says (control/egress-config.ts). With `sendSnapshot` (today's
   * send_snapshot=true) it starts with the relation's current contents: the worker subscribes it and takes
   * them in one message, between steps.
   */
  addWatcher(relation: RelationSchema, config: EgressConfig, res: ServerResponse, endpointName = `api-watch-${relation.name}-${randomUUID()}`): Watcher {
    const { encoding, backpressure, sendSnapshot } = config;
    const k = key(relation.name, encodingKey(encoding));
    const snapshotId = sendSnapshot ? this.nextId++ : 0;
    const w = new Watcher(
      endpointName,
      relation,
      encoding.format,
      backpressure,
      res,
      (watcher, reason) => {
        if (this.snapshotWatchers.delete(snapshotId)) this.post({ t: 'watch-snapshot-cancel', id: snapshotId });
        if (this.watchersByKey.get(k)?.delete(watcher)) this.post({ t: 'subscribe', relation: relation.name, encoding, delta: -1 });
        this.opts.log('DEBUG', `output endpoint '${watcher.endpointName}' closed: ${reason}`);
      },
      (watcher) =>
        this.opts.log(
          'WARN',
          `output endpoint '${watcher.endpointName}' is not keeping up: ${watcher.backpressure ? 'closing the stream (backpressure=true)' : 'dropping a chunk (backpressure=false)'}`,
        ),
      { maxPendingChunks: this.opts.watchMaxChunks, maxPendingBytes: this.opts.watchMaxBytes },
      sendSnapshot,
      sendSnapshot || config.snapshotField === true,
    );
    w.formatConfig = config.formatConfig;
    let set = this.watchersByKey.get(k);
    if (!set) {
      set = new Set();
      this.watchersByKey.set(k, set);
    }
    set.add(w);
    // subscribed before the response head goes out: any ingress the client sends after seeing it is seen
    if (sendSnapshot) {
      this.snapshotWatchers.set(snapshotId, w);
      this.post({ t: 'watch-snapshot', id: snapshotId, relation: relation.name, encoding });
    } else this.post({ t: 'subscribe', relation: relation.name, encoding, delta: 1 });
    w.open();
    this.opts.log('DEBUG', `output endpoint '${w.endpointName}' opened${sendSnapshot ? ' (snapshot first)' : ''}`);
    return w;
  }

  *watchers(): Iterable<Watcher> {
    for (const set of this.watchersByKey.values()) yield* set;
  }

  private tick(): void {
    const now = Date.now();
    for (const w of this.watchers()) w.heartbeat(now, this.opts.keepAliveMs);
  }

  get pipelineComplete(): boolean {
    return this.metrics.pipeline_complete;
  }

  /** Ends watch streams and fails every waiting request with `err`. */
  private terminate(err: () => Error): void {
    this.state = 'Terminated';
    this.termination.abort(err());
    if (this.keepAlive) clearInterval(this.keepAlive);
    for (const w of [...this.watchers()]) w.end();
    this.watchersByKey.clear();
    this.snapshotWatchers.clear();
    for (const w of this.waiters) w.reject(err());
    this.waiters.clear();
    for (const [id, call] of this.calls) {
      // a query still running would hold the worker's stop: it is not wanted any more
      if (call.kind === 'query') this.cancelQuery(id);
      call.reject(err());
    }
    this.calls.clear();
    // an open transaction goes with the run: its held input was never applied
    this.transaction = null;
    this.initWaiter?.reject(err());
    for (const r of this.resumed.splice(0)) r();
    this.wake();
  }

  /** Ends the pipeline from outside (the server's memory budget), as a failure of its own with `body` as its deployment_error. */
  /**
   * Asks the worker for a checkpoint (today's Feldera POST /checkpoint): answers its sequence number at once
   * and the checkpoint once written (it rejects with the reason when it cannot be: checkpoint_status notes it).
   */
  checkpoint(): { sequence: number; written: Promise<CheckpointDone> } {
    const sequence = this.nextCheckpoint++;
    const written =
      this.failure || this.stopping || this.exited
        ? Promise.reject(this.failure ? failureError(this.failure) : Errors.terminating())
        : this.call(
            'checkpoint',
            (id) => this.post({ t: 'checkpoint', id }),
            (a): CheckpointDone => {
              if (a.checkpoint) {
                this.lastCheckpoint = a.checkpoint;
                this.checkpointStatus.success = sequence;
                return a.checkpoint;
              }
              const error = a.error ? toApiError(a.error) : Errors.terminating();
              this.checkpointStatus.failure = { sequence_number: sequence, error: error.message, failed_at: new Date().toISOString() };
              throw error;
            },
          ).result;
    written.catch(() => {});
    return { sequence, written };
  }

  failWith(body: ErrorBody): void {
    this.fail(body);
  }

  private fail(body: ErrorBody): void {
    if (this.failure || this.stopping) return;
    this.failure = body;
    this.opts.log('ERROR', body.message);
    this.terminate(() => failureError(body));
    void this.worker.terminate();
    if (this.initialized) this.opts.onFail(body);
  }

  /** Stops the worker (it closes its output files first); ends watch streams, fails waiting requests. */
  async shutdown(): Promise<void> {
    if (this.stopping) return this.exitPromise;
    this.stopping = true;
    if (!this.failure) this.terminate(() => Errors.terminating());
    if (!this.exited) {
      const stopped = new Promise<void>((resolve) => (this.stopped = resolve));
      this.worker.postMessage({ t: 'stop' } satisfies ToWorker);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([stopped, this.exitPromise, new Promise<void>((r) => (timer = setTimeout(r, STOP_TIMEOUT_MS)))]);
      clearTimeout(timer);
      await this.worker.terminate();
    }
    await this.exitPromise;
  }
}

/** Watch streams by (relation, encoding key): those that share a step's encoded chunks. */
function key(relation: string, encoding: string): string {
  return `${encoding}\u0000${relation}`;
}
