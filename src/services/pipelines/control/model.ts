/**
 * The pipeline object of the v0.24-era API (Feldera's ExtendedPipelineDescr): persisted fields, the
 * in-memory deployment fields, defaults of runtime_config/program_config, and the serialisation in
 * the reference's field order.
 */
import type { DeploymentStatus, DesiredStatus, ErrorBody, ProgramStatus } from '../../../wire/pipelines.js';
import { version } from '../../../core/version.js';

export type { DeploymentStatus, DesiredStatus, ProgramStatus, SqlCompilerMessage } from '../../../wire/pipelines.js';

/** What the store keeps for a pipeline. */
export interface PipelineRecord {
  id: string;
  name: string;
  description: string;
  version: number;
  created_at: string;
  runtime_config: Record<string, unknown>;
  program_code: string;
  program_config: Record<string, unknown>;
  program_version: number;
  program_status: ProgramStatus;
  program_status_since: string;
  program_info: Record<string, unknown> | null;
  program_binary_url: string | null;
  /** Not in the API: the casing program_info was compiled with (absent = 'upper'), so a restart with another --output-case recompiles. */
  compiled_output_case?: OutputCase;
  /**
   * Not in the API: the kind of client that created the pipeline (client-api.ts; absent = 'v0.24'). It sets the
   * case of its output names (today's clients: lower, as today's Feldera stores them) and the shape of answers to
   * requests that carry no mark of either kind.
   */
  client_api?: PipelineApi;
}

/** Deployment fields: in memory only (a restarted server has every pipeline Shutdown). */
export interface DeploymentState {
  deployment_status: DeploymentStatus;
  deployment_status_since: string;
  deployment_desired_status: DesiredStatus;
  deployment_error: ErrorBody | null;
  deployment_config: Record<string, unknown> | null;
  deployment_location: string | null;
  /** This deployment (today's API): a new one at every start from Stopped, null while stopped. */
  deployment_id: string | null;
  /** The run state the deployment was started towards (today's API: `initial`), null while stopped. */
  deployment_initial: 'Running' | 'Paused' | null;
}

