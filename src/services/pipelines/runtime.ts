/**
 * A deployed pipeline: one engine circuit for the program it was started with, its input endpoints
 * (connectors and HTTP ingress), its output endpoints (watch streams and output files), and counters
 * for stats. Every ingress request is one atomic step (Circuit.step); changes fan out to watchers
 * without waiting for them.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  EngineInputError,
  type Circuit,
  type CompiledProgram,
  type RelationSchema,
  type StepResult,
} from '../../engine/index.js';
import { connectorEndpointName } from './compiler.js';
import type { ConnectorAccess } from './connectors/access.js';
import { checkInputSource, readInputConnector, type ConnectorData } from './connectors/input.js';
import { FileOutput } from './connectors/output.js';
import { encodeChunks, type OutputFormat } from './egress/encode.js';
import { Watcher } from './egress/watch.js';
import { ApiError, Errors } from './errors.js';
import { TableBinding } from './ingress/binding.js';
import type { ParsedInput } from './ingress/parser.js';
import { parseErrorsResponse, type ParseErrorEntry } from './ingress/parse-error.js';
import type { LogLevel } from './logs.js';

export type RuntimeState = 'Paused' | 'Running' | 'Terminated';

export interface InputEndpoint {
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

export interface RuntimeOptions {
  keepAliveMs: number;
  /** Per-watcher bound on chunks written but not yet taken by the socket. */
  watchMaxChunks?: number;
  log: (level: LogLevel, message: string) => void;
  /** The engine failed unexpectedly (not a bad input): the pipeline must stop. */
  onFatal?: (err: Error) => void;
  /** Where connectors may reach (connector root, fetch policy, size cap). */
  connectorAccess: ConnectorAccess;
}

export class PipelineRuntime {
  state: RuntimeState = 'Paused';
  readonly startedAt = Date.now();
  readonly circuit: Circuit;
  totalInputRecords = 0;
  totalProcessedRecords = 0;
  bufferedRecords = 0;
  steps = 0;
  readonly inputs = new Map<string, InputEndpoint>();
  readonly watchers = new Map<string, Set<Watcher>>();
  readonly fileOutputs: FileOutput[] = [];
  private readonly bindings = new Map<RelationSchema, TableBinding>();
  private pendingConnectorData: ConnectorData[] = [];
  private waiters = new Set<{ resolve: () => void; reject: (e: Error) => void }>();
  private keepAlive: NodeJS.Timeout | null = null;
  /** Aborts connector reads still running when the pipeline shuts down during initialization. */
  private readonly abort = new AbortController();

  constructor(
    readonly program: CompiledProgram,
    readonly programVersion: number,
    private readonly opts: RuntimeOptions,
  ) {
    this.circuit = program.newCircuit();
  }

