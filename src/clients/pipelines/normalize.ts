/**
 * One shape for the pipeline objects of both API generations, and the status vocabulary:
 * v0.24 `Shutdown`/`ShuttingDown`/`Failed` versus today's `Stopped`/`Stopping` and `deployment_error`.
 */
import type { ApiGeneration, Pipeline, ProgramPhase, RawPipeline, SqlCompilerMessage } from './types.js';

const CURRENT_ONLY_FIELDS = ['program_error', 'platform_version', 'deployment_runtime_status', 'deployment_resources_status', 'storage_status', 'refresh_version'];

/** Which API generation a pipeline object comes from. */
export function generationOf(raw: RawPipeline): ApiGeneration {
  if (CURRENT_ONLY_FIELDS.some((f) => f in raw)) return 'current';
  if (raw.deployment_status === 'Stopped' || raw.deployment_status === 'Stopping') return 'current';
  return 'legacy';
}

const PHASES: readonly ProgramPhase[] = ['Pending', 'CompilingSql', 'SqlCompiled', 'CompilingRust', 'Success', 'SqlError', 'RustError', 'SystemError'];

export function normalizePipeline(raw: RawPipeline): Pipeline {
  const generation = generationOf(raw);
  let status: ProgramPhase = 'Pending';
  let messages: SqlCompilerMessage[] = [];
  let errorText: string | undefined;
  const ps = raw.program_status;
  if (typeof ps === 'string') {
    status = (PHASES as readonly string[]).includes(ps) ? (ps as ProgramPhase) : 'Pending';
  } else if (ps && typeof ps === 'object') {
    // v0.24: {"SqlError": [...]}, {"RustError": "..."}, {"SystemError": "..."}
    const [key, value] = Object.entries(ps)[0] ?? [];
    if (key === 'SqlError') {
      status = 'SqlError';
      messages = Array.isArray(value) ? (value as SqlCompilerMessage[]) : [];
    } else if (key === 'RustError' || key === 'SystemError') {
      status = key;
      errorText = typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  const pe = raw.program_error;
  if (pe) {
    if (messages.length === 0 && pe.sql_compilation?.messages) messages = pe.sql_compilation.messages;
    if (errorText === undefined && status === 'RustError' && pe.rust_compilation) errorText = [pe.rust_compilation.stderr, pe.rust_compilation.stdout].filter(Boolean).join('\n');
    if (errorText === undefined && status === 'SystemError' && pe.system_error) errorText = pe.system_error;
  }
  const schema = raw.program_info?.schema;
  return {
    name: raw.name,
    id: raw.id,
    description: raw.description ?? '',
    version: raw.version,
    generation,
    program: {
      status,
      since: raw.program_status_since,
      version: raw.program_version,
      messages,
      errorText,
      code: raw.program_code,
    },
    deployment: {
      status: raw.deployment_status ?? 'Unknown',
      desired: raw.deployment_desired_status,
      since: raw.deployment_status_since,
      error: raw.deployment_error ?? null,
      location: raw.deployment_location,
    },
    inputs: schema?.inputs ?? [],
    outputs: schema?.outputs ?? [],
    raw,
  };
}

export function isCompiling(phase: ProgramPhase): boolean {
  return phase === 'Pending' || phase === 'CompilingSql' || phase === 'SqlCompiled' || phase === 'CompilingRust';
}

export function compileFailed(phase: ProgramPhase): boolean {
  return phase === 'SqlError' || phase === 'RustError' || phase === 'SystemError';
}

/** Fully stopped: v0.24 `Shutdown`, today's `Stopped`. */
export function isStopped(status: string): boolean {
  return status === 'Shutdown' || status === 'Stopped';
}

/** The name of the stopped state in a generation (for messages). */
export function stoppedName(generation: ApiGeneration): string {
  return generation === 'current' ? 'Stopped' : 'Shutdown';
}

/** Human words for a compilation phase. */
export function phaseText(phase: ProgramPhase): string {
  switch (phase) {
    case 'Pending':
      return 'waiting for the compiler';
    case 'CompilingSql':
      return 'compiling SQL';
    case 'SqlCompiled':
      return 'SQL compiled';
    case 'CompilingRust':
      return 'compiling the program';
    case 'Success':
      return 'compiled';
    case 'SqlError':
      return 'SQL errors';
    case 'RustError':
      return 'program compilation failed';
    case 'SystemError':
      return 'compiler system error';
  }
}

/** Find a relation by name as the server's URL lookup does: quoted names exactly, others case-insensitively. */
export function findRelation<T extends { name: string; case_sensitive?: boolean }>(relations: readonly T[], name: string): T | undefined {
  if (name.startsWith('"') && name.endsWith('"') && name.length > 1) {
    const exact = name.slice(1, -1);
    return relations.find((r) => r.name === exact);
  }
  return relations.find((r) => r.name === name) ?? relations.find((r) => !r.case_sensitive && r.name.toLowerCase() === name.toLowerCase());
}

/**
 * How to name a relation in a URL (or SQL) so that the server finds the one `findRelation` found: a
 * case-sensitive (quoted) relation with its quotes, since Feldera folds an unquoted name's case
 * (`TaBle1` would reach `table1`); other names as given. Unknown names are passed on as given.
 */
export function relationRef<T extends { name: string; case_sensitive?: boolean }>(relations: readonly T[], name: string): string {
  if (name.startsWith('"') && name.endsWith('"') && name.length > 1) return name;
  const rel = findRelation(relations, name);
  return rel?.case_sensitive ? `"${rel.name}"` : name;
}
