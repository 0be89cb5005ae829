/**
 * The entry of a pipeline's worker thread: compiles the program from its source, builds the circuit,
 * reads the input connectors, and then serves its host's messages (protocol.ts) one at a time: ingress
 * bodies arrive as byte chunks on a channel of their own (ingress-frames.ts, a pipe this thread reads
 * itself) and are parsed as they come and applied here, watch output is encoded here and sent
 * back as bytes, snapshots are answered here. Nothing of the main thread's heap is needed.
 *
 * Rules: an ingress request is one step, all of it or nothing (while a transaction is open: checked and
 * held, and the commit is one step of everything held); a bad input is an answer with an error, never a
 * failure of the worker; an engine failure on a step is reported as `fatal` (the host then
 * fails the pipeline and ends this worker).
 */
import { Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { compileProgram } from './compiler.js';
import { ConnectorError } from './connectors/input.js';
import type { EncodedChunk } from '../shared/encoding.js';
import { answerSnapshot } from './egress/snapshot.js';
import { SnapshotStream } from './egress/snapshot-stream.js';
import { answerQuery, badQuery } from './egress/adhoc.js';
import { QUERY_CANCEL_SLOTS, isCancelled } from '../shared/query-cancel.js';
import { queryGuard } from './egress/query-memory.js';
import { DEFAULT_QUERY_LIMITS } from '../shared/query-limits.js';
import { answerInsert, parseInsert } from './ingress/adhoc-insert.js';
import { FelderaError, Errors } from '../shared/errors.js';
import { PipelineRuntime, type InputEndpoint } from './runtime.js';
import { workerMetrics } from './worker-metrics.js';
import { IngestJob } from './ingest-job.js';
import { FrameReader } from '../shared/ingress-frames.js';
import { EndGate } from './end-gate.js';
import { StepMemoryExhausted } from './step-memory.js';
import { WatchSnapshots } from './watch-snapshots.js';
import { ClockTicker } from './clock-ticker.js';
import { PipelineClock } from '../shared/clock.js';
import { ClockErrors } from '../shared/clock-errors.js';
import { WorkerCpuProfile } from './cpu-profile.js';
import type { FromWorker, HeldPosition, IngestSpec, TokenLabel, ToWorker, WireChunk, WireError, WorkerConfig } from '../shared/protocol.js';

type IngestSpecOf = IngestSpec;
import type { JsonValue, RelationSchema } from '../../../engine/index.js';
import { PipelineStorage, storageWriteError } from './storage/pipeline-storage.js';
import { readPausedConnectors, writePausedConnectors } from './storage/connector-pause.js';
import type { StorageReport } from '../shared/storage/storage-figures.js';
import type { LogRecord } from './storage/input-log.js';

const port = parentPort!;
const config = workerData as WorkerConfig;
const cpuProfile = new WorkerCpuProfile();
const queryCancels = new Int32Array(config.queryCancels ?? new SharedArrayBuffer(QUERY_CANCEL_SLOTS * Int32Array.BYTES_PER_ELEMENT));

/** Reading a relation's contents for a snapshot within the worker's memory share (as an ad-hoc query's). */
function snapshotGuard(relation: string) {
  return queryGuard(
    (reason) => new FelderaError(400, 'OutputTooLarge', reason, { relation }),
    () => false,
    config.memoryMb ?? null,
    `Reading the contents of '${relation}'`,
  );
}
const METRICS_INTERVAL_MS = 1000;
/** Bytes of one read of the ingress channel (a pipe gives at most 64 KiB a read). */
const INGRESS_READ_BYTES = 64 * 1024;

function post(msg: FromWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(msg, transfer);
}

/** An error as a request's answer: ApiErrors as they are, anything else as the routes' 500 InternalError. */
function wireError(err: unknown): WireError {
  if (err instanceof FelderaError) return { status: err.status, body: err.body(), headers: err.headers };
  if (err instanceof ConnectorError) return { status: 500, body: { message: err.message, error_code: 'InitializationError', details: err.details } };
  const message = (err as Error)?.message ?? String(err);
  return { status: 500, body: { message: `Internal error: ${message}`, error_code: 'InternalError', details: null } };
}

/** Plain copies of the schemas (what the host needs to resolve names in URLs). */
function plain(rel: RelationSchema): RelationSchema {
  return {
    name: rel.name,
    caseSensitive: rel.caseSensitive,
    columns: rel.columns.map((c) => ({ name: c.name, caseSensitive: c.caseSensitive, type: c.type, nullable: c.nullable })),
    primaryKey: [...rel.primaryKey],
    materialized: rel.materialized,
    declaredMaterialized: rel.declaredMaterialized,
    local: rel.local,
    connectors: structuredClone(rel.connectors), // (a long integer of a configuration is a bigint)
    line: rel.line,
  };
}

const encoder = new TextEncoder();

/** An answer body as bytes that own their whole buffer (it is transferred to the host). */
function bytesOf(body: string | Uint8Array): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer ? body : body.slice();
}