  binding(table: RelationSchema): TableBinding {
    let b = this.bindings.get(table);
    if (!b) {
      b = new TableBinding(table);
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
    for (const table of this.program.tables)
      for (const [i, decl] of table.connectors.entries()) await checkInputSource(decl, connectorEndpointName(table, decl, i), table.name, access);
    for (const out of outputs) {
      await out.open();
      this.fileOutputs.push(out);
    }
    const reads: Promise<ConnectorData>[] = [];
    for (const table of this.program.tables) {
      for (const [i, decl] of table.connectors.entries()) {
        const name = connectorEndpointName(table, decl, i);
        this.inputs.set(name, {
          endpoint_name: name,
          config: { stream: table.name, transport: decl.transport, format: decl.format ?? null, max_queued_records: 1_000_000, paused: false },
          metrics: zeroInputMetrics(),
          fatal_error: null,
          paused: false,
        });
        reads.push(readInputConnector(decl, name, this.binding(table), access, this.abort.signal));
      }
    }
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
    this.keepAlive = setInterval(() => this.tick(), Math.max(50, Math.floor(this.opts.keepAliveMs / 3)));
    this.keepAlive.unref();
  }

  resume(): void {
    if (this.state === 'Terminated') return;
    this.state = 'Running';
    // Connector data is processed when the pipeline first runs (so watchers opened while paused see it).
    const pending = this.pendingConnectorData;
    this.pendingConnectorData = [];
    for (const d of pending) {
      if (this.state !== 'Running') break; // failed (or shut down) meanwhile
      const ep = this.inputs.get(d.endpointName)!;
      this.bufferedRecords -= d.parsed.records;
      ep.metrics.buffered_records = 0;
      ep.metrics.buffered_bytes = 0;
      try {
        this.apply(d.parsed);
        ep.metrics.total_records += d.parsed.records;
      } catch (err) {
        ep.fatal_error = (err as Error).message;
        ep.metrics.num_parse_errors += 1;
        this.opts.log('ERROR', `input endpoint '${d.endpointName}': ${(err as Error).message}`);
      }
      ep.metrics.end_of_input = true;
    }
    for (const w of this.waiters) w.resolve();
    this.waiters.clear();
  }

  pause(): void {
    if (this.state === 'Running') this.state = 'Paused';
  }

  /** Resolves when the pipeline runs; rejects when it shuts down first. */
  waitUntilRunning(): Promise<void> {
    if (this.state === 'Running') return Promise.resolve();
    if (this.state === 'Terminated') return Promise.reject(Errors.terminating());
    return new Promise((resolve, reject) => this.waiters.add({ resolve, reject }));
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
   * Applies parsed input as one step; on any bad event nothing is applied and a ParseErrors ApiError
   * is thrown. Returns the step result.
   */
  apply(parsed: ParsedInput, endpoint?: InputEndpoint, bytes = 0): StepResult | null {
    if (parsed.errors.length > 0) {
      if (endpoint) endpoint.metrics.num_parse_errors += parsed.errorCount;
      throw parseErrorsResponse(parsed.errors, parsed.errorCount);
    }
    if (parsed.changes.length === 0) {
      if (endpoint) endpoint.metrics.total_bytes += bytes;
      return null;
    }
    let result: StepResult;
    try {
      result = this.circuit.step(parsed.changes);
    } catch (err) {
      if (!(err instanceof EngineInputError)) {
        const e = err instanceof Error ? err : new Error(String(err));
        this.opts.log('ERROR', `the engine failed while processing a step: ${e.stack ?? e.message}`);
        this.opts.onFatal?.(e);
        throw new ApiError(500, 'RuntimeError.WorkerPanic', `The pipeline failed while processing the input: ${e.message}`, { error: e.message });
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
      throw parseErrorsResponse([entry]);
    }
    this.steps++;
    this.totalInputRecords += parsed.records;
    this.totalProcessedRecords += parsed.records;
    if (endpoint) {
      endpoint.metrics.total_records += parsed.records;
      endpoint.metrics.total_bytes += bytes;
    }
    this.dispatch(result);
    return result;
  }

  private dispatch(result: StepResult): void {
    // rows are put in JSON form only for the relations someone reads
    for (const name of result.changes.keys()) {
      const ws = this.watchers.get(name);
      const files = this.fileOutputs.filter((out) => out.view.name === name);
      if (!ws?.size && !files.length) continue;
      const rows = result.changes.get(name)!;
      if (rows.length === 0) continue;
      if (ws && ws.size > 0) {
        const byFormat = new Map<OutputFormat, ReturnType<typeof encodeChunks>>();
        for (const w of ws) {
          let chunks = byFormat.get(w.format);
          if (!chunks) {
            chunks = encodeChunks(rows, w.format, w.relation.columns);
            byFormat.set(w.format, chunks);
          }
          for (const c of chunks) w.send(c);
        }
      }
      for (const out of files) out.write(rows);
    }
  }

  addWatcher(relation: RelationSchema, format: OutputFormat, backpressure: boolean, res: ServerResponse): Watcher {
    const w = new Watcher(
      `api-watch-${relation.name}-${randomUUID()}`,
      relation,
      format,
      backpressure,
      res,
      (watcher, reason) => {
        this.watchers.get(relation.name)?.delete(watcher);
        this.opts.log('DEBUG', `output endpoint '${watcher.endpointName}' closed: ${reason}`);
      },
      (watcher) =>
        this.opts.log(
          'WARN',
          `output endpoint '${watcher.endpointName}' is not keeping up: ${watcher.backpressure ? 'closing the stream (backpressure=true)' : 'dropping a chunk (backpressure=false)'}`,
        ),
      this.opts.watchMaxChunks,
    );
    let set = this.watchers.get(relation.name);
    if (!set) {
      set = new Set();
      this.watchers.set(relation.name, set);
    }
    set.add(w);
    w.open();
    this.opts.log('DEBUG', `output endpoint '${w.endpointName}' opened`);
    return w;
  }

  private tick(): void {
    const now = Date.now();
    for (const set of this.watchers.values()) for (const w of set) w.heartbeat(now, this.opts.keepAliveMs);
  }

  get pipelineComplete(): boolean {
    if (this.pendingConnectorData.length > 0) return false;
    for (const ep of this.inputs.values()) if (!ep.endpoint_name.startsWith('api-ingress-') && !ep.metrics.end_of_input) return false;
    return this.totalInputRecords === this.totalProcessedRecords;
  }

  /** Ends every watch stream, closes output files, fails waiting ingress requests. */
  async shutdown(): Promise<void> {
    if (this.state === 'Terminated') return;
    this.state = 'Terminated';
    this.abort.abort();
    if (this.keepAlive) clearInterval(this.keepAlive);
    for (const set of this.watchers.values()) for (const w of [...set]) w.end();
    this.watchers.clear();
    for (const w of this.waiters) w.reject(Errors.terminating());
    this.waiters.clear();
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
