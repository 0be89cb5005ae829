/**
 * Typed client of the pipeline API (Feldera-style), no CLI concerns. It works against the v0.24-era API
 * (`ops serve`) and today's Feldera, telling them apart from the pipeline objects it reads:
 * - stop: `/shutdown` (legacy) or `/stop` (current), with a fallback when the guess was wrong;
 * - compile errors: in `program_status.SqlError` (legacy) or `program_error.sql_compilation` (current);
 * - ingest: `{token}` answers (current) are kept for `completion_status`; legacy servers are polled via stats;
 * - snapshots: `/query` (current) or egress `mode=snapshot&query=quantiles` (legacy);
 * - `/v0/programs` (a shim of old servers) or, when it is 404, programs derived from the pipelines;
 * - today's transactions, monitor events and metrics, which v0.24-era servers lack: `isMissingEndpoint` tells
 *   a route the server does not have from an answer about the pipeline.
 * Rows (watch frames, snapshots, query answers) are read digit-exact: a number a JS number would print with
 * other digits (BIGINT beyond 2^53, a long DECIMAL sent as a JSON number) is a JsonNumber (core/json-exact.ts).
 */
import type { Readable } from 'node:stream';
import type { HttpClient } from '../core/http.js';
import { ApiError } from '../core/errors.js';
import { parseJsonExact } from '../core/json-exact.js';
import { generationOf, normalizePipeline } from './pipelines/normalize.js';
import { readFrames, LineReader } from './pipelines/frames.js';
import type { ApiGeneration, Change, EgressFrame, Pipeline, ProgramSummary, RawPipeline, SqlCompilerMessage } from './pipelines/types.js';

export * from './pipelines/types.js';
export { normalizePipeline, isStopped, isCompiling, compileFailed, phaseText, findRelation, relationRef, stoppedName } from './pipelines/normalize.js';

export interface PipelineSpec {
  name: string;
  description?: string;
  programCode: string;
  workers?: number;
}

/** What `validate_program` answered. */
export type ValidationResult = { outcome: 'valid'; raw: unknown } | { outcome: 'sql-error'; messages: SqlCompilerMessage[]; raw: unknown } | { outcome: 'system-error'; error: string; raw: unknown };

/** The fields PATCH may change (the others are left as they are). */
export interface PipelinePatch {
  name?: string;
  description?: string;
  program_code?: string;
  runtime_config?: Record<string, unknown>;
  program_config?: Record<string, unknown>;
}

export interface IngestOptions {
  /** parquet: the body is one whole Parquet file (bytes, or a stream read as it is sent). */
  format: 'json' | 'csv' | 'parquet';
  /** JSON body is one array of events (applied all or nothing). */
  array?: boolean;
  /** Push even while paused. */
  force?: boolean;
  signal?: AbortSignal;
  /** Milliseconds the server may take to answer once the body is sent (default: the client's timeout). */
  timeoutMs?: number;
}

/** What one ingress request carries: text (JSON, CSV), or the bytes of a Parquet file, whole or as a stream. */
export type IngestBody = string | Uint8Array | Readable;

export interface IngestResult {
  /** Completion token (today's API). */
  token?: string;
}

export type CompletionState = 'complete' | 'inprogress' | 'restarted';

export interface EgressOptions {
  /** Today's `send_snapshot=true`: the current contents first. */
  sendSnapshot?: boolean;
  format?: 'json' | 'csv';
  backpressure?: boolean;
  signal?: AbortSignal;
}

export type Action = 'start' | 'pause' | 'stop';

/** Monitor event fields: `status` (the default) or `all` (adds the details and the deployment error). */
export type EventSelector = 'status' | 'all';

/** A pipeline's transaction as stats report it (today's `global_metrics.transaction_status`/`transaction_id`). */
export interface TransactionState {
  /** NoTransaction | TransactionInProgress | CommitInProgress */
  status: string;
  /** 0 when none */
  id: number;
  /** Records held by the open transaction (null when none). */
  records: number | null;
  /** Milliseconds since the start or since the commit began (null when none). */
  msecs: number | null;
}

const enc = encodeURIComponent;

export class PipelinesClient {
  /** Known once a pipeline object has been read (or an endpoint told). */
  generation?: ApiGeneration;

