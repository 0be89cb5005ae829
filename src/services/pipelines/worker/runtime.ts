/**
 * A deployed pipeline's engine side, as it runs inside the pipeline's worker (worker/pipeline-worker.ts):
 * one engine circuit for the program it was started with, its input endpoints (connectors and HTTP
 * ingress), its output files, and counters for stats. Every ingress request is one atomic step
 * (Circuit.step), except while a transaction is open: then each request is checked when it arrives and
 * held (held-input.ts), and the commit applies all of it as one step. A step's changes are encoded once per (relation, encoding) that the host subscribed
 * to and handed to `emit`; the host frames them for its watch streams without waiting for them.
 */
import {
  EngineInputError,
  EngineStepError,
  type Circuit,
  type CircuitOptions,
  type CompiledProgram,
  type InputChange,
  type JsonValue,
  type RelationSchema,
  type StepResult,
} from '../../../engine/index.js';
import { connectorEndpointName } from './compiler.js';
import type { ConnectorAccess } from '../shared/connector-access.js';
import { checkInputSource, readInputConnector, type ConnectorData } from './connectors/input.js';
import { FileOutput } from './connectors/output.js';
import { GeneratedInputs } from './connectors/generated-input.js';
import { isGeneratingConnector, openGeneratedSources } from './connectors/generated-sources.js';
import { encodeChunks, OutputTooLarge, type RecordCounter } from './egress/encode.js';
import { encodingKey, type EncodedChunk, type OutputEncoding } from '../shared/encoding.js';
import { stepOrder } from './egress/order.js';
import { FelderaError } from '../shared/errors.js';
import { fitForHolding, HeldInput } from './held-input.js';
import { admitToTransaction, CommitCostModel } from './transaction-memory.js';
import { engineName } from '../shared/names.js';
import { TableBinding } from './ingress/binding.js';
import { releaseBatches, type ParsedInput } from './ingress/parser.js';
import { parseErrorsResponse, type ParseErrorEntry } from './ingress/parse-error.js';
import type { LogLevel } from '../runner/logs.js';
import type { InputEndpointStats, TokenLabel } from '../shared/protocol.js';
import { StepLatency } from '../shared/step-latency.js';
import { memoryExhaustion, stepMemoryGuard } from './step-memory.js';
import { plainPart } from './connector-json.js';

const INPUT_REFUSED = 'The input was refused, nothing of it was applied';

export type RuntimeState = 'Paused' | 'Running' | 'Terminated';

export type InputEndpoint = InputEndpointStats;

export interface RuntimeOptions {
  /** Output of a step for a subscribed (relation, encoding), the encoding by its key (encodingKey). */
  emit: (relation: string, encoding: string, chunks: EncodedChunk[]) => void;
  /** A step's output for (relation, encoding) cannot be encoded (OutputTooLarge): its streams must end, saying why. */
  endStreams: (relation: string, encoding: string, reason: string) => void;
  log: (level: LogLevel, message: string) => void;
  /** The engine failed unexpectedly (not a bad input): the pipeline must stop. */
  onFatal?: (err: Error) => void;
  /** Where connectors may reach (connector root, fetch policy, size cap). */
  connectorAccess: ConnectorAccess;
  /** The worker's heap limit in MiB (memory_mb_max), which bounds what a transaction may hold; null: V8's own limit. */
  memoryMb?: number | null;
  /** NOW()'s value for a step (clock.ts), given to the circuit when the program reads NOW(). */
  clock?: () => number;
  /** Makes the circuit (storage: restored from a checkpoint); default: a fresh one. */
  makeCircuit?: (options: CircuitOptions) => Circuit;
  /** Input connectors whose data is in the restored state (asked when init() runs): not read again. */
  connectorsDone?: () => ReadonlySet<string>;
  /** Where generating connectors (nexmark, datagen) resume, by endpoint name (connectorPositions() of an earlier run; other entries are ignored), asked when init() runs. */
  connectorPositions?: () => Record<string, JsonValue> | undefined;
  /** A generating connector's records up to here were applied (or it ended): completion tokens move. */
  connectorProgress?: (completed: TokenLabel[]) => void;
  /** Input connectors paused by the user as stored (storage/connector-pause.ts), asked when init() runs; absent: each as its config's `paused` says. */
  pausedConnectors?: () => ReadonlySet<string> | null;
}

