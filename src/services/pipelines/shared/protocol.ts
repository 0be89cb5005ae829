/**
 * Messages between a pipeline's host (main thread, host.ts) and its worker (pipeline-worker.ts). Only
 * plain data crosses: encoded output travels as Uint8Arrays whose buffers are transferred, never rows;
 * ingress bodies travel on a channel of their own (ingress-frames.ts), each request's End frame naming
 * how many of these messages came before it, so that a subscription sent before an ingest is in force
 * when that ingest's step runs. Requests carry an `id` the answer repeats; messages keep their order.
 * The requests the host waits on and their answers are WorkerCalls: one answer per request, found by its id.
 */
import type { QueryLimits } from './query-limits.js';
import type { RelationSchema } from '../../../engine/index.js';
import type { ConnectorAccess } from './connector-access.js';
import type { ErrorBody } from './errors.js';
import type { OutputEncoding, OutputFormat } from './encoding.js';
import type { QueryFormat } from './query-format.js';
import type { UpdateFormat } from './update-formats.js';
import type { LogLevel } from '../runner/logs.js';
import type { StepLatencySnapshot } from './step-latency.js';
import type { ClockSettings } from './clock.js';
import type { ProcessFigures } from './process-figures.js';
import type { CheckpointDone, StorageConfig, StorageReport } from './storage/storage-figures.js';

export interface WorkerConfig {
  programCode: string;
  outputCase: 'upper' | 'lower';
  /** Where connectors may reach: connector root, fetch policy, source size cap. */
  connectorAccess: ConnectorAccess;
  /** NOW()'s clock (clock.ts), from the pipeline's runtime_config; used when the program reads NOW(). */
  clock: ClockSettings;
  /** Which ad-hoc queries were cancelled (shared/query-cancel.ts): QUERY_CANCEL_SLOTS shared slots, put here by the process the worker runs in (workers/worker-process.ts), not by the host. */
  queryCancels?: SharedArrayBuffer;
  /** The ingress channel's file descriptor in the worker's process (set by ProcessWorker's dataChannel). */
  ingressFd?: number;
  /** The worker's heap limit in MiB (runtime_config.resources.memory_mb_max or the default), as its resourceLimits set it. */
  memoryMb?: number;
  /** Limits of its ad-hoc queries (shared/query-limits.ts; the defaults when absent). */
  queryLimits?: QueryLimits;
  /** Test knob: make the worker fail on its first ingest (throw, exit, or the engine's step throws), as a bug would, or its whole process die (kill). */
  fault?: 'throw' | 'exit' | 'step' | 'kill' | null;
  /** The pipeline's durable state (storage/pipeline-storage.ts); absent: state in memory only. */
  storage?: StorageConfig;
}