  constructor(readonly http: HttpClient) {
    // The service URL is the host's root (as Feldera's SDK and fda take it); `ops serve` prints the API
    // as .../v0, so a URL ending in /v0 is taken as its root rather than asking for /v0/v0/...
    const root = http.baseUrl.replace(/\/v0\/*$/, '');
    if (root !== http.baseUrl) http.options.baseUrl = root;
  }

  private path(name: string, rest = ''): string {
    return `/v0/pipelines/${enc(name)}${rest}`;
  }

  private note(raw: RawPipeline): Pipeline {
    const p = normalizePipeline(raw);
    this.generation ??= generationOf(raw);
    return p;
  }

  async list(): Promise<Pipeline[]> {
    const raw = await this.http.json<RawPipeline[]>('GET', '/v0/pipelines');
    if (!Array.isArray(raw)) throw new ApiError('the pipeline service answered GET /v0/pipelines with something that is not a list', 200, raw);
    return raw.map((p) => this.note(p));
  }

  async get(name: string): Promise<Pipeline> {
    return this.note(await this.http.json<RawPipeline>('GET', this.path(name)));
  }

  /** The pipeline, or undefined when it does not exist. */
  async find(name: string): Promise<Pipeline | undefined> {
    try {
      return await this.get(name);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** The generation, reading one pipeline object (or the list) if it is not known yet. */
  async detect(name?: string): Promise<ApiGeneration> {
    if (this.generation) return this.generation;
    if (name) await this.find(name);
    if (!this.generation) await this.list();
    return this.generation ?? 'legacy';
  }

  /**
   * Create or replace with PUT (both generations). All five fields of the v0.24 body are sent; on replace the
   * existing runtime/program config is kept unless `workers` changes it.
   */
  async put(spec: PipelineSpec, existing?: Pipeline): Promise<{ created: boolean; pipeline: Pipeline }> {
    const runtime = { ...(existing?.raw.runtime_config ?? {}) };
    if (spec.workers !== undefined) runtime.workers = spec.workers;
    const body = {
      name: spec.name,
      description: spec.description ?? existing?.description ?? '',
      runtime_config: runtime,
      program_config: existing?.raw.program_config ?? {},
      program_code: spec.programCode,
    };
    const res = await this.http.request<RawPipeline>('PUT', this.path(spec.name), { body });
    const raw = res.data && typeof res.data === 'object' && 'name' in res.data ? res.data : await this.http.json<RawPipeline>('GET', this.path(spec.name));
    return { created: res.status === 201, pipeline: this.note(raw) };
  }

  async delete(name: string): Promise<void> {
    await this.http.request('DELETE', this.path(name));
  }

  /** start | pause | stop (`/shutdown` on legacy servers, `/stop` on current ones). */
  async action(name: string, action: Action, options: { force?: boolean } = {}): Promise<void> {
    if (action !== 'stop') {
      await this.http.request('POST', this.path(name, `/${action}`), { idempotent: false });
      return;
    }
    const generation = await this.detect(name);
    const order = generation === 'current' ? (['stop', 'shutdown'] as const) : (['shutdown', 'stop'] as const);
    try {
      await this.post(name, order[0], options.force);
    } catch (err) {
      // A server of the other generation: unknown route (404/405) or an unknown action (400).
      if (err instanceof ApiError && isUnknownAction(err)) {
        await this.post(name, order[1], options.force);
        this.generation = order[1] === 'stop' ? 'current' : 'legacy';
        return;
      }
      throw err;
    }
  }

  /** PATCH some fields of a pipeline's definition (both generations); the updated pipeline. */
  async patch(name: string, fields: PipelinePatch): Promise<Pipeline> {
    const res = await this.http.request<RawPipeline>('PATCH', this.path(name), { body: fields });
    return res.data && typeof res.data === 'object' && 'name' in res.data ? this.note(res.data) : this.get(fields.name ?? name);
  }

  /** Today's API: delete a stopped pipeline's stored state (`/clear`); the storage status becomes Cleared. */
  async clear(name: string): Promise<void> {
    await this.http.request('POST', this.path(name, '/clear'), { idempotent: false });
  }

  /** Today's `POST /v0/validate_program`: compile a program without creating a pipeline (200 whatever the outcome). */
  async validateProgram(code: string): Promise<ValidationResult> {
    const raw = await this.http.json<Record<string, unknown>>('POST', '/v0/validate_program', { body: { program_code: code } });
    const sql = raw?.SqlError as { info?: { messages?: SqlCompilerMessage[] } } | undefined;
    if (raw && 'Success' in raw) return { outcome: 'valid', raw };
    if (sql) return { outcome: 'sql-error', messages: sql.info?.messages ?? [], raw };
    const system = raw?.SystemError as { error?: unknown } | undefined;
    return { outcome: 'system-error', error: typeof system?.error === 'string' ? system.error : JSON.stringify(raw), raw };
  }

  /** Today's API: acknowledge a deployment error so that the pipeline can start again. */
  async dismissError(name: string): Promise<void> {
    await this.http.request('POST', this.path(name, '/dismiss_error'), { idempotent: false });
  }

  private async post(name: string, verb: 'stop' | 'shutdown', force?: boolean): Promise<void> {
    const query = verb === 'stop' ? { force: force ? 'true' : 'false' } : undefined;
    await this.http.request('POST', this.path(name, `/${verb}`), { idempotent: false, query });
  }

  async stats(name: string): Promise<Record<string, unknown>> {
    return this.http.json<Record<string, unknown>>('GET', this.path(name, '/stats'));
  }

  /** Today's metrics: the Prometheus text as the server wrote it, or Feldera's JSON form (numbers digit-exact). */
  async metrics(name: string, format: 'prometheus' | 'json'): Promise<unknown> {
    const res = await this.http.request<unknown>('GET', this.path(name, '/metrics'), { query: { format }, exactNumbers: true });
    return format === 'prometheus' ? (typeof res.data === 'string' ? res.data : res.data === undefined ? '' : JSON.stringify(res.data)) : res.data;
  }

  /** Today's monitor events of a pipeline, newest first. */
  async events(name: string, selector: EventSelector = 'status'): Promise<Record<string, unknown>[]> {
    const raw = await this.http.json<unknown>('GET', this.path(name, '/events'), { query: { selector } });
    if (!Array.isArray(raw)) throw new ApiError('the pipeline service answered GET .../events with something that is not a list', 200, raw);
    return raw as Record<string, unknown>[];
  }

  /** One monitor event by id (a UUID) or `latest`. */
  async event(name: string, id: string, selector: EventSelector = 'status'): Promise<Record<string, unknown>> {
    return this.http.json<Record<string, unknown>>('GET', this.path(name, `/events/${enc(id)}`), { query: { selector } });
  }

  /**
   * Today's `/clock/advance` (a pipeline whose runtime_config sets `dev_tweaks.now_http_driven`): moves NOW()
   * by `deltaMs` (0 reads it; null: one `clock_resolution_usecs` tick) and gives its value.
   */
  async advanceClock(name: string, deltaMs: number | null): Promise<{ now_ms: number; now: string }> {
    const data = await this.http.json<{ now_ms?: unknown; now?: unknown }>('POST', this.path(name, '/clock/advance'), { body: { delta_ms: deltaMs }, idempotent: deltaMs === 0 });
    if (!data || typeof data.now_ms !== 'number' || typeof data.now !== 'string') throw new ApiError('the pipeline service answered clock/advance without now_ms and now', 200, data);
    return { now_ms: data.now_ms, now: data.now };
  }

  /** Today's input connector orchestration: start (resume) or pause one input connector of a table. */
  async connectorAction(name: string, table: string, connector: string, action: 'start' | 'pause'): Promise<void> {
    await this.http.request('POST', this.path(name, `/tables/${enc(table)}/connectors/${enc(connector)}/${action}`), { idempotent: true });
  }

  /** Today's stats of one input connector (its `/stats` inputs entry: `paused`, metrics, config...). */
  async connectorStats(name: string, table: string, connector: string): Promise<Record<string, unknown>> {
    return this.http.json<Record<string, unknown>>('GET', this.path(name, `/tables/${enc(table)}/connectors/${enc(connector)}/stats`));
  }

  /** Today's `/start_transaction`: the new transaction's id. */
  async startTransaction(name: string): Promise<number> {
    const data = await this.http.json<{ transaction_id?: unknown }>('POST', this.path(name, '/start_transaction'), { idempotent: false });
    const id = data && typeof data === 'object' ? Number(data.transaction_id) : NaN;
    if (!Number.isFinite(id)) throw new ApiError('the pipeline service answered start_transaction without a transaction_id', 200, data);
    return id;
  }

  /** Today's `/commit_transaction` (the server takes no id: it commits the open transaction). */
  async commitTransaction(name: string): Promise<void> {
    await this.http.request('POST', this.path(name, '/commit_transaction'), { idempotent: false });
  }

  /** The transaction fields of stats, or undefined when the server's stats have none (a v0.24-era server). */
  async transaction(name: string): Promise<TransactionState | undefined> {
    const g = ((await this.stats(name)).global_metrics ?? {}) as Record<string, unknown>;
    if (typeof g.transaction_status !== 'string') return undefined;
    const orNull = (v: unknown) => (typeof v === 'number' ? v : null);
    return { status: g.transaction_status, id: typeof g.transaction_id === 'number' ? g.transaction_id : 0, records: orNull(g.transaction_records), msecs: orNull(g.transaction_msecs) };
  }

  /**
   * `GET /v0/programs` where the server has it (v0.24-era servers), else programs derived from the pipelines.
   * Today's API has no programs: once the pipelines show a current server, it is not asked.
   */
  async programs(): Promise<{ programs: ProgramSummary[]; source: 'programs' | 'pipelines'; raw: unknown }> {
    let pipelines: Pipeline[] | undefined;
    if (!this.generation) pipelines = await this.list();
    if (this.generation !== 'current') {
      try {
        const raw = await this.http.json<unknown>('GET', '/v0/programs');
        if (Array.isArray(raw)) {
          const programs = raw.map((p: Record<string, unknown>) => {
            const status = normalizePipeline({ name: String(p.name), program_status: p.status as RawPipeline['program_status'] }).program.status;
            return { name: String(p.name), version: typeof p.version === 'number' ? p.version : undefined, status, description: typeof p.description === 'string' ? p.description : undefined };
          });
          return { programs, source: 'programs', raw };
        }
      } catch (err) {
        if (!(err instanceof ApiError && (err.status === 404 || err.status === 405))) throw err;
      }
    }
    pipelines ??= await this.list();
    const programs = pipelines.map((p) => ({ name: p.name, version: p.program.version, status: p.program.status, description: p.description }));
    return { programs, source: 'pipelines', raw: programs };
  }

  /** Send one batch (or one Parquet file) to a table. */
  async ingest(name: string, table: string, body: IngestBody, options: IngestOptions): Promise<IngestResult> {
    // `force` is sent always (today's contract marks it required; v0.24 defaults it to false).
    const query: Record<string, string> = { format: options.format, force: options.force ? 'true' : 'false' };
    if (options.format === 'json') {
      query.update_format = 'insert_delete';
      if (options.array) query.array = 'true';
    }
    const res = await this.http.request<unknown>('POST', this.path(name, `/ingress/${enc(table)}`), {
      body,
      contentType: this.ingressContentType(options.format),
      query,
      idempotent: false,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    const data = res.data as { token?: unknown } | undefined;
    if (data && typeof data === 'object' && typeof data.token === 'string') {
      this.generation = 'current';
      return { token: data.token };
    }
    return {};
  }

  /**
   * Today's API declares a text body text/plain whatever the format; v0.24 servers read the format's own type.
   * A Parquet file is bytes: application/octet-stream in both.
   */
  private ingressContentType(format: IngestOptions['format']): string {
    if (format === 'parquet') return 'application/octet-stream';
    if (this.generation === 'current') return 'text/plain';
    return format === 'csv' ? 'text/csv' : 'application/json';
  }

  /** Today's completion tokens: complete (200), in progress (202), or the pipeline restarted (410). */
  async completionStatus(name: string, token: string): Promise<CompletionState> {
    try {
      const res = await this.http.request<{ status?: string }>('GET', this.path(name, '/completion_status'), { query: { token } });
      if (res.status === 202 || res.data?.status === 'inprogress') return 'inprogress';
      return 'complete';
    } catch (err) {
      if (err instanceof ApiError && err.status === 410) return 'restarted';
      throw err;
    }
  }

  /**
   * Open an egress stream and read its frames as they arrive. Each era gets its own parameters: v0.24 knows
   * `mode=watch`; today's egress knows only `format`, `send_snapshot`, `array` and `backpressure`.
   */
  async watch(name: string, view: string, options: EgressOptions = {}): Promise<{ frames: AsyncGenerator<EgressFrame>; body: Readable }> {
    const generation = await this.detect(name);
    const query: Record<string, string> = { format: options.format ?? 'json' };
    if (generation === 'legacy') query.mode = 'watch';
    if (options.sendSnapshot) query.send_snapshot = 'true';
    if (options.backpressure) query.backpressure = 'true';
    const res = await this.http.stream('POST', this.path(name, `/egress/${enc(view)}`), { query, idempotent: false, signal: options.signal, timeoutMs: 0 });
    return { frames: readFrames(res.body), body: res.body };
  }

  /**
   * The current contents of a view, as rows. Current servers: `/query` (the view must be materialized).
   * Legacy servers: an egress snapshot (`mode=snapshot&query=quantiles`, up to 1000 rows in key order).
   */
  async snapshot(name: string, view: string): Promise<{ rows: Record<string, unknown>[]; via: 'query' | 'egress'; limited: boolean }> {
    const generation = await this.detect(name);
    if (generation === 'current') {
      try {
        const rows = await this.query(name, `SELECT * FROM ${sqlName(view)}`);
        return { rows, via: 'query', limited: false };
      } catch (err) {
        if (!(err instanceof ApiError && (err.status === 404 || err.status === 405) && err.code !== 'UnknownPipelineName')) throw err;
      }
    }
    const res = await this.http.request<unknown>('POST', this.path(name, `/egress/${enc(view)}`), {
      query: { format: 'json', mode: 'snapshot', query: 'quantiles', quantiles: QUANTILES },
      idempotent: true,
      exactNumbers: true,
    });
    const rows: Record<string, unknown>[] = [];
    const data = typeof res.data === 'string' ? parseSnapshotText(res.data) : (res.data as { json_data?: Change[] } | undefined);
    for (const change of data?.json_data ?? []) {
      if (change.insert) rows.push(change.insert);
    }
    return { rows, via: 'egress', limited: rows.length >= QUANTILES };
  }

  /** Today's ad-hoc query, `format=json`: one JSON record per line. */
  async query(name: string, sql: string): Promise<Record<string, unknown>[]> {
    const res = await this.http.stream('GET', this.path(name, '/query'), { query: { sql, format: 'json' } });
    const lines = new LineReader();
    const rows: Record<string, unknown>[] = [];
    const add = (ls: string[]) => {
      for (const l of ls) if (l.trim() !== '') rows.push(parseJsonExact(l) as Record<string, unknown>);
    };
    for await (const chunk of res.body) add(lines.push(chunk as Buffer));
    add(lines.end());
    return rows;
  }

  /**
   * An ad-hoc query's answer in one of today's binary or digest formats, as the server sends it (the body
   * stream: an Arrow IPC stream, a Parquet file, or the hash's one line).
   */
  async queryBytes(name: string, sql: string, format: 'arrow_ipc' | 'parquet' | 'hash'): Promise<Readable> {
    const res = await this.http.stream('GET', this.path(name, '/query'), { query: { sql, format } });
    return res.body as Readable;
  }

  /**
   * The log stream of a pipeline (lines as they come). `follow` is a v0.24 parameter; today's `/logs` takes
   * none and always streams, so without follow the caller stops reading once the lines stop arriving.
   */
  async logs(name: string, options: { follow?: boolean; signal?: AbortSignal } = {}): Promise<{ lines: AsyncGenerator<string>; body: Readable }> {
    const generation = await this.detect(name);
    const query = generation === 'legacy' ? { follow: options.follow ? 'true' : 'false' } : undefined;
    const res = await this.http.stream('GET', this.path(name, '/logs'), { query, signal: options.signal, timeoutMs: 0 });
    async function* read(): AsyncGenerator<string> {
      const reader = new LineReader();
      for await (const chunk of res.body) yield* reader.push(chunk as Buffer);
      yield* reader.end();
    }
    return { lines: read(), body: res.body };
  }
}

const QUANTILES = 1000;

/**
 * The server has no such route (a v0.24-era server asked for today's transactions, events or metrics): 404 or
 * 405 that is not about the pipeline or the event, or v0.24's 400 for an action it does not know.
 */
export function isMissingEndpoint(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 404) return err.code !== 'UnknownPipelineName' && err.code !== 'UnknownPipelineMonitorEvent';
  if (err.status === 405) return true;
  return err.status === 400 && (err.code === 'InvalidPipelineAction' || (err.code === 'IllegalPipelineAction' && /action '[a-z_]*transaction'/i.test(err.message)));
}

function isUnknownAction(err: ApiError): boolean {
  if (err.status === 404 && err.code !== 'UnknownPipelineName') return true;
  if (err.status === 405) return true;
  return err.status === 400 && (err.code === 'InvalidPipelineAction' || (err.code === 'IllegalPipelineAction' && /action '(stop|shutdown)'/i.test(err.message)));
}

function parseSnapshotText(text: string): { json_data?: Change[] } | undefined {
  const first = text.trim().split(/\r?\n/)[0];
  try {
    return first ? (parseJsonExact(first) as { json_data?: Change[] }) : undefined;
  } catch {
    return undefined;
  }
}

/** A view name for SQL: kept when already quoted or a plain identifier, quoted otherwise. */
export function sqlName(name: string): string {
  if (name.startsWith('"') && name.endsWith('"')) return name;
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return name;
  return `"${name.replace(/"/g, '""')}"`;
}