/**
 * Called right before a step (or a transaction's hold) is applied, after every check passed, with the value
 * NOW() has for the step (null when the program does not read it): the storage's input log writes the step
 * there (storage/pipeline-storage.ts). It may throw (a FelderaError): the step is then not applied.
 */
export type CommitPoint = (now: number | null) => void;

export class PipelineRuntime {
  state: RuntimeState = 'Paused';
  readonly startedAt = Date.now();
  readonly circuit: Circuit;
  totalInputRecords = 0;
  totalProcessedRecords = 0;
  bufferedRecords = 0;
  steps = 0;
  /** How long the engine took for the recent steps (GET /metrics' dbsp_step_latency_seconds). */
  readonly stepLatency = new StepLatency();
  /** Time the engine spent in steps since the start, in ms (stats' runtime_elapsed_msecs). */
  stepMsecs = 0;
  readonly inputs = new Map<string, InputEndpoint>();
  /** Subscribed output: relation name -> encoding key -> the encoding, its record counter and the number of watch streams the host holds. */
  private readonly subscriptions = new Map<string, Map<string, Subscription>>();
  readonly fileOutputs: FileOutput[] = [];
  private readonly bindings = new Map<RelationSchema, TableBinding>();
  private pendingConnectorData: ConnectorData[] = [];
  /** Connectors that generate their records while the pipeline runs (connectors/generated-input.ts). */
  private generated: GeneratedInputs | null = null;
  /** Aborts connector reads still running when the pipeline shuts down during initialization. */
  private readonly abort = new AbortController();

  private readonly relations = new Map<string, RelationSchema>();
  /** The open transaction's held input (null: none open, every request is a step of its own). */
  transaction: HeldInput | null = null;
  /** What held input will cost its commit (made when the first transaction holds something). */
  private commitCosts: CommitCostModel | null = null;
  /** NOW()'s value for the step being taken (read once before it, so that the input log can record it). */
  private stepNow: number | null = null;
  /** Replay of the input log: the value NOW() had for the step being replayed. */
  replayNow: number | null = null;
  /** NOW()'s value in the last step taken (null: none yet, or the program does not read it). */
  lastNow: number | null = null;

  constructor(
    readonly program: CompiledProgram,
    private readonly opts: RuntimeOptions,
  ) {
    // a step that fills the heap is stopped before V8 collects garbage for tens of seconds (step-memory.ts)
    const options: CircuitOptions = {
      ...(program.usesNow && opts.clock ? { clock: () => this.stepNow ?? opts.clock!() } : {}),
      ...(opts.memoryMb ? { guard: stepMemoryGuard(opts.memoryMb) } : {}),
    };
    this.circuit = opts.makeCircuit ? opts.makeCircuit(options) : program.newCircuit(options);
    for (const rel of [...program.tables, ...program.views]) this.relations.set(rel.name, rel);
  }

  binding(table: RelationSchema): TableBinding {
    let b = this.bindings.get(table);
    if (!b) {
      const codec = this.program.inputCodec(engineName(table));
      if (!codec) throw new Error(`no input codec for table '${table.name}'`);
      b = new TableBinding(table, codec);
      this.bindings.set(table, b);
    }
    return b;
  }