export function nowIso(): string {
  // RFC 3339 with microseconds, as the reference's timestamps.
  return new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function defaultRuntimeConfig(input: Record<string, unknown> = {}): Record<string, unknown> {
  const resources = (input.resources && typeof input.resources === 'object' ? input.resources : {}) as Record<string, unknown>;
  return {
    workers: 1,
    storage: false,
    cpu_profiler: true,
    tracing: true,
    tracing_endpoint_jaeger: '127.0.0.1:6831',
    min_batch_size_records: 0,
    max_buffering_delay_usecs: 0,
    ...input,
    resources: {
      cpu_cores_min: null,
      cpu_cores_max: null,
      memory_mb_min: null,
      memory_mb_max: null,
      storage_mb_max: null,
      storage_class: null,
      ...resources,
    },
    min_storage_bytes: input.min_storage_bytes ?? null,
  };
}

export function defaultProgramConfig(input: Record<string, unknown> = {}): Record<string, unknown> {
  return { profile: null, ...input };
}

export type OutputCase = 'upper' | 'lower';

/**
 * The casing of output names: program_config.output_case ('upper' or 'lower') when the pipeline says,
 * else the server's default (`ops serve --output-case`, itself 'upper' unless set).
 */
export function outputCaseOf(programConfig: Record<string, unknown>, serverDefault: OutputCase = 'upper'): OutputCase {
  const c = programConfig.output_case;
  return c === 'lower' || c === 'upper' ? c : serverDefault;
}

/**
 * A pipeline's output case: its program_config.output_case, else the server's forced one (`--feldera` or
 * `--output-case`), else its creating client's (lower for today's clients, upper for v0.24's and the CLI).
 */
export function pipelineOutputCase(rec: Pick<PipelineRecord, 'program_config' | 'client_api'>, forced: OutputCase | undefined): OutputCase {
  return outputCaseOf(rec.program_config, forced ?? (rec.client_api === 'current' ? 'lower' : 'upper'));
}

export function isCompiling(s: ProgramStatus): boolean {
  return s === 'Pending' || s === 'CompilingSql' || s === 'CompilingRust';
}

/** Which Feldera API's pipeline object and status names `ops serve` answers with (`--pipeline-api`). */
export type PipelineApi = 'v0.24' | 'current';

/** Today's names of v0.24's deployment statuses (a failed pipeline is Stopped with its deployment_error). */
const CURRENT_STATUS: Partial<Record<string, string>> = { Shutdown: 'Stopped', ShuttingDown: 'Stopping', Failed: 'Stopped' };

/** Today's program_status (a plain name) and program_error (what failed, by phase). */
function currentProgram(s: ProgramStatus): { status: string; error: Record<string, unknown> } {
  const error: Record<string, unknown> = { sql_compilation: null, rust_compilation: null, system_error: null };
  if (typeof s === 'string') {
    if (s === 'Success') error.sql_compilation = { exit_code: 0, messages: [] };
    return { status: s, error };
  }
  if ('SqlError' in s) error.sql_compilation = { exit_code: 1, messages: s.SqlError };
  else if ('RustError' in s) error.rust_compilation = { exit_code: 1, stdout: '', stderr: s.RustError };
  else error.system_error = s.SystemError;
  return { status: Object.keys(s)[0]!, error };
}

/** Today's storage_status and storage_status_details of a pipeline (the manager reads them from its storage). */
export interface StorageStatus {
  status: 'InUse' | 'Cleared';
  details: { checkpoints: Record<string, unknown>[] } | null;
}

/** Today's `selector` of a pipeline GET: `status` leaves out the fields only `all` has (status_with_connectors adds `connectors`). */
export const PIPELINE_SELECTORS = ['all', 'status', 'status_with_connectors'] as const;
export type PipelineSelector = (typeof PIPELINE_SELECTORS)[number];
const ALL_ONLY = ['runtime_config', 'program_code', 'udf_rust', 'udf_toml', 'program_error', 'program_info', 'deployment_resources_status_details'];

export function serializePipeline(
  rec: PipelineRecord,
  dep: DeploymentState,
  opts: { code?: boolean; api?: PipelineApi; selector?: PipelineSelector; storage?: StorageStatus } = {},
): Record<string, unknown> {
  const v024 = serializeV024(rec, dep, opts);
  if (opts.api !== 'current') return v024;
  // today's shape: plain status names, program_error beside program_status, storage (never kept here)
  const program = currentProgram(rec.program_status);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(v024)) {
    if (k === 'program_status') {
      out.program_status = program.status;
      out.program_error = program.error;
    } else if (k === 'deployment_status') out[k] = CURRENT_STATUS[v as string] ?? v;
    // a failed pipeline is on its way to Stopped (as today's runner sets it after a fatal error)
    else if (k === 'deployment_desired_status') out[k] = dep.deployment_status === 'Failed' ? 'Stopped' : (CURRENT_STATUS[v as string] ?? v);
    else if (k === 'runtime_config') out[k] = currentRuntimeConfig(v as Record<string, unknown>);
    else if (k === 'program_info') out[k] = currentProgramInfo(v as Record<string, unknown> | null);
    else out[k] = v;
  }
  out.storage_status = opts.storage?.status ?? 'Cleared';
  Object.assign(out, currentDeployment(rec, dep, out.deployment_status as string, out.deployment_desired_status as string));
  out.storage_status_details = opts.storage?.details ?? null;
  if (opts.selector === 'status' || opts.selector === 'status_with_connectors') for (const k of ALL_ONLY) delete out[k];
  if (opts.selector === 'status_with_connectors') out.connectors = null; // connector error counts: not kept here ("unavailable")
  return out;
}

/** StorageOptions at its defaults (today's `storage: true` or `{}`). */
const DEFAULT_STORAGE = { backend: { name: 'default' }, min_storage_bytes: null, min_step_storage_bytes: null, compression: 'default', cache_mib: null };

/** Today's runtime_config: `storage` an object (true: the defaults) or null (false), never a boolean. */
function currentRuntimeConfig(rc: Record<string, unknown>): Record<string, unknown> {
  const storage = rc.storage === true ? DEFAULT_STORAGE : rc.storage === false || rc.storage === undefined ? null : rc.storage;
  return { ...rc, storage };
}

/**
 * Today's program_info (PartialProgramInfo): `udf_stubs` (no Rust UDFs here: empty), and every schema field with
 * `unused` (false: ops does not tell unused columns), nested ROW fields too.
 */
