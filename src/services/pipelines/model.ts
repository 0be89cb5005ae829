/**
 * The pipeline object of the v0.24-era API (Feldera's ExtendedPipelineDescr): persisted fields, the
 * in-memory deployment fields, defaults of runtime_config/program_config, and the serialisation in
 * the reference's field order.
 */
import type { ErrorBody } from './errors.js';

export type ProgramStatus =
  | 'Pending'
  | 'CompilingSql'
  | 'CompilingRust'
  | 'Success'
  | { SqlError: SqlCompilerMessage[] }
  | { RustError: string }
  | { SystemError: string };

export type DeploymentStatus =
  | 'Shutdown'
  | 'Provisioning'
  | 'Initializing'
  | 'Paused'
  | 'Running'
  | 'ShuttingDown'
  | 'Failed';

export type DesiredStatus = 'Shutdown' | 'Paused' | 'Running';

export interface SqlCompilerMessage {
  start_line_number: number;
  start_column: number;
  end_line_number: number;
  end_column: number;
  warning: boolean;
  error_type: string;
  message: string;
  snippet: string | null;
}

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
}

/** Deployment fields: in memory only (a restarted server has every pipeline Shutdown). */
export interface DeploymentState {
  deployment_status: DeploymentStatus;
  deployment_status_since: string;
  deployment_desired_status: DesiredStatus;
  deployment_error: ErrorBody | null;
  deployment_config: Record<string, unknown> | null;
  deployment_location: string | null;
}

export function nowIso(): string {
  // RFC 3339 with microseconds, as the reference's timestamps.
  return new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function defaultRuntimeConfig(input: Record<string, unknown> = {}): Record<string, unknown> {
  const resources = (input.resources && typeof input.resources === 'object' ? input.resources : {}) as Record<
    string,
    unknown
  >;
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

export function isCompiling(s: ProgramStatus): boolean {
  return s === 'Pending' || s === 'CompilingSql' || s === 'CompilingRust';
}

export function serializePipeline(
  rec: PipelineRecord,
  dep: DeploymentState,
  opts: { code?: boolean } = {},
): Record<string, unknown> {
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