  /** Initializing: open output files and read every input connector. Throws ConnectorError. */
  async init(): Promise<void> {
    const access = this.opts.connectorAccess;
    // Every file path is checked against the connector root before any file is opened or created.
    const outputs: FileOutput[] = [];
    for (const view of this.program.views) {
      if (view.local) continue;
      for (const [i, decl] of view.connectors.entries()) {
        const out = new FileOutput(connectorEndpointName(view, decl, i), view, decl, access);
        await out.check();
        outputs.push(out);
      }
    }
    const done = this.opts.connectorsDone?.();
    const storedPaused = this.opts.pausedConnectors?.() ?? null;
    for (const table of this.program.tables)
      for (const [i, decl] of table.connectors.entries()) {
        const name = connectorEndpointName(table, decl, i);
        if (!done?.has(name) && !isGeneratingConnector(decl)) await checkInputSource(decl, name, table.name, access);
      }
    for (const out of outputs) {
      await out.open();
      this.fileOutputs.push(out);
    }
    const reads: Promise<ConnectorData>[] = [];
    for (const table of this.program.tables) {
      for (const [i, decl] of table.connectors.entries()) {
        const name = connectorEndpointName(table, decl, i);
        const declaredPaused = decl.paused === true;
        this.inputs.set(name, {
          endpoint_name: name,
          config: { stream: table.name, transport: plainPart(decl.transport), format: decl.format ? plainPart(decl.format) : null, max_queued_records: 1_000_000, paused: declaredPaused },
          metrics: zeroInputMetrics(),
          fatal_error: null,
          paused: storedPaused ? storedPaused.has(name) : declaredPaused,
        });
        // its data is in the restored state: it is not read again (a generating one goes on from its position)
        if (done?.has(name) && !isGeneratingConnector(decl)) {
          this.inputs.get(name)!.metrics.end_of_input = true;
          continue;
        }
        // generated while the pipeline runs (below), not read
        if (!isGeneratingConnector(decl)) reads.push(readInputConnector(decl, name, this.binding(table), access, this.abort.signal));
      }
    }
    const sources = await openGeneratedSources(this.program.tables, {
      binding: (t) => this.binding(t),
      endpointName: (rel, decl, i) => connectorEndpointName(rel, decl, i),
      positions: this.opts.connectorPositions?.(),
    });
    if (sources.length > 0) this.generated = this.generatedInputs(sources);
    const results = await Promise.allSettled(reads);
    if (this.state === 'Terminated') {
      // shut down while initializing
      await Promise.all(this.fileOutputs.map((o) => o.close()));
      return;
    }
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    this.pendingConnectorData = results.map((r) => (r as PromiseFulfilledResult<ConnectorData>).value);
    for (const d of this.pendingConnectorData) {
      const ep = this.inputs.get(d.endpointName)!;
      ep.metrics.total_bytes = d.bytes;
      ep.metrics.buffered_records = d.parsed.records;
      ep.metrics.buffered_bytes = d.bytes;
      this.bufferedRecords += d.parsed.records;
    }
  }

  /** Runs; returns where each connector whose data this applied (or refused) now stands, for completion tokens. */
  resume(): TokenLabel[] {
    if (this.state === 'Terminated') return [];
    this.state = 'Running';
    // Connector data is processed when the pipeline first runs (so watchers opened while paused see it).
    const completed = this.applyConnectorData();
    if (this.state === 'Running') this.generated?.start();
    return completed;
  }

  /**
   * Pauses or starts one declared input connector (today's Feldera `.../connectors/{c}/pause|start`). A paused
   * connector reads nothing more: data it read and has not applied stays queued (buffered), a generating one
   * stops generating. Started while the pipeline runs, its queued data is applied at once (answered: where that
   * left it, for completion tokens). Null: no input connector of that name (HTTP ingress is not one).
   */
  setConnectorPaused(name: string, paused: boolean): TokenLabel[] | null {
    const ep = this.inputs.get(name);
    if (!ep || !this.hasInputConnector(name)) return null;
    ep.paused = paused;
    if (paused || this.state !== 'Running') return [];
    const completed = this.applyConnectorData();
    this.generated?.wake();
    return completed;
  }

  /** Whether `name` is a declared input connector's endpoint (`TABLE.connector`; HTTP ingress is none). */
  hasInputConnector(name: string): boolean {
    return this.inputs.has(name) && !name.startsWith('api-ingress-');
  }