function emit(relation: string, encoding: string, chunks: EncodedChunk[]): void {
  const wire: WireChunk[] = chunks.map((c) => ({ bytes: encoder.encode(c.data), records: c.records }));
  post(
    { t: 'output', relation, encoding, chunks: wire },
    wire.map((c) => c.bytes.buffer as ArrayBuffer),
  );
}

let rt: PipelineRuntime | null = null;
/** The pipeline's durable state (storage/pipeline-storage.ts), when it has storage. */
const storage = config.storage ? new PipelineStorage(config.storage) : null;
/** NOW()'s steps, when the program reads NOW() (clock-ticker.ts). */
let ticker: ClockTicker | null = null;
const watchSnapshots = new WatchSnapshots(post, wireError);
const jobs = new Map<number, IngestJob>();

async function init(): Promise<void> {
  const out = compileProgram(config.programCode, config.outputCase);
  if (!out.ok) {
    const first = 'messages' in out ? out.messages[0]?.message : out.systemError;
    throw new FelderaError(400, 'ProgramFailedToCompile', `The program did not compile successfully${first ? `: ${first}` : ''}`);
  }
  const clock = out.program.usesNow ? new PipelineClock(config.clock) : null;
  const startedAt = Date.now();
  const program = out.program;
  const runtime = new PipelineRuntime(out.program, {
    ...(storage
      ? {
          makeCircuit: (options) => storage.makeCircuit(program, options),
          connectorsDone: () => new Set(Object.keys(storage.restored?.connectors ?? {})),
          connectorPositions: () => storage.restored?.connectors as Record<string, JsonValue> | undefined,
          pausedConnectors: () => readPausedConnectors(config.storage!.dir),
        }
      : {}),
    clock: clock ? () => clock.now() : undefined,
    emit,
    endStreams: (relation, encoding, reason) => post({ t: 'output-end', relation, encoding, reason }),
    connectorAccess: config.connectorAccess,
    memoryMb: config.memoryMb ?? null,
    log: (level, message) => post({ t: 'log', level, message }),
    onFatal: (err) => post({ t: 'fatal', message: err.message, outOfMemory: err instanceof StepMemoryExhausted }),
    connectorProgress: (completed) => post({ t: 'connector-progress', completed, metrics: workerMetrics(runtime) }),
  });
  rt = runtime;
  const restored = storage?.restored;
  if (restored) {
    runtime.steps = restored.steps;
    runtime.totalInputRecords = runtime.totalProcessedRecords = restored.processedRecords;
    runtime.lastNow = restored.clockNow;
  }
  if (clock) ticker = new ClockTicker(clock, runtime, () => storage?.commitPoint((now) => ({ t: 'clock', now })));
  await runtime.init();
  let report: StorageReport | null = null;
  if (storage) {
    report = storage.start(runtime, (rec, inState) => replayRecord(runtime, rec, inState), startedAt);
    if (clock && runtime.lastNow !== null) clock.continueFrom(runtime.lastNow);
    const interval = storage.config.checkpointIntervalMs;
    if (interval !== null) setInterval(() => periodicCheckpoint(), interval).unref();
  }
  post({ t: 'ready', tables: out.program.tables.map(plain), views: out.program.views.filter((v) => !v.local).map(plain), metrics: workerMetrics(runtime), storage: report });
  setInterval(() => {
    if (rt && rt.state !== 'Terminated') post({ t: 'metrics', metrics: workerMetrics(rt) });
  }, METRICS_INTERVAL_MS).unref();
}

/** Ingress requests being replayed from the input log (by their id within the run that logged them). */
const replayJobs = new Map<number, IngestJob>();

/**
 * Applies one input-log record again as the run applied it (`inState`: its step is in the restored checkpoint
 * already, only a transaction's held input is taken again). Answers whether a step was taken.
 */
