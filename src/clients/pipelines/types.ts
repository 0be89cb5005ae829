/**
 * Types of the pipeline API as the client sees it, for both API generations it talks to:
 * the v0.24-era API (program_status may carry `{SqlError: [...]}`, deployment_status Shutdown, `/shutdown`)
 * and today's Feldera (plain program_status plus program_error, Stopped, `/stop`, completion tokens, `/query`).
 */
import type { ErrorBody, SqlCompilerMessage } from '../../wire/pipelines.js';

export type { ErrorBody, SqlCompilerMessage } from '../../wire/pipelines.js';

/** `legacy`: the v0.24-era API (and `ops serve`); `current`: today's Feldera (>= v0.97). */
export type ApiGeneration = 'legacy' | 'current';

/** A pipeline object as the server sends it (fields of both generations; all optional but name). */
export interface RawPipeline {
  name: string;
  id?: string;
  description?: string;
  version?: number;
  created_at?: string;
  runtime_config?: Record<string, unknown>;
  program_code?: string | null;
  program_config?: Record<string, unknown>;
  program_version?: number;
  program_status?: string | Record<string, unknown>;
  program_status_since?: string;
  program_error?: {
    sql_compilation?: { exit_code?: number; messages?: SqlCompilerMessage[] } | null;
    rust_compilation?: { exit_code?: number; stdout?: string; stderr?: string } | null;
    system_error?: string | null;
  } | null;
  program_info?: { schema?: { inputs?: RelationInfo[]; outputs?: RelationInfo[] } } | null;
  deployment_status?: string;
  deployment_status_since?: string;
  deployment_desired_status?: string;
  deployment_error?: ErrorBody | null;
  deployment_location?: string | null;
  [key: string]: unknown;
}

export interface RelationInfo {
  name: string;
  case_sensitive?: boolean;
  fields?: { name: string; case_sensitive?: boolean; columntype?: { type?: string; nullable?: boolean } }[];
  materialized?: boolean;
}

/** The phase of compilation, whatever the generation. */
export type ProgramPhase = 'Pending' | 'CompilingSql' | 'SqlCompiled' | 'CompilingRust' | 'Success' | 'SqlError' | 'RustError' | 'SystemError';

/** A pipeline as the commands use it: one shape for both generations. */
export interface Pipeline {
  name: string;
  id?: string;
  description: string;
  version?: number;
  generation: ApiGeneration;
  program: {
    status: ProgramPhase;
    since?: string;
    version?: number;
    /** SQL compiler messages (errors and warnings). */
    messages: SqlCompilerMessage[];
    /** Rust compiler or system error text. */
    errorText?: string;
    code?: string | null;
  };
  deployment: {
    /** As the server says it (Shutdown, Stopped, Running, ...). */
    status: string;
    desired?: string;
    since?: string;
    error: ErrorBody | null;
    location?: string | null;
  };
  inputs: RelationInfo[];
  outputs: RelationInfo[];
  raw: RawPipeline;
}

/** One change of a view: exactly one of insert/delete is set. */
export interface Change {
  insert?: Record<string, unknown>;
  delete?: Record<string, unknown>;
  [key: string]: unknown;
}

/** One frame of an egress response. */
export interface EgressFrame {
  sequenceNumber: number | null;
  /** No data field at all: a keep-alive. */
  keepAlive: boolean;
  /** Changes of a JSON frame (empty for keep-alives). */
  changes: Change[];
  /** CSV payload of a CSV frame. */
  text?: string;
  /** Today's `send_snapshot` frames say whether they belong to the initial snapshot. */
  snapshot?: boolean;
  /** The frame exactly as received (without its separator). */
  raw: string;
}

export interface ProgramSummary {
  name: string;
  version?: number;
  status: ProgramPhase;
  description?: string;
}