  /** Endpoint names of the input connectors paused by the user (what storage keeps). */
  pausedConnectors(): string[] {
    return [...this.inputs.values()].filter((ep) => ep.paused).map((ep) => ep.endpoint_name);
  }

  /** Applies the data read by connectors that are not paused (the paused ones' stays queued). */
  private applyConnectorData(): TokenLabel[] {
    const completed: TokenLabel[] = [];
    const pending = this.pendingConnectorData.filter((d) => !this.inputs.get(d.endpointName)!.paused);
    this.pendingConnectorData = this.pendingConnectorData.filter((d) => this.inputs.get(d.endpointName)!.paused);
    for (const d of pending) {
      if (this.state !== 'Running') break; // failed (or shut down) meanwhile
      const ep = this.inputs.get(d.endpointName)!;
      this.bufferedRecords -= d.parsed.records;
      ep.metrics.buffered_records = 0;
      ep.metrics.buffered_bytes = 0;
      let held = false;
      try {
        if (this.transaction !== null) {
          // a transaction is open (started while paused): the connector's data joins it, as Feldera's
          // connectors' input does; its bytes were counted when read, ingest counts them again as held
          ep.metrics.total_bytes -= d.bytes;
          held = this.ingest(d.parsed, ep, d.bytes) === 'held';
        } else {
          this.apply(d.parsed);
          ep.metrics.total_records += d.parsed.records;
        }
      } catch (err) {
        ep.fatal_error = (err as Error).message;
        ep.metrics.num_parse_errors += 1;
        this.opts.log('ERROR', `input endpoint '${d.endpointName}': ${(err as Error).message}`);
      }
      ep.metrics.end_of_input = true;
      // everything the connector read is processed (a refused batch too: nothing of it is still to come),
      // or held: then the commit's step completes it
      if (!held) completed.push({ endpoint: d.endpointName, count: d.parsed.records, step: this.steps });
    }
    return completed;
  }

  /** The loop of the generating connectors: steps while Running with no transaction open; a failure fails the pipeline. */
  private generatedInputs(sources: ConstructorParameters<typeof GeneratedInputs>[0]): GeneratedInputs {
    return new GeneratedInputs(sources, {
      canStep: () => this.state === 'Running' && this.transaction === null,
      apply: (parsed) => {
        this.apply(parsed);
        return this.steps;
      },
      steps: () => this.steps,
      endpoint: (name) => this.inputs.get(name)!,
      progress: (labels) => this.opts.connectorProgress?.(labels),
      fail: (err) => {
        this.opts.log('ERROR', err.message);
        if (this.state !== 'Terminated') this.opts.onFatal?.(err);
      },
    });
  }

  pause(): void {
    if (this.state === 'Running') this.state = 'Paused';
  }

  /**
   * A step of the clock alone (the program reads NOW(); worker/clock-ticker.ts calls it): the circuit reads
   * the clock and the views that read NOW() move to its value. A step the engine refuses (a view's
   * computation overflows at the new time) is logged and applies nothing: NOW() stays where it was until the
   * next step. Answers whether a step was taken.
   */
  clockStep(commit?: CommitPoint): boolean {
    if (!this.program.usesNow || this.state === 'Terminated') return false;
    try {
      this.step([], null, 'The clock step was refused, NOW() did not move', undefined, commit);
      return true;
    } catch (err) {
      if (err instanceof FelderaError && err.status === 422) this.opts.log('ERROR', err.message);
      return false; // anything else was reported as fatal by stepFailure
    }
  }

  /** Endpoint stats entry for HTTP ingress into a table (one per table, cumulative). */
  httpEndpoint(table: RelationSchema, format: string): InputEndpoint {
    const name = `api-ingress-${table.name}`;
    let ep = this.inputs.get(name);
    if (!ep) {
      ep = {
        endpoint_name: name,
        config: { stream: table.name, transport: { name: 'http_input', config: {} }, format: { name: format, config: {} }, max_queued_records: 1_000_000, paused: false },
        metrics: zeroInputMetrics(),
        fatal_error: null,
        paused: false,
      };
      this.inputs.set(name, ep);
    }
    return ep;
  }