function replayRecord(runtime: PipelineRuntime, rec: LogRecord, inState: boolean): boolean {
  runtime.replayNow = 'now' in rec ? rec.now : null;
  try {
    switch (rec.t) {
      case 'run':
        // the run before ended here: its requests in progress and an open transaction ended with it
        replayJobs.clear();
        runtime.dropTransaction();
        return false;
      case 'job': {
        const table = runtime.program.tables.find((t) => t.name === rec.spec.table);
        if (table) replayJobs.set(rec.id, new IngestJob(rec.spec as IngestSpecOf, runtime.binding(table)));
        return false;
      }
      case 'chunk':
        replayJobs.get(rec.id)?.push(rec.bytes);
        return false;
      case 'ingest': {
        const job = replayJobs.get(rec.id);
        replayJobs.delete(rec.id);
        if (!job || (inState && rec.txn === null)) return false;
        // applied outside a transaction: one the log shows open ended without a commit (nothing of it counts)
        if (rec.txn === null) runtime.dropTransaction();
        if (rec.txn !== null && runtime.openTransaction() !== rec.txn) return false;
        const table = runtime.program.tables.find((t) => t.name === job.spec.table)!;
        const endpoint = runtime.httpEndpoint(table, job.spec.format);
        runtime.ingest(job.finish(), endpoint, job.bytes);
        return rec.txn === null;
      }
      case 'txn':
        runtime.startTransaction(rec.id);
        return false;
      case 'commit':
        if (inState) {
          runtime.transaction = null; // its step is in the checkpoint
          return false;
        }
        runtime.commitTransaction();
        return true;
      case 'clock':
        return !inState && runtime.clockStep();
      case 'insert': {
        if (inState) return false;
        const insert = parseInsert(rec.sql);
        if (insert) answerInsert(runtime, insert, 'json', config.outputCase);
        return true;
      }
      case 'refused':
        return false;
    }
  } catch {
    // refused again, as it was in the run (a step refused then is refused now: nothing applied)
    return false;
  } finally {
    runtime.replayNow = null;
  }
}

/** A checkpoint every checkpoint_interval_secs while steps were taken since the last one. */
function periodicCheckpoint(): void {
  if (!storage || !rt || rt.state === 'Terminated' || !storage.changedSinceCheckpoint(rt)) return;
  try {
    const done = storage.checkpoint(rt);
    post({ t: 'checkpointed', checkpoint: done, periodic: true });
  } catch (err) {
    post({ t: 'log', level: 'ERROR', message: `periodic checkpoint failed: ${(err as Error).message}` });
    post({ t: 'checkpoint-failed', error: (err as Error).message });
  }
}

/** The commit point of a step whose refusal (422) is noted after it in the log. */
function loggedCommit(make: (now: number | null) => LogRecord): { commit: ((now: number | null) => void) | undefined; passed: () => boolean } {
  const inner = storage?.commitPoint(make);
  let passed = false;
  return {
    commit: inner
      ? (now) => {
          inner(now);
          passed = true;
        }
      : undefined,
    passed: () => passed,
  };
}

function finishIngest(id: number): void {
  const job = jobs.get(id);
  jobs.delete(id);
  if (!job || !rt) {
    storage?.jobEnded(id, false);
    return;
  }
  if (config.fault === 'throw') {
    setImmediate(() => {
      throw new Error('injected fault: the pipeline worker threw an unexpected error');
    });
    return;
  }
  if (config.fault === 'exit') process.exit(70);
  // the whole process ends at once, as when V8 aborts it at the heap limit or the kernel's OOM killer picks it
  if (config.fault === 'kill') process.kill(process.pid, 'SIGKILL');
  if (config.fault === 'step') {
    // the engine throws something that is not an input error, as a bug in an operator would
    rt.circuit.step = () => {
      throw new TypeError('injected fault: an engine operator failed');
    };
  }
  let error: WireError | null = null;
  let endpoint: InputEndpoint | null = null;
  let applied: TokenLabel | null = null;
  let held: HeldPosition | null = null;
  try {
    if (rt.state === 'Terminated') throw Errors.terminating();
    const table = rt.program.tables.find((t) => t.name === job.spec.table);
    if (!table) throw new FelderaError(404, 'UnknownInputEndpoint', `Unknown table '${job.spec.table}'`);
    // the body is in: stats show it buffered while it is parsed and applied
    endpoint = rt.httpEndpoint(table, job.spec.format);
    endpoint.metrics.buffered_bytes += job.bytes;
    post({ t: 'metrics', metrics: workerMetrics(rt) });
    const txn = rt.openTransaction();
    const logged = loggedCommit((now) => ({ t: 'ingest', id, txn, now }));
    let outcome: 'applied' | 'held';
    try {
      outcome = rt.ingest(job.finish(), endpoint, job.bytes, logged.commit);
    } catch (err) {
      if (logged.passed()) storage?.note({ t: 'refused' });
      throw err;
    }
    const position = { endpoint: endpoint.endpoint_name, count: endpoint.metrics.total_records };
    // held by the open transaction: its step is the commit's; applied (or empty): the table's HTTP input
    // up to here is in, as of the step just taken
    if (outcome === 'held') held = position;
    else applied = { ...position, step: rt.steps };
  } catch (err) {
    error = wireError(err);
  }
  if (endpoint) endpoint.metrics.buffered_bytes -= job.bytes;
  storage?.jobEnded(id, held !== null);
  post({ t: 'ingest-done', id, error, applied, held, metrics: workerMetrics(rt) });
}

