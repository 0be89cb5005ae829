/**
 * Messages between the compiler pool (control/compiler-pool.ts, server process) and the compiler's worker
 * (worker/compiler-worker.ts, a process of its own): a program's SQL in, its report out. The report crosses
 * threads, so it holds program_info, never the compiled program.
 */
import type { SqlCompilerMessage } from '../control/model.js';

/** A compile outcome that can cross threads: program_info instead of the compiled program. */
export type CompileReport = { ok: true; info: Record<string, unknown> } | { ok: false; messages: SqlCompilerMessage[] } | { ok: false; systemError: string };

export interface CompileRequest {
  id: number;
  code: string;
  outputCase: 'upper' | 'lower';
}

export interface CompileAnswer {
  id: number;
  report: CompileReport;
  /** The parser fails on a trivial program after this compile: the worker must be replaced. */
  parserBroken: boolean;
}

/** Sent once the module (and its WASM parser) is loaded and has compiled the canary once: compile time limits start after it, so no program is charged for the worker's first compile (the parser's instance, code not yet compiled by the JIT). */
export const READY = 'ready';
/** workerData of a compiler worker: only then does this module serve messages. */
export const ROLE = 'ops-sql-compiler';
