/**
 * The SQL compiler out of the event loop: one worker thread (compiler-worker.ts), in a process of its own
 * (workers/process-worker.ts: a heap abort ends that process, not the server), compiles programs one at a time, with a time limit and a heap limit. A program over the time limit, or one that exhausts
 * the worker's heap, is a SqlError naming the limit; the worker is then ended and a fresh one (a fresh
 * WASM parser) serves the next program, as it does after a compile that left the parser broken.
 * Rules: no program can break the compilation of another; the main thread never parses SQL here.
 */
import { ProcessWorker, OUT_OF_MEMORY } from '../../workers/process-worker.js';
import { siblingModule } from '../../workers/spawn.js';
import { READY, ROLE, type CompileAnswer, type CompileReport, type CompileRequest } from '../shared/compile-protocol.js';
import type { SqlCompilerMessage } from './model.js';

export const DEFAULT_COMPILE_TIMEOUT_MS = 300_000;
export const DEFAULT_COMPILE_MEMORY_MB = 1024;

export interface CompilerLimits {
  /** Wall-clock limit of one compile in the worker. */
  timeoutMs: number;
  /** Old-generation heap limit of the compiler worker. */
  memoryMb: number;
}

interface Job extends CompileRequest {
  resolve(report: CompileReport): void;
  /** The result is no longer wanted (a newer program version, a deleted pipeline). */
  stale(): boolean;
}

const CANCELLED: CompileReport = { ok: false, systemError: 'The compilation was cancelled' };

/** The worker's module beside this one (under vitest, which runs src/*.ts, ProcessWorker runs its JavaScript bundle). */
function workerUrl(): URL {
  return siblingModule(import.meta.url, '../worker/compiler-worker');
}

/** One SqlCompilerMessage for a limit the whole program hit (no position: line 1, column 1). */
function limitMessage(message: string): SqlCompilerMessage {
  return {
    start_line_number: 1,
    start_column: 1,
    end_line_number: 1,
    end_column: 1,
    warning: false,
    error_type: 'Compilation error',
    message,
    snippet: null,
  };
}

export class CompilerPool {
  private worker: ProcessWorker | null = null;
  /** The current worker has loaded its parser (it posts READY). */
  private ready = false;
  private readonly queue: Job[] = [];
  private running: { job: Job; timer: NodeJS.Timeout } | null = null;
  private nextId = 1;
  private closed = false;
  /** Workers started so far (a fresh one after each failure): for tests and logs. */
  workersStarted = 0;

  /** Whether a program is being compiled in the worker now (not queued): for tests and logs. */
  get compiling(): boolean {
    return this.running !== null;
  }

  constructor(readonly limits: CompilerLimits) {}

  /**
   * Compiles in the worker, after the programs queued before. A job that became `stale` is dropped
   * unstarted, or, when it runs, ended (with its worker) as soon as another program is queued.
   */
  compile(code: string, outputCase: 'upper' | 'lower', stale: () => boolean = () => false): Promise<CompileReport> {
    if (this.closed) return Promise.resolve({ ok: false, systemError: 'The SQL compiler is shutting down' });
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, code, outputCase, resolve, stale });
      if (this.running?.job.stale()) this.finish(CANCELLED, true);
      else this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve({ ok: false, systemError: 'The SQL compiler is shutting down' });
    this.finish({ ok: false, systemError: 'The SQL compiler is shutting down' }, true);
  }

  private spawn(): ProcessWorker {
    const w = new ProcessWorker(workerUrl(), {
      workerData: ROLE,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, this.limits.memoryMb >> 4)) },
    });
    this.workersStarted++;
    w.unref();
    w.on('message', (a: CompileAnswer | typeof READY) => {
      if (this.worker !== w) return;
      if (a === READY) {
        this.ready = true;
        return this.pump();
      }
      if (this.running?.job.id !== a.id) return;
      this.finish(a.report, a.parserBroken);
    });
    w.on('error', (err: Error & { code?: string }) => {
      if (this.worker !== w) return;
      const oom = err.code === OUT_OF_MEMORY || /out of memory/i.test(err.message);
      this.finish(
        oom
          ? { ok: false, messages: [limitMessage(`The program needs more than the compiler's memory limit of ${this.limits.memoryMb} MB to compile; split it into smaller programs`)] }
          : { ok: false, systemError: `The SQL compiler failed: ${err.message}` },
        true,
      );
    });
    w.on('exit', (code) => {
      if (this.worker !== w) return;
      this.finish({ ok: false, systemError: `The SQL compiler stopped unexpectedly (exit code ${code})` }, true);
    });
    return w;
  }

  private pump(): void {
    while (this.queue.length > 0 && this.queue[0]!.stale()) this.queue.shift()!.resolve(CANCELLED);
    if (this.running || this.closed) return;
    if (this.queue.length === 0) {
      this.worker?.unref(); // an idle worker does not keep the process alive
      return;
    }
    if (!this.worker) {
      try {
        this.ready = false;
        this.worker = this.spawn();
      } catch (err) {
        this.queue.shift()?.resolve({ ok: false, systemError: `The SQL compiler cannot start: ${(err as Error).message}` });
        return this.pump();
      }
      this.worker.ref(); // stay alive until it is ready and has answered
    }
    if (!this.ready) return; // pump() runs again on READY
    const w = this.worker;
    const job = this.queue.shift()!;
    const limit = this.limits.timeoutMs;
    const timer = setTimeout(() => {
      this.finish({ ok: false, messages: [limitMessage(`Compilation took longer than the time limit of ${formatMs(limit)}; split the program into smaller ones`)] }, true);
    }, limit);
    this.running = { job, timer };
    w.ref();
    w.postMessage({ id: job.id, code: job.code, outputCase: job.outputCase } satisfies CompileRequest);
  }

  /** Ends the running job; `discard` ends the worker too (the next job gets a fresh one). */
  private finish(report: CompileReport, discard: boolean): void {
    const run = this.running;
    this.running = null;
    if (run) clearTimeout(run.timer);
    const w = this.worker;
    if (discard && w) {
      this.worker = null;
      void w.terminate();
    } else w?.unref();
    run?.job.resolve(report);
    this.pump();
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