/** What `act` gives, or its error as the request's answer (`onError` sees what it threw first). */
function attempt<T>(act: () => T, onError?: (err: unknown) => void): { value: T | null; error: WireError | null } {
  try {
    return { value: act(), error: null };
  } catch (err) {
    onError?.(err);
    return { value: null, error: wireError(err) };
  }
}

/** The runtime of a pipeline that still takes requests (a terminating one refuses them). */
function liveRuntime(): PipelineRuntime {
  if (!rt || rt.state === 'Terminated') throw Errors.terminating();
  return rt;
}

/** The host's message of kind K. */
type MessageOf<K extends ToWorker['t']> = Extract<ToWorker, { t: K }>;

function resumeRun(): void {
  const completed = rt!.resume();
  // connectors' data just applied: a checkpoint keeps it (they are not read again on the next start)
  if (storage && completed.length) checkpointNow('after the input connectors were read');
  if (rt!.state === 'Running') ticker?.start();
  post({ t: 'resumed', metrics: workerMetrics(rt!), completed });
}

function pauseRun(): void {
  rt?.pause();
  ticker?.stop();
  if (rt) post({ t: 'metrics', metrics: workerMetrics(rt) });
}

function changeSubscription(m: MessageOf<'subscribe'>): void {
  rt?.subscribe(m.relation, m.encoding, m.delta);
}

function openWatchSnapshot(m: MessageOf<'watch-snapshot'>): void {
  // subscribed and the contents taken in one message, between steps: every change is in one or the other
  watchSnapshots.open(m.id, () => {
    if (!rt) throw Errors.terminating();
    return SnapshotStream.take(rt.circuit, rt.program, m.relation, m.encoding, rt.subscribe(m.relation, m.encoding, 1), snapshotGuard(m.relation));
  });
}

/** A snapshot's or a query's answer: its body (transferred) or its error. */
function postSnapshotDone(id: number, { value: body, error }: { value: Uint8Array | null; error: WireError | null }): void {
  post({ t: 'snapshot-done', id, body, error }, body ? [body.buffer as ArrayBuffer] : []);
}

function answerSnapshotRequest(m: MessageOf<'snapshot'>): void {
  const answer = attempt(() => {
    if (!rt) throw Errors.terminating();
    return answerSnapshot(rt.circuit, rt.program, m.spec, snapshotGuard(m.spec.relation));
  });
  postSnapshotDone(m.id, answer);
}

function answerQueryRequest(m: MessageOf<'query'>): void {
  const answer = attempt(
    () => {
      const runtime = liveRuntime();
      // an INSERT is a step (the host waited while paused, as for ingress); its stats go out before its answer
      const insert = parseInsert(m.sql);
      const guard = queryGuard(badQuery, () => isCancelled(queryCancels, m.id), config.memoryMb ?? null, 'The query', config.queryLimits ?? DEFAULT_QUERY_LIMITS);
      if (!insert) return bytesOf(answerQuery(runtime.circuit, runtime.program, m.sql, m.format, config.outputCase, guard));
      const logged = loggedCommit((now) => ({ t: 'insert', sql: m.sql, now }));
      let body: Uint8Array;
      try {
        body = bytesOf(answerInsert(runtime, insert, m.format, config.outputCase, guard, logged.commit));
      } catch (err) {
        if (logged.passed()) storage?.note({ t: 'refused' });
        throw err;
      }
      post({ t: 'metrics', metrics: workerMetrics(runtime) });
      return body;
    },
    (err) => logQueryRefusal(m.id, err),
  );
  postSnapshotDone(m.id, answer);
}

