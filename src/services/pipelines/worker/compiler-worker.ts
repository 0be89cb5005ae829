/**
 * The SQL compiler's worker thread (node:worker_threads): compiles one program per message and answers
 * with what can cross threads (SQL errors with line and column, or program_info), never the compiled
 * program itself. After a failed compile it checks its parser with a tiny program: a parser left broken
 * (the WASM parser after "memory access out of bounds") is reported, and the pool replaces this worker.
 * Rules: no state shared with the main thread; one message in, one message out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { compileProgram } from './compiler.js';
import { READY, ROLE, type CompileAnswer, type CompileReport, type CompileRequest } from '../shared/compile-protocol.js';

const CANARY = 'CREATE TABLE canary_t (x INT); CREATE VIEW canary_v AS SELECT x FROM canary_t;';

function parserWorks(): boolean {
  try {
    return compileProgram(CANARY, 'upper').ok;
  } catch {
    return false;
  }
}

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
