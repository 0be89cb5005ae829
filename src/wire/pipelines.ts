/**
 * The pipeline API's wire types that the server (services/pipelines) writes and the client (clients/pipelines)
 * reads, declared once, as Feldera's `feldera-types` crate is shared by its manager, adapters and CLI. A leaf:
 * imports nothing; every layer may import it (test/house/layering.test.ts). Shapes are the v0.24-era API's
 * (docs/pipelines.md); what today's Feldera adds is the client's to read (clients/pipelines/types.ts).
 */

/** A message of the SQL compiler (Feldera's SqlCompilerMessage). */
export interface SqlCompilerMessage {
  start_line_number: number;
  start_column: number;
  end_line_number: number;
  end_column: number;
  warning: boolean;
  error_type: string;
  message: string;
  /** The program's text around the error; our server always sends it (null when none), other servers may not. */
  snippet?: string | null;
}

/** An error answer, as Feldera's ErrorResponse. */
export interface ErrorBody {
  message: string;
  error_code: string;
  /** Our server always sends it (null when there is nothing to add). */
  details?: unknown;
}

/** program_status of the v0.24-era API. */
export type ProgramStatus = 'Pending' | 'CompilingSql' | 'CompilingRust' | 'Success' | { SqlError: SqlCompilerMessage[] } | { RustError: string } | { SystemError: string };

/** deployment_status of the v0.24-era API. */
export type DeploymentStatus = 'Shutdown' | 'Provisioning' | 'Initializing' | 'Paused' | 'Running' | 'ShuttingDown' | 'Failed';

/** deployment_desired_status of the v0.24-era API. */
export type DesiredStatus = 'Shutdown' | 'Paused' | 'Running';