  /**
   * Input of one request: applied as one step (see apply), or, while a transaction is open, checked as a
   * step would check it and held (a bad request throws the same error and nothing of it is kept; so does
   * one that would take the transaction past what its commit can apply in the pipeline's memory: 413
   * TransactionTooLarge, transaction-memory.ts). Answers 'held' or 'applied'.
   */
  ingest(parsed: ParsedInput, endpoint?: InputEndpoint, bytes = 0, commit?: CommitPoint): 'applied' | 'held' {
    const txn = this.transaction;
    if (txn === null) {
      this.apply(parsed, endpoint, bytes, commit);
      releaseBatches(parsed.input); // the step has read them: their storage is for the next request's
      return 'applied';
    }
    this.refuseParseErrors(parsed, endpoint);
    try {
      this.circuit.check(parsed.input);
    } catch (err) {
      throw this.stepFailure(err, parsed, endpoint, INPUT_REFUSED);
    }
    // the commit must be able to apply it all: a request the transaction has no room for is refused (413)
    fitForHolding(parsed.input);
    const cost = (this.commitCosts ??= new CommitCostModel(this.program)).cost(parsed.input);
    admitToTransaction(txn.commitCost, cost, { transactionId: txn.id, records: txn.records, memoryMb: this.opts.memoryMb ?? null });
    commit?.(null);
    txn.hold(parsed, endpoint, bytes, cost);
    // received and buffered, not processed until the commit
    this.totalInputRecords += parsed.records;
    this.bufferedRecords += parsed.records;
    if (endpoint) {
      endpoint.metrics.total_records += parsed.records;
      endpoint.metrics.total_bytes += bytes;
      endpoint.metrics.buffered_records += parsed.records;
      endpoint.metrics.buffered_bytes += bytes;
    }
    return 'held';
  }

  /** Opens a transaction (the caller checked that none is open). */
  startTransaction(id: number): void {
    this.transaction = new HeldInput(id);
  }

  /**
   * Commits the open transaction: everything it holds as ONE step, all or nothing. A step the engine refuses
   * (a view's computation failed) is answered as `refused` (422 StepRefused) and nothing of the transaction
   * is applied; either way the transaction is over. `completed`: where each input endpoint of the
   * transaction now stands, for completion tokens (its records are processed, applied or refused: nothing
   * of them is still to come).
   */
  commitTransaction(commit?: CommitPoint): { completed: TokenLabel[]; refused: FelderaError | null } {
    const txn = this.transaction;
    if (txn === null) return { completed: [], refused: null };
    this.transaction = null;
    this.bufferedRecords -= txn.records;
    for (const [ep, held] of txn.byEndpoint) {
      ep.metrics.buffered_records -= held.records;
      ep.metrics.buffered_bytes -= held.bytes;
    }
    const input = txn.take();
    let refused: FelderaError | null = null;
    if (txn.changes > 0) {
      try {
        this.step(input, null, 'The transaction was refused, nothing of it was applied', undefined, commit);
      } catch (err) {
        refused = err as FelderaError;
      }
    }
    this.totalProcessedRecords += txn.records;
    const completed = [...txn.byEndpoint.keys()].map((ep) => ({ endpoint: ep.endpoint_name, count: ep.metrics.total_records, step: this.steps }));
    return { completed, refused };
  }