/** A query that ended early is logged: cancelled by its client (INFO) or past one of its limits (WARN). */
function logQueryRefusal(id: number, err: unknown): void {
  if (isCancelled(queryCancels, id)) post({ t: 'log', level: 'INFO', message: 'An ad-hoc query was cancelled: its client closed the connection before the answer' });
  else if (err instanceof FelderaError && typeof (err.details as { limit?: unknown } | null)?.limit === 'string')
    post({ t: 'log', level: 'WARN', message: `An ad-hoc query went past its limit: ${err.message}` });
}

function startTransaction(m: MessageOf<'transaction-start'>): void {
  rt!.startTransaction(m.transactionId);
  storage?.note({ t: 'txn', id: m.transactionId });
  post({ t: 'metrics', metrics: workerMetrics(rt!) });
}

function commitTransaction(m: MessageOf<'transaction-commit'>): void {
  // while paused too: Feldera's circuit keeps stepping while its connectors are paused
  const txnId = rt!.openTransaction();
  const logged = loggedCommit((now) => ({ t: 'commit', txn: txnId ?? 0, now }));
  // a commit that cannot be logged is refused with 507 (nothing applied); the transaction is over either way
  const { completed, refused } = rt!.commitTransaction(logged.commit);
  if (rt!.openTransaction() === null) storage?.transactionEnded();
  if (refused && logged.passed()) storage?.note({ t: 'refused' });
  post({ t: 'transaction-committed', id: m.id, error: refused ? wireError(refused) : null, completed, metrics: workerMetrics(rt!) });
}

function advanceClock(m: MessageOf<'clock-advance'>): void {
  const { value: nowMs, error } = attempt(() => {
    if (!ticker) throw ClockErrors.noNow();
    if (!ticker.clock.settings.httpDriven) throw ClockErrors.wallClock();
    const now = ticker.advance(m.deltaMs);
    if (now === null) throw ClockErrors.pastMax(m.deltaMs ?? ticker.clock.settings.resolutionMs);
    return now;
  });
  post({ t: 'clock-advanced', id: m.id, nowMs, error, metrics: workerMetrics(rt!) });
}

function setConnector(m: MessageOf<'connector-set'>): void {
  const { value, error } = attempt(() => {
    const runtime = liveRuntime();
    if (!runtime.hasInputConnector(m.endpoint)) throw new FelderaError(404, 'UnknownInputEndpoint', `unknown input endpoint name '${m.endpoint}'`, { endpoint_name: m.endpoint });
    if (config.storage) keepConnectorPaused(runtime, config.storage.dir, m.endpoint, m.paused);
    const completed = runtime.setConnectorPaused(m.endpoint, m.paused) ?? [];
    // a started connector's queued data just applied: a checkpoint keeps it (it is not read again)
    if (storage && completed.length) checkpointNow('after an input connector was started');
    return completed;
  });
  post({ t: 'connector-set', id: m.id, error, completed: value ?? [], metrics: workerMetrics(rt!) });
}

/** Writes the paused connectors as they will be, before it takes effect: a restart finds the connector as the answer says it is. */
function keepConnectorPaused(runtime: PipelineRuntime, dir: string, endpoint: string, paused: boolean): void {
  const next = new Set(runtime.pausedConnectors());
  if (paused) next.add(endpoint);
  else next.delete(endpoint);
  try {
    writePausedConnectors(dir, [...next]);
  } catch (err) {
    throw storageWriteError(err, `Input connector '${endpoint}' could not be ${paused ? 'paused' : 'started'}`, dir);
  }
}

function checkpointOnRequest(m: MessageOf<'checkpoint'>): void {
  const { value, error } = attempt(() => {
    const runtime = liveRuntime();
    if (!storage) throw new FelderaError(400, 'StorageRequired', 'This pipeline has no storage: checkpoints need runtime_config.storage');
    return storage.checkpoint(runtime);
  });
  post({ t: 'checkpoint-done', id: m.id, checkpoint: value, error });
}

function stopWorker(): void {
  ticker?.stop();
  void (async () => {
    jobs.clear();
    await rt?.shutdown();
    storage?.close();
    await cpuProfile.stop();
    post({ t: 'stopped' });
  })();
}

