/**
 * The SQL compiler's worker thread (node:worker_threads): compiles one program per message and answers
 * with what can cross threads (SQL errors with line and column, or program_info), never the compiled
 * program itself. After a failed compile it checks its parser with a tiny program: a parser left broken
 * (the WASM parser after "memory access out of bounds") is reported, and the pool replaces this worker.
 * Rules: no state shared with the main thread; one message in, one message out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { compileProgram, type CompileReport } from './compiler.js';

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

const CANARY = 'CREATE TABLE canary_t (x INT); CREATE VIEW canary_v AS SELECT x FROM canary_t;';

function parserWorks(): boolean {
  try {
    return compileProgram(CANARY, 'upper').ok;
  } catch {
    return false;
  }
}

/** Sent once the module (and its WASM parser) is loaded and has compiled the canary once: compile time limits start after it, so no program is charged for the worker's first compile (the parser's instance, code not yet compiled by the JIT). */
export const READY = 'ready';
/** workerData of a compiler worker: only then does this module serve messages. */
export const ROLE = 'ops-sql-compiler';

const port = workerData === ROLE ? parentPort : null;

port?.on('message', (req: CompileRequest) => {
  const out = compileProgram(req.code, req.outputCase);
  const report: CompileReport = out.ok ? { ok: true, info: out.info } : out;
  const answer: CompileAnswer = { id: req.id, report, parserBroken: !out.ok && !parserWorks() };
  port!.postMessage(answer);
});

if (port) {
  parserWorks(); // the warm-up; a parser broken from the start shows on the first program
  port.postMessage(READY);
}