  /**
   * Applies parsed input as one step; on any bad event nothing is applied and a ParseErrors FelderaError
   * is thrown. Returns the step result.
   */
  apply(parsed: ParsedInput, endpoint?: InputEndpoint, bytes = 0, commit?: CommitPoint): StepResult | null {
    this.refuseParseErrors(parsed, endpoint);
    if (parsed.count === 0) {
      if (endpoint) endpoint.metrics.total_bytes += bytes;
      return null;
    }
    const result = this.step(parsed.input, parsed, INPUT_REFUSED, endpoint, commit);
    this.totalInputRecords += parsed.records;
    this.totalProcessedRecords += parsed.records;
    if (endpoint) {
      endpoint.metrics.total_records += parsed.records;
      endpoint.metrics.total_bytes += bytes;
    }
    return result;
  }

  private refuseParseErrors(parsed: ParsedInput, endpoint: InputEndpoint | undefined): void {
    if (parsed.errors.length === 0) return;
    if (endpoint) endpoint.metrics.num_parse_errors += parsed.errorCount;
    throw parseErrorsResponse(parsed.errors, parsed.errorCount);
  }

  /** One engine step of `input` (one request's `parsed`, or a commit's: null), its output dispatched; throws stepFailure's error. */
  private step(input: InputChange[], parsed: ParsedInput | null, refusal: string, endpoint?: InputEndpoint, commit?: CommitPoint): StepResult {
    let result: StepResult;
    // NOW() for this step, read once: the input log records it, and a replay gives the circuit the same value
    const now = this.program.usesNow && this.opts.clock ? (this.replayNow ?? this.opts.clock()) : null;
    commit?.(now);
    const began = performance.now();
    this.stepNow = now;
    try {
      result = this.circuit.step(input);
    } catch (err) {
      throw this.stepFailure(err, parsed, endpoint, refusal);
    } finally {
      this.stepNow = null;
    }
    if (now !== null) this.lastNow = now;
    const ended = performance.now();
    this.stepLatency.record(ended - began, ended);
    this.stepMsecs += ended - began;
    this.steps++;
    this.dispatch(result);
    return result;
  }

