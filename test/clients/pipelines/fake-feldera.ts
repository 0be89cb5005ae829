/**
 * A small real HTTP server on 127.0.0.1 that answers like a Feldera pipeline manager of either API
 * generation, with bodies built from responses recorded from the reference (fixtures/). Compilation and
 * deployment advance one phase per GET of the pipeline, so the client's waits see every phase.
 * Tests drive egress with emit()/keepAlive() and end watches by stopping the pipeline. Rows are written with
 * jsonText, so a JsonNumber in them goes out as a bare JSON number of any length (as Feldera writes BIGINT and
 * DECIMAL values).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { SqlCompilerMessage } from '../../../src/wire/pipelines.js';
import { jsonText } from '../../../src/core/json-exact.js';

export type Generation = 'legacy' | 'current';

type Obj = Record<string, any>;

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string;
  /** The Content-Type header as sent (undefined when none). */
  contentType?: string;
}

/** A compile message as the fake sends it: with its snippet, as Feldera's. */
export type CompileMessage = SqlCompilerMessage & { snippet: string | null };

export interface FakeOptions {
  generation: Generation;
  /** Compiler: messages for a program (errors make it fail). Default: no messages. */
  compile?: (code: string) => CompileMessage[];
  /** Tables and views of every program (program_info.schema); a name in double quotes is case-sensitive. */
  schema?: { inputs: string[]; outputs: string[] };
  /** A start fails with this deployment error. */
  failStart?: (name: string) => { message: string; error_code: string } | undefined;
  /** Deployment never gets past Initializing. */
  stuck?: boolean;
  /** Reject ingest bodies that contain this text (400 ParseErrors). */
  badRecordMarker?: string;
  /** Contents of views for snapshots. */
  contents?: Record<string, Obj[]>;
  logLines?: string[];
  /** Today's API: a commit never completes (stats stay at CommitInProgress). */
  commitStuck?: boolean;
}

const FIXTURES = join(import.meta.dirname, 'fixtures');
const fixture = (file: string): Obj => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));

const LEGACY_PHASES = ['Pending', 'CompilingSql', 'CompilingRust', 'Success'];
const CURRENT_PHASES = ['Pending', 'CompilingSql', 'SqlCompiled', 'CompilingRust', 'Success'];

export class FakeFeldera {
  readonly requests: RecordedRequest[] = [];
  readonly pipelines = new Map<string, Obj>();
  readonly ingested: { table: string; query: Record<string, string>; body: string }[] = [];
  private readonly watchers = new Map<string, { view: string; res: ServerResponse; seq: number }[]>();
  private server?: Server;
  url = '';
  private tokens = 0;
  private tokenPolls = new Map<string, number>();
  /** Today's API: each pipeline's transaction (id 0 when none). */
  private readonly transactions = new Map<string, { id: number; status: string; last: number }>();
  /** Input connectors paused over `.../tables/{t}/connectors/{c}/pause` (pipeline name + endpoint). */
  private readonly pausedConnectors = new Set<string>();

  constructor(readonly options: FakeOptions) {}