/** The host's messages (protocol.ts ToWorker), one handler a kind (a Record: the compiler sees a kind missing). */
const HANDLERS: { [K in ToWorker['t']]: (m: MessageOf<K>) => void } = {
  resume: resumeRun,
  pause: pauseRun,
  subscribe: changeSubscription,
  'watch-snapshot': openWatchSnapshot,
  'watch-snapshot-more': (m) => watchSnapshots.more(m.id),
  'watch-snapshot-cancel': (m) => watchSnapshots.cancel(m.id),
  snapshot: answerSnapshotRequest,
  query: answerQueryRequest,
  'transaction-start': startTransaction,
  'transaction-commit': commitTransaction,
  'clock-advance': advanceClock,
  'connector-set': setConnector,
  checkpoint: checkpointOnRequest,
  stop: stopWorker,
};

function handle(m: ToWorker): void {
  (HANDLERS[m.t] as (m: ToWorker) => void)(m);
}

/** A checkpoint the worker takes of its own accord (after the connectors' data); a failure is logged, not fatal. */
function checkpointNow(why: string): void {
  try {
    const done = storage!.checkpoint(rt!);
    post({ t: 'checkpointed', checkpoint: done, periodic: false });
  } catch (err) {
    post({ t: 'log', level: 'ERROR', message: `the checkpoint ${why} failed: ${(err as Error).message}` });
    post({ t: 'checkpoint-failed', error: (err as Error).message });
  }
}

function initError(err: unknown): WireError {
  if (err instanceof FelderaError || err instanceof ConnectorError) return wireError(err);
  const message = `Pipeline failed to initialize: ${(err as Error)?.message ?? String(err)}`;
  return { status: 500, body: { message, error_code: 'InitializationError', details: null } };
}

/** init() succeeded: frames are handled in the step after their read (see the chunk handler). */
let initialized = false;
const ready = init().then(
  () => (initialized = true),
  (err) => {
    post({ t: 'init-failed', error: initError(err) });
    return false;
  },
);
/** Ingress requests whose End waits for messages the host posted before it. */
const endGate = new EndGate();

/** A step on the ingress channel, once initialized (in order with the messages taken before it). */
function whenReady(act: () => void): void {
  void ready.then((ok) => {
    if (ok) act();
  });
}

port.on('message', (m: ToWorker) => {
  // a stop is served at once (it aborts connector reads still running); the rest once initialized
  if (m.t === 'stop') handle(m);
  else whenReady(() => handle(m));
  whenReady(() => endGate.message().forEach(finishIngest));
});

const frames = new FrameReader({
  begin: (id, spec) =>
    whenReady(() => {
      // the host resolved the name against this worker's own schema, so the table is there
      const table = rt!.program.tables.find((t) => t.name === spec.table)!;
      jobs.set(id, new IngestJob(spec, rt!.binding(table)));
      storage?.note({ t: 'job', id, spec });
    }),
  chunk: (id, read) => {
    // the bytes are a view of the channel's read buffer, refilled by the next read: used at once when the
    // worker is initialized (whenReady's step runs before the next read), copied while it is not
    const bytes = initialized ? read : Buffer.from(read);
    whenReady(() => {
      const job = jobs.get(id);
      if (!job) return;
      // logged as it comes (the request's `ingest` record, before its step, says it is to be applied)
      storage?.note({ t: 'chunk', id, bytes });
      job.push(bytes);
    });
  },
  end: (id, postedBefore) => whenReady(() => endGate.end(id, postedBefore).forEach(finishIngest)),
  abort: (id) =>
    whenReady(() => {
      jobs.get(id)?.dispose();
      jobs.delete(id);
      storage?.jobEnded(id, false);
      endGate.abort(id);
    }),
});
if (config.ingressFd === undefined) throw new Error('the pipeline worker has no ingress channel (ProcessWorker dataChannel)');
// every read lands in one buffer of the worker's own: no allocation outside the heap per read (IngestJob)
// (`onread` is Node's, since v12; @types/node lists it for connect() only)
const ingressOptions = {
  fd: config.ingressFd,
  readable: true,
  writable: false,
  onread: { buffer: Buffer.allocUnsafeSlow(INGRESS_READ_BYTES), callback: (n: number, buf: Uint8Array) => void frames.push(buf.subarray(0, n)) },
};
const ingress = new Socket(ingressOptions);
// the host went away: the process ends with its IPC channel (worker-process.ts)
ingress.on('error', () => {});