/** An error that an answer carries back: a FelderaError's status, body and headers. */
export interface WireError {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

export interface IngestSpec {
  table: string;
  format: 'csv' | 'json' | 'parquet';
  updateFormat: UpdateFormat;
  array: boolean;
}

export interface SnapshotSpec {
  relation: string;
  format: OutputFormat;
  query: 'table' | 'quantiles' | 'neighborhood';
  quantiles: number;
  /** The neighborhood request body as JSON text, read in the worker with parseJsonText (null when absent). */
  neighborhood: string | null;
}

export type ToWorker =
  | { t: 'resume' }
  | { t: 'pause' }
  | { t: 'subscribe'; relation: string; encoding: OutputEncoding; delta: 1 | -1 }
  | { t: 'snapshot'; id: number; spec: SnapshotSpec }
  /** An ad-hoc query (egress/adhoc.ts), answered like a snapshot with `snapshot-done`. */
  | { t: 'query'; id: number; sql: string; format: QueryFormat }
  /**
   * A `send_snapshot=true` watch stream opens: subscribes (as `subscribe` +1) and takes the relation's
   * contents at this point between steps; answered with its first `watch-snapshot-part`. The stream's end
   * is a `subscribe` -1 (and a `watch-snapshot-cancel` while parts are still owed).
   */
  | { t: 'watch-snapshot'; id: number; relation: string; encoding: OutputEncoding }
  /** The stream took the last part: the next one, please. */
  | { t: 'watch-snapshot-more'; id: number }
  | { t: 'watch-snapshot-cancel'; id: number }
  /** Opens a transaction (the host checked that none is open): ingress from here on is checked and held, not stepped. */
  | { t: 'transaction-start'; transactionId: number }
  /** Commits the open transaction as one step; answered with `transaction-committed`. */
  | { t: 'transaction-commit'; id: number }
  /** POST /clock/advance: answered with `clock-advanced` (once its step, if any, is taken). */
  | { t: 'clock-advance'; id: number; deltaMs: number | null }
  /** Write a checkpoint now (between steps); answered with `checkpoint-done`. */
  | { t: 'checkpoint'; id: number }
  /** Pause or start one declared input connector (runtime.setConnectorPaused); answered with `connector-set`. */
  | { t: 'connector-set'; id: number; endpoint: string; paused: boolean }
  | { t: 'stop' };

/** One encoded output chunk: the part after `"sequence_number":N,` as UTF-8. */
export interface WireChunk {
  bytes: Uint8Array;
  records: number;
}

export interface FileOutputStats {
  endpoint_name: string;
  config: Record<string, unknown>;
  metrics: Record<string, number>;
  fatal_error: string | null;
}

export interface InputEndpointStats {
  endpoint_name: string;
  config: Record<string, unknown>;
  metrics: {
    total_bytes: number;
    total_records: number;
    buffered_bytes: number;
    buffered_records: number;
    num_transport_errors: number;
    num_parse_errors: number;
    end_of_input: boolean;
  };
  fatal_error: string | null;
  paused: boolean;
}

/** An input endpoint's records up to `count` were all applied by step `step` (completion tokens, tokens.ts). */
export interface TokenLabel {
  endpoint: string;
  count: number;
  step: number;
}

/** An input endpoint's records up to `count` are in an open transaction, not yet applied. */
export interface HeldPosition {
  endpoint: string;
  count: number;
}

/** What the worker reports after every step and state change, and now and then (memory). */
export interface WorkerMetrics {
  state: 'Paused' | 'Running' | 'Terminated';
  buffered_input_records: number;
  total_input_records: number;
  total_processed_records: number;
  total_completed_steps: number;
  state_size_records: number;
  pipeline_complete: boolean;
  /** The worker's V8 heap (committed) plus memory outside it held by its objects. */
  memory_bytes: number;
  /** Resident memory of the pipeline's process (the worker, its relay thread and Node's runtime). */
  process_rss_bytes: number;
  heap_used_bytes: number;
  /** The worker thread's busy time: its event loop's active time, in ms. */
  busy_msecs: number;
  /** CPU time of the pipeline's whole process (user + system, all its threads), in ms: stats' cpu_msecs. */
  process_cpu_msecs: number;
  /** The pipeline process's other figures for /metrics (process-figures.ts; null: not known). */
  process: ProcessFigures | null;
  /** Time the engine spent in steps, in ms (busy_msecs also counts parsing, encoding and messages). */
  step_msecs: number;
  inputs: InputEndpointStats[];
  file_outputs: FileOutputStats[];
  /** Records the open transaction holds (null: no transaction open in the worker). */
  transaction_records: number | null;
  /** The recent steps' latency (step-latency.ts); absent before the worker's first report. */
  step_latency?: StepLatencySnapshot;
}

export type FromWorker =
  /** Initialized; `storage`: what the start restored and replayed (null without storage). */
  | { t: 'ready'; tables: RelationSchema[]; views: RelationSchema[]; metrics: WorkerMetrics; storage: StorageReport | null }
  /** Answers `checkpoint`: written (`checkpoint`), or why not (`error`). */
  | { t: 'checkpoint-done'; id: number; checkpoint: CheckpointDone | null; error: WireError | null }
  /** A checkpoint the worker took of its own accord (periodic, or after the connectors' data). */
  | { t: 'checkpointed'; checkpoint: CheckpointDone; periodic: boolean }
  | { t: 'checkpoint-failed'; error: string }
  | { t: 'init-failed'; error: WireError }
  /** A step's changes for the watch streams of (relation, encoding), the encoding by its key (encodingKey). */
  | { t: 'output'; relation: string; encoding: string; chunks: WireChunk[] }
  /** The watch streams of (relation, encoding) must end: a step's output for them could not be encoded. */
  | { t: 'output-end'; relation: string; encoding: string; reason: string }
  /**
   * `applied`: where the request left its table's HTTP input (null when it failed or was held); `held`: the
   * request was held by the open transaction up to this position of that input (its step is the commit's).
   */
  | { t: 'ingest-done'; id: number; error: WireError | null; applied: TokenLabel | null; held: HeldPosition | null; metrics: WorkerMetrics }
  /** The transaction's one step is taken, or refused (`error`: nothing of it applied); either way it is over. */
  | { t: 'transaction-committed'; id: number; error: WireError | null; completed: TokenLabel[]; metrics: WorkerMetrics }
  | { t: 'snapshot-done'; id: number; body: Uint8Array | null; error: WireError | null }
  /** NOW() after a `clock-advance` (ms since the epoch), or why the clock cannot be advanced. */
  | { t: 'clock-advanced'; id: number; nowMs: number | null; error: WireError | null; metrics: WorkerMetrics }
  /** Part of a watch stream's snapshot (chunks of at most CHUNK_RECORDS records); `done` on the last one. */
  | { t: 'watch-snapshot-part'; id: number; chunks: WireChunk[]; done: boolean; error: WireError | null }
  | { t: 'metrics'; metrics: WorkerMetrics }
  /** A generating connector (nexmark, datagen) applied records up to `completed` (or reached its end). */
  | { t: 'connector-progress'; completed: TokenLabel[]; metrics: WorkerMetrics }
  /** Answers `resume`, once the connectors' pending data is applied (`completed`: where that left each of them). */
  | { t: 'resumed'; metrics: WorkerMetrics; completed: TokenLabel[] }
  /** Answers `connector-set`: done (`completed`: where the data a started connector had queued left it), or why not. */
  | { t: 'connector-set'; id: number; error: WireError | null; completed: TokenLabel[]; metrics: WorkerMetrics }
  | { t: 'log'; level: LogLevel; message: string }
  /** The engine failed on a step (a bug, not bad input): the pipeline must stop; `outOfMemory`: a step was stopped as it filled the heap (step-memory.ts). */
  | { t: 'fatal'; message: string; outOfMemory?: boolean }
  | { t: 'stopped' };

/**
 * The requests the host waits on, each with the one answer that repeats its `id`. An ingest's request goes as
 * ingress frames (ingress-frames.ts: Begin carries the id), the others as ToWorker messages of the same name.
 */
export interface WorkerCalls {
  ingest: Extract<FromWorker, { t: 'ingest-done' }>;
  snapshot: Extract<FromWorker, { t: 'snapshot-done' }>;
  query: Extract<FromWorker, { t: 'snapshot-done' }>;
  'transaction-commit': Extract<FromWorker, { t: 'transaction-committed' }>;
  'clock-advance': Extract<FromWorker, { t: 'clock-advanced' }>;
  checkpoint: Extract<FromWorker, { t: 'checkpoint-done' }>;
  'connector-set': Extract<FromWorker, { t: 'connector-set' }>;
}

export type WorkerCall = keyof WorkerCalls;
export type WorkerAnswer = WorkerCalls[WorkerCall];
/** The other messages of the worker: events and reports nobody asked for by id. */
export type WorkerEvent = Exclude<FromWorker, WorkerAnswer>;

/** Every answer's message type (a Record, so that the compiler sees one missing). */
const ANSWER_TYPES: Record<WorkerAnswer['t'], true> = {
  'ingest-done': true,
  'snapshot-done': true,
  'transaction-committed': true,
  'clock-advanced': true,
  'checkpoint-done': true,
  'connector-set': true,
};

export function isAnswer(m: FromWorker): m is WorkerAnswer {
  return Object.hasOwn(ANSWER_TYPES, m.t);
}