  get generation(): Generation {
    return this.options.generation;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const list of this.watchers.values()) for (const w of list) w.res.end();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }

  /** The server dies: open streams are cut (not ended) and nothing answers any more. */
  async crash(): Promise<void> {
    for (const list of this.watchers.values()) for (const w of list) w.res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }

  private get stopped(): string {
    return this.generation === 'current' ? 'Stopped' : 'Shutdown';
  }

  /** Add a pipeline directly (compiled, in a given deployment state). */
  seed(name: string, fields: Obj = {}): Obj {
    const base = fixture(this.generation === 'current' ? 'current-pipeline.json' : 'legacy-pipeline.json');
    const p = { ...base, name, program_status: 'Success', deployment_status: this.stopped, deployment_desired_status: this.stopped, program_info: this.programInfo(), ...fields };
    this.pipelines.set(name, p);
    return p;
  }

  private programInfo(): Obj | null {
    const s = this.options.schema;
    if (!s) return null;
    const rel = (name: string) =>
      isQuoted(name)
        ? { name: name.slice(1, -1), case_sensitive: true, fields: [], materialized: true, properties: {} }
        : { name, case_sensitive: false, fields: [], materialized: true, properties: {} };
    return { schema: { inputs: s.inputs.map(rel), outputs: s.outputs.map(rel) }, input_connectors: {}, output_connectors: {} };
  }

  /** Send changes to the watchers of a view. */
  emit(view: string, changes: Obj[], split = false): void {
    for (const w of this.watchersOf(view)) {
      const text = `{"sequence_number":${w.seq++},"json_data":${jsonText(changes)}}\r\n`;
      if (split) {
        // Deliver the frame in pieces, boundaries in awkward places.
        const mid = Math.floor(text.length / 2);
        w.res.write(text.slice(0, 3));
        w.res.write(text.slice(3, mid));
        w.res.write(text.slice(mid));
      } else w.res.write(text);
    }
  }

  keepAlive(view: string): void {
    for (const w of this.watchersOf(view)) w.res.write(`{"sequence_number":${w.seq++}}\r\n`);
  }

  watcherCount(view: string): number {
    return this.watchersOf(view).length;
  }

  private watchersOf(view: string) {
    return [...this.watchers.values()].flat().filter((w) => w.view.toLowerCase() === view.toLowerCase());
  }

  private error(res: ServerResponse, status: number, code: string, message: string, details: unknown = null): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message, error_code: code, details }));
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(jsonText(body));
  }

  /** One step of compilation and deployment, as the manager's loops would do between two GETs. */
  private advance(p: Obj): void {
    const phases = this.generation === 'current' ? CURRENT_PHASES : LEGACY_PHASES;
    const ps = typeof p.program_status === 'string' ? p.program_status : 'done';
    const i = phases.indexOf(ps);
    if (i >= 0 && i < phases.length - 1) {
      const next = phases[i + 1]!;
      const messages = this.options.compile?.(p.program_code) ?? [];
      const errors = messages.filter((m) => !m.warning);
      if (next === 'CompilingRust' && errors.length > 0) {
        if (this.generation === 'current') {
          p.program_status = 'SqlError';
          p.program_error = { sql_compilation: { exit_code: 1, messages }, rust_compilation: null, system_error: null };
        } else p.program_status = { SqlError: messages };
      } else {
        p.program_status = next;
        if (next === 'Success') {
          p.program_info = this.programInfo();
          if (this.generation === 'current' && messages.length > 0) p.program_error = { sql_compilation: { exit_code: 0, messages }, rust_compilation: null, system_error: null };
          if (this.generation === 'legacy' && messages.length > 0) p.program_status = 'Success';
        }
      }
      p.program_status_since = new Date().toISOString();
      return;
    }
    const status = p.deployment_status as string;
    const desired = p.deployment_desired_status as string;
    const set = (s: string) => {
      p.deployment_status = s;
      p.deployment_status_since = new Date().toISOString();
    };
    if (desired === 'Running' || desired === 'Paused') {
      if (status === this.stopped) set('Provisioning');
      else if (status === 'Provisioning') set('Initializing');
      else if (status === 'Initializing') {
        if (this.options.stuck) return;
        const failure = this.options.failStart?.(p.name);
        if (failure) {
          p.deployment_error = { ...failure, details: null };
          if (this.generation === 'current') {
            set('Stopped');
            p.deployment_desired_status = 'Stopped';
          } else set('Failed');
        } else set(desired === 'Running' ? 'Running' : 'Paused');
      } else if (status === 'Paused' && desired === 'Running') set('Running');
      else if (status === 'Running' && desired === 'Paused') set('Paused');
    } else if (desired === this.stopped) {
      if (status === 'Running' || status === 'Paused' || status === 'Provisioning' || status === 'Initializing' || status === 'Failed') {
        set(this.generation === 'current' ? 'Stopping' : 'ShuttingDown');
      } else if (status === 'ShuttingDown' || status === 'Stopping') {
        set(this.stopped);
        if (this.generation === 'legacy') p.deployment_error = null;
        this.endWatchers(p.name);
      }
    }
  }

  private endWatchers(name: string): void {
    for (const w of this.watchers.get(name) ?? []) w.res.end();
    this.watchers.delete(name);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url!, 'http://x');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const query = Object.fromEntries(url.searchParams);
    this.requests.push({ method: req.method!, path: url.pathname, query, body, contentType: req.headers['content-type'] });
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const m = req.method!;
    if (parts[0] !== 'v0') return this.error(res, 404, 'NotFound', 'no route');
    if (parts[1] === 'programs' && parts.length === 2 && m === 'GET') {
      if (this.generation === 'current') return this.error(res, 404, 'NotFound', 'no route');
      return this.json(
        res,
        200,
        [...this.pipelines.values()].map((p) => ({ program_id: p.id, name: p.name, description: p.description, version: p.program_version, status: p.program_status, schema: null, config: {} })),
      );
    }
    if (parts[1] !== 'pipelines') return this.error(res, 404, 'NotFound', 'no route');
    if (parts.length === 2 && m === 'GET') return this.json(res, 200, [...this.pipelines.values()]);
    const name = parts[2]!;
    const p = this.pipelines.get(name);
    if (parts.length === 3 && m === 'PUT') {
      const b = JSON.parse(body) as Obj;
      if (p) {
        if (p.deployment_status !== this.stopped) return this.error(res, 400, 'CannotUpdateNonShutdownPipeline', 'Cannot update a pipeline which is not fully shutdown.');
        Object.assign(p, {
          description: b.description ?? p.description,
          runtime_config: { ...p.runtime_config, ...b.runtime_config },
          program_code: b.program_code,
          program_version: p.program_version + 1,
          program_status: 'Pending',
          program_info: null,
          version: p.version + 1,
        });
        if (this.generation === 'current') p.program_error = { sql_compilation: null, rust_compilation: null, system_error: null };
        return this.json(res, 200, p);
      }
      const created = this.seed(name, {
        description: b.description ?? '',
        program_code: b.program_code,
        program_status: 'Pending',
        program_info: null,
        runtime_config: { ...fixture(this.generation === 'current' ? 'current-pipeline.json' : 'legacy-pipeline.json').runtime_config, ...b.runtime_config },
        program_version: 1,
        version: 1,
      });
      return this.json(res, 201, created);
    }
    if (!p) return this.error(res, 404, 'UnknownPipelineName', `Unknown pipeline name '${name}'`, { pipeline_name: name });
    if (parts.length === 3 && m === 'GET') {
      this.advance(p);
      return this.json(res, 200, p);
    }
    if (parts.length === 3 && m === 'DELETE') {
      if (p.deployment_status !== this.stopped) return this.error(res, 400, 'CannotDeleteNonShutdownPipeline', 'Cannot delete a pipeline which is not fully shutdown.');
      this.pipelines.delete(name);
      return void res.writeHead(200).end();
    }
    const action = parts[3];
    if (parts.length === 4 && m === 'POST' && ['start', 'pause', 'shutdown', 'stop'].includes(action!)) {
      if ((action === 'stop' && this.generation === 'legacy') || (action === 'shutdown' && this.generation === 'current')) return this.error(res, 404, 'NotFound', 'no route');
      if (action === 'start' || action === 'pause') {
        if (typeof p.program_status !== 'string' || p.program_status !== 'Success') {
          return typeof p.program_status === 'string' && p.program_status !== 'SqlError'
            ? this.error(res, 400, 'ProgramNotYetCompiled', "The program hasn't been compiled yet")
            : this.error(res, 400, 'ProgramFailedToCompile', 'The program did not compile successfully');
        }
        if (p.deployment_status === 'Failed') return this.error(res, 400, 'IllegalPipelineStateTransition', 'Cannot restart a failed pipeline');
        if (this.generation === 'current' && p.deployment_error) return this.error(res, 400, 'CannotStartWithUndismissedError', 'Cannot start: the pipeline has an error that was not dismissed');
        p.deployment_error = null;
        p.deployment_desired_status = action === 'start' ? 'Running' : 'Paused';
      } else p.deployment_desired_status = this.stopped;
      return void res.writeHead(202).end();
    }
    if (parts.length === 4 && m === 'POST' && action === 'dismiss_error' && this.generation === 'current') {
      p.deployment_error = null;
      return void res.writeHead(200).end();
    }
    const running = p.deployment_status === 'Running' || p.deployment_status === 'Paused';
    if (action === 'ingress' && m === 'POST') {
      if (!running) return this.error(res, 400, 'PipelineNotRunningOrPaused', `Pipeline ${p.id} is not currently running or paused.`);
      const table = parts[4]!;
      if (this.options.schema && !this.options.schema.inputs.some((t) => urlReaches(table, t))) {
        return this.error(res, 404, 'UnknownInputStream', `Input endpoint 'api-ingress-${table}' specifies unknown table '${table}'`);
      }
      if (this.options.badRecordMarker && body.includes(this.options.badRecordMarker)) {
        return this.error(res, 400, 'ParseErrors', 'Errors parsing input data (1 errors):\n    Parse error (event #1): bad record', { num_errors: 1, errors: [] });
      }
      this.ingested.push({ table, query, body });
      if (this.generation === 'current') return this.json(res, 200, { token: `token-${++this.tokens}` });
      return void res.writeHead(200).end();
    }
    if (this.generation === 'current' && m === 'POST' && (action === 'start_transaction' || action === 'commit_transaction')) {
      if (!running)
        return this.error(
          res,
          503,
          'PipelineInteractionNotDeployed',
          `Unable to interact with pipeline ${name} because the deployment status (${p.deployment_status}) indicates it is not (yet) fully provisioned`,
        );
      const t = this.transactions.get(name) ?? { id: 0, status: 'NoTransaction', last: 0 };
      this.transactions.set(name, t);
      if (action === 'start_transaction') {
        if (t.status !== 'NoTransaction') return this.error(res, 409, 'TransactionInProgress', 'Cannot perform this operation while there is a transaction in progress', null);
        Object.assign(t, { id: ++t.last, status: 'TransactionInProgress' });
        return this.json(res, 200, { transaction_id: t.id });
      }
      if (t.status !== 'TransactionInProgress') return this.error(res, 400, 'NoTransactionInProgress', 'This operation requires an active transaction, but none is currently in progress', null);
      if (this.options.commitStuck) t.status = 'CommitInProgress';
      else Object.assign(t, { id: 0, status: 'NoTransaction' });
      return this.json(res, 200, 'Transaction commit initiated');
    }
    if (this.generation === 'current' && parts.length === 8 && action === 'tables' && parts[5] === 'connectors') {
      // today's connector orchestration: POST .../tables/{t}/connectors/{c}/start|pause, GET .../stats
      if (!running) return this.error(res, 503, 'PipelineInteractionNotDeployed', `Unable to interact with pipeline ${name}: not deployed`);
      const [table, connector, verb] = [parts[4]!, parts[6]!, parts[7]!];
      const endpoint = `${table}.${connector}`;
      if (this.options.schema && !this.options.schema.inputs.some((t) => urlReaches(table, t))) return this.error(res, 404, 'UnknownInputEndpoint', `unknown input endpoint name '${endpoint}'`);
      const key = `${name}\0${endpoint}`;
      if (m === 'POST' && (verb === 'start' || verb === 'pause')) {
        if (verb === 'pause') this.pausedConnectors.add(key);
        else this.pausedConnectors.delete(key);
        return void res.writeHead(200).end();
      }
      if (m === 'GET' && verb === 'stats') {
        const metrics = { total_bytes: 0, total_records: 0, buffered_records: 0, num_transport_errors: 0, num_parse_errors: 0, end_of_input: false };
        return this.json(res, 200, { endpoint_name: endpoint, config: {}, metrics, fatal_error: null, paused: this.pausedConnectors.has(key) });
      }
    }
    if (this.generation === 'current' && m === 'GET' && action === 'events') {
      const event = {
        event_id: '0195f0c1-8d2e-7b3a-9c41-5e6f7a8b9c0d',
        recorded_at: '2026-01-01T00:00:00.000000Z',
        deployment_resources_status: running ? 'Provisioned' : 'Stopped',
        deployment_resources_desired_status: running ? 'Provisioned' : 'Stopped',
        deployment_runtime_status: running ? p.deployment_status : null,
        deployment_runtime_desired_status: running ? p.deployment_desired_status : null,
        deployment_has_error: false,
        program_status: p.program_status,
        storage_status: 'Cleared',
      };
      if (parts.length === 4) return this.json(res, 200, [event]);
      if (parts[4] === 'latest' || parts[4] === event.event_id) return this.json(res, 200, event);
      return this.error(res, 404, 'UnknownPipelineMonitorEvent', `Event ${parts[4]} does not exist for pipeline ${name}`);
    }
    if (this.generation === 'current' && m === 'GET' && action === 'metrics') {
      if (!running) return this.error(res, 503, 'PipelineInteractionNotDeployed', `Unable to interact with pipeline ${name}`);
      if (query.format === 'json') return this.json(res, 200, [{ key: 'dbsp_steps_total', type: 'counter', description: 'steps', values: [{ labels: { pipeline_name: name }, value: 3 }] }]);
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`# TYPE dbsp_steps_total counter\ndbsp_steps_total{pipeline_name="${name}"} 3\n`);
    }
    if (action === 'completion_status' && m === 'GET') {
      const polls = (this.tokenPolls.get(query.token!) ?? 0) + 1;
      this.tokenPolls.set(query.token!, polls);
      return polls < 2 ? this.json(res, 202, { status: 'inprogress', step: null }) : this.json(res, 200, { status: 'complete', step: 3 });
    }
    if (action === 'stats' && m === 'GET') {
      if (!running) return this.error(res, 400, 'PipelineNotRunningOrPaused', `Pipeline ${p.id} is not currently running or paused.`);
      const n = this.ingested.reduce((s, i) => s + countRecords(i.body, i.query.format), 0);
      return this.json(res, 200, {
        global_metrics: {
          state: p.deployment_status,
          rss_bytes: 1000,
          cpu_msecs: 5,
          buffered_input_records: 0,
          total_input_records: n,
          total_processed_records: n,
          pipeline_complete: false,
          ...(this.generation === 'current' ? { transaction_status: this.transactions.get(name)?.status ?? 'NoTransaction', transaction_id: this.transactions.get(name)?.id ?? 0 } : {}),
        },
        inputs: [
          {
            endpoint_name: 'orders.api',
            config: {},
            metrics: { total_bytes: 10, total_records: n, buffered_records: 0, num_parse_errors: 0, num_transport_errors: 0, end_of_input: false },
            fatal_error: null,
          },
        ],
        outputs: [],
      });
    }
    if (action === 'egress' && m === 'POST') {
      if (!running) return this.error(res, 400, 'PipelineNotRunningOrPaused', `Pipeline ${p.id} is not currently running or paused.`);
      const view = parts[4]!;
      if (this.options.schema && !this.options.schema.outputs.some((v) => urlReaches(view, v))) {
        return this.error(res, 404, 'UnknownOutputStream', `unknown output stream '${view}'`);
      }
      const contents = this.options.contents?.[view.toLowerCase()] ?? this.options.contents?.[view] ?? [];
      if (query.mode === 'snapshot') {
        if (this.generation === 'current') return this.error(res, 400, 'InvalidParam', 'mode is not a parameter any more');
        return this.json(res, 200, { sequence_number: 0, json_data: contents.map((r) => ({ insert: r })) });
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      const w = { view, res, seq: 0 };
      if (query.send_snapshot === 'true' && this.generation === 'current') {
        res.write(`{"sequence_number":${w.seq++},"snapshot":true,"json_data":${jsonText(contents.map((r) => ({ insert: r })))}}\r\n`);
      }
      const list = this.watchers.get(name) ?? [];
      list.push(w);
      this.watchers.set(name, list);
      res.on('close', () =>
        this.watchers.set(
          name,
          (this.watchers.get(name) ?? []).filter((x) => x !== w),
        ),
      );
      return;
    }
    if (action === 'query' && m === 'GET') {
      if (this.generation === 'legacy') return this.error(res, 404, 'NotFound', 'no route');
      const view = /FROM\s+"?([A-Za-z0-9_]+)"?/i.exec(query.sql ?? '')?.[1] ?? '';
      const rows = this.options.contents?.[view.toLowerCase()] ?? [];
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(rows.map((r) => jsonText(r) + '\n').join(''));
    }
    if (action === 'logs' && m === 'GET') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (const l of this.options.logLines ?? []) res.write(l + '\n');
      if (this.generation === 'legacy' && query.follow !== 'true') res.end();
      return; // today's Feldera keeps the log stream open
    }
    return this.error(res, 404, 'NotFound', 'no route');
  }
}

function isQuoted(name: string): boolean {
  return name.length > 1 && name.startsWith('"') && name.endsWith('"');
}

/**
 * Feldera's lookup of a relation named in a URL: a quoted name exactly (quotes included), an unquoted one
 * case-insensitively, and never a case-sensitive (quoted) relation through an unquoted name.
 */
function urlReaches(urlName: string, schemaName: string): boolean {
  if (isQuoted(schemaName)) return urlName === schemaName;
  return !isQuoted(urlName) && urlName.toLowerCase() === schemaName.toLowerCase();
}

function countRecords(body: string, format: string | undefined): number {
  if (format === 'csv') return body.split('\n').filter((l) => l.trim() !== '').length;
  try {
    const v = JSON.parse(body);
    return Array.isArray(v) ? v.length : 1;
  } catch {
    return body.split('\n').filter((l) => l.trim() !== '').length;
  }
}