function currentProgramInfo(info: Record<string, unknown> | null): Record<string, unknown> | null {
  if (info === null) return null;
  const fieldsOf = (fields: unknown): unknown =>
    Array.isArray(fields) ? fields.map((f: Record<string, unknown>) => ({ ...f, columntype: columnTypeOf(f.columntype), unused: f.unused ?? false })) : fields;
  const columnTypeOf = (t: unknown): unknown => {
    if (!t || typeof t !== 'object') return t;
    const c = { ...(t as Record<string, unknown>) };
    for (const k of ['component', 'key', 'value']) if (c[k]) c[k] = columnTypeOf(c[k]);
    if (c.fields) c.fields = fieldsOf(c.fields);
    return c;
  };
  const relations = (list: unknown) => (Array.isArray(list) ? list.map((r: Record<string, unknown>) => ({ ...r, fields: fieldsOf(r.fields) })) : list);
  const schema = info.schema as { inputs?: unknown; outputs?: unknown } | undefined;
  return { ...info, schema: schema ? { ...schema, inputs: relations(schema.inputs), outputs: relations(schema.outputs) } : schema, udf_stubs: info.udf_stubs ?? '' };
}

/**
 * Today's fields beside the combined statuses (pipeline-manager PipelineInfo): the combined status split
 * into the resources' status and the runtime's (combined_status.rs: Stopped, Provisioning and Stopping are
 * resource states with no runtime status; any other is the runtime's status on provisioned resources),
 * and what `ops serve` has no notion of (Rust UDFs, storage details, refresh) at its empty value.
 */
function currentDeployment(rec: PipelineRecord, dep: DeploymentState, combined: string, desired: string): Record<string, unknown> {
  const since = dep.deployment_status_since;
  const resources = combined === 'Stopped' || combined === 'Provisioning' || combined === 'Stopping' ? combined : 'Provisioned';
  const runtime = resources === 'Provisioned' ? combined : null;
  const runtimeDesired = desired === 'Stopped' ? null : desired;
  return {
    tags: [],
    platform_version: version(),
    bootstrap_policy: 'await_approval',
    silent_bootstrap: false,
    concurrent_bootstrap: false,
    udf_rust: '',
    udf_toml: '',
    refresh_version: rec.version,
    storage_status_details: null,
    deployment_id: dep.deployment_id,
    deployment_initial: dep.deployment_initial,
    deployment_desired_status_since: since,
    deployment_resources_status: resources,
    deployment_resources_status_details: null,
    deployment_resources_status_since: since,
    deployment_resources_desired_status: desired === 'Stopped' ? 'Stopped' : 'Provisioned',
    deployment_resources_desired_status_since: since,
    deployment_runtime_status: runtime,
    deployment_runtime_status_details: null,
    deployment_runtime_status_since: runtime === null ? null : since,
    deployment_runtime_desired_status: runtimeDesired,
    deployment_runtime_desired_status_since: runtimeDesired === null ? null : since,
  };
}

function serializeV024(rec: PipelineRecord, dep: DeploymentState, opts: { code?: boolean }): Record<string, unknown> {
  return {
    id: rec.id,
    name: rec.name,
    description: rec.description,
    version: rec.version,
    created_at: rec.created_at,
    runtime_config: rec.runtime_config,
    program_code: opts.code === false ? null : rec.program_code,
    program_config: rec.program_config,
    program_version: rec.program_version,
    program_status: rec.program_status,
    program_status_since: rec.program_status_since,
    program_info: rec.program_info,
    program_binary_url: rec.program_binary_url,
    deployment_status: dep.deployment_status,
    deployment_status_since: dep.deployment_status_since,
    deployment_desired_status: dep.deployment_desired_status,
    deployment_error: dep.deployment_error,
    deployment_config: dep.deployment_config,
    deployment_location: dep.deployment_location,
  };
}

/** The program-centric object of GET /v0/programs (the API before v0.23), derived from a pipeline. */
export function serializeProgram(rec: PipelineRecord): Record<string, unknown> {
  const info = rec.program_info as { schema?: unknown } | null;
  return {
    program_id: rec.id,
    name: rec.name,
    description: rec.description,
    version: rec.program_version,
    status: rec.program_status,
    schema: info?.schema ?? null,
    code: rec.program_code,
    config: rec.program_config,
  };
}

/** A UUIDv7 (time-ordered), as Feldera's `Uuid::now_v7()`. */
export function uuidv7(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let ms = Date.now();
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