  /**
   * The answer to an engine error: a refused step (a view's computation failed on the input: integer
   * overflow, division by zero) is 422 StepRefused and the pipeline keeps running as before (Feldera would
   * fail it); a bad input of `parsed` is a ParseErrors 400 naming its event; anything else (or a bad input
   * in a commit, which was checked when it arrived) is the engine failing, which fails the pipeline (onFatal).
   */
  private stepFailure(err: unknown, parsed: ParsedInput | null, endpoint: InputEndpoint | undefined, refusal: string): FelderaError {
    if (err instanceof EngineStepError) return new FelderaError(422, 'StepRefused', `${refusal}: ${err.message}`, { view: err.view, expression: err.expression, type: err.type });
    if (!(err instanceof EngineInputError) || parsed === null) {
      const e = memoryExhaustion(err) ?? (err instanceof Error ? err : new Error(String(err)));
      this.opts.log('ERROR', `the engine failed while processing a step: ${e.stack ?? e.message}`);
      this.opts.onFatal?.(e);
      return new FelderaError(500, 'RuntimeError.WorkerPanic', `The pipeline failed while processing the input: ${e.message}`, { error: e.message });
    }
    const ev = parsed.eventOf(err.index);
    const entry: ParseErrorEntry = {
      description: err.message,
      event_number: ev + 1,
      line: parsed.lineOf(ev),
      // the engine names the column in its message ("error parsing field 'D': ...")
      field: /^error parsing field '((?:[^']|'')*)'/.exec(err.message)?.[1] ?? null,
      invalid_bytes: null,
      invalid_text: parsed.textOf(ev),
      suggestion: null,
    };
    if (endpoint) endpoint.metrics.num_parse_errors += 1;
    return parseErrorsResponse([entry]);
  }

  private dispatch(result: StepResult): void {
    // rows are put in JSON form only for the relations someone reads
    for (const name of result.changes.keys()) {
      const subs = this.subscriptions.get(name);
      const files = this.fileOutputs.filter((out) => out.view.name === name);
      if (!subs?.size && !files.length) continue;
      const rel = this.relations.get(name);
      const unordered = result.changes.get(name)!;
      if (unordered.length === 0) continue;
      const rows = rel ? stepOrder(unordered, rel.columns) : unordered;
      if (subs) {
        for (const [k, sub] of subs) {
          if (!rel) continue;
          let chunks: EncodedChunk[];
          try {
            chunks = encodeChunks(rows, sub.encoding, rel.columns, sub.counter);
          } catch (err) {
            if (!(err instanceof OutputTooLarge)) throw err;
            // ended rather than sent in part: a stream that silently misses changes would be worse (the
            // host ends them; their closing unsubscribes them as any close does)
            this.opts.endStreams(name, k, err.message);
            continue;
          }
          this.opts.emit(name, k, chunks);
        }
      }
      for (const out of files) out.write(rows);
    }
  }

  /**
   * The host opened (+1) or closed (-1) a watch stream of this relation in this encoding. Answers the
   * encoding's record counter (a send_snapshot stream numbers its snapshot's records from it).
   */
  subscribe(relation: string, encoding: OutputEncoding, delta: 1 | -1): RecordCounter {
    let byKey = this.subscriptions.get(relation);
    if (!byKey) {
      byKey = new Map();
      this.subscriptions.set(relation, byKey);
    }
    const k = encodingKey(encoding);
    const sub = byKey.get(k) ?? { encoding, streams: 0, counter: { next: 0 } };
    sub.streams += delta;
    if (sub.streams > 0) byKey.set(k, sub);
    else byKey.delete(k);
    if (byKey.size === 0) this.subscriptions.delete(relation);
    return sub.counter;
  }

  /**
   * Where the input connectors stand, for a checkpoint: 'done' for those read once whose data is applied (they
   * are not read again), and the position of each generating one (RuntimeOptions.connectorPositions resumes it).
   */
  connectorPositions(): Record<string, JsonValue> {
    const out: Record<string, JsonValue> = {};
    for (const ep of this.inputs.values())
      if (!ep.endpoint_name.startsWith('api-ingress-') && ep.metrics.end_of_input && !this.pendingConnectorData.some((d) => d.endpointName === ep.endpoint_name)) out[ep.endpoint_name] = 'done';
    return { ...out, ...this.generated?.positions() };
  }

  /** Drops the open transaction and what it holds (a replay that ends with it never committed). */
  dropTransaction(): void {
    const txn = this.transaction;
    if (txn === null) return;
    this.transaction = null;
    this.bufferedRecords -= txn.records;
    this.totalInputRecords -= txn.records;
    for (const [ep, held] of txn.byEndpoint) {
      ep.metrics.buffered_records -= held.records;
      ep.metrics.buffered_bytes -= held.bytes;
      ep.metrics.total_records -= held.records;
      ep.metrics.total_bytes -= held.bytes;
    }
  }

  /** The open transaction's id (null: none). */
  openTransaction(): number | null {
    return this.transaction?.id ?? null;
  }

  get pipelineComplete(): boolean {
    if (this.pendingConnectorData.length > 0) return false;
    for (const ep of this.inputs.values()) if (!ep.endpoint_name.startsWith('api-ingress-') && !ep.metrics.end_of_input) return false;
    return this.totalInputRecords === this.totalProcessedRecords;
  }

  /** Stops reading connectors and closes output files. */
  async shutdown(): Promise<void> {
    if (this.state === 'Terminated') return;
    this.state = 'Terminated';
    this.abort.abort();
    this.generated?.stop();
    this.subscriptions.clear();
    await Promise.all(this.fileOutputs.map((o) => o.close()));
  }
}

function zeroInputMetrics(): InputEndpoint['metrics'] {
  return {
    total_bytes: 0,
    total_records: 0,
    buffered_bytes: 0,
    buffered_records: 0,
    num_transport_errors: 0,
    num_parse_errors: 0,
    end_of_input: false,
  };
}

interface Subscription {
  encoding: OutputEncoding;
  streams: number;
  counter: RecordCounter;
}
