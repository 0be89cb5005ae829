/**
 * Asynchronous compilation of a pipeline's program: Pending -> CompilingSql -> CompilingRust -> Success,
 * or SqlError / SystemError. A newer program version (or a deleted pipeline) cancels a running job.
 * The SQL is checked in the compiler worker (compiler-pool.ts: time and heap limits, a fresh parser after
 * a failure), so no program stalls the event loop or breaks another's compile. The server process never
 * builds a runnable program: a pipeline's worker compiles its program again from the source when it starts.
 */
import { CompilerPool } from './compiler-pool.js';
import type { CompileReport } from '../shared/compile-protocol.js';
import type { Entry } from './entry.js';
import type { LogBook } from '../runner/logs.js';
import { nowIso, pipelineOutputCase, type OutputCase, type ProgramStatus } from './model.js';
import type { PipelineStore } from './store.js';

export class CompileJobs {
  constructor(
    private readonly store: PipelineStore,
    private readonly logs: LogBook,
    private readonly isCurrent: (e: Entry) => boolean,
    private readonly pool: CompilerPool,
    private readonly compileDelayMs = 0,
    private readonly defaultOutputCase: OutputCase | undefined,
    /** Told after every program status change (the manager's monitor events). */
    private readonly onProgramStatus: (e: Entry) => void = () => {},
  ) {}

  /** Ends the compiler worker (pending compiles end as SystemError, which nobody reads any more). */
  close(): Promise<void> {
    return this.pool.close();
  }

  private log(e: Entry, level: 'INFO' | 'WARN' | 'ERROR', message: string): void {
    this.logs.log(level, 'compiler-server', 'compiler_server::compiler', message, { name: e.rec.name, id: e.rec.id });
  }

  private setProgramStatus(e: Entry, status: ProgramStatus): void {
    e.rec.program_status = status;
    e.rec.program_status_since = nowIso();
    this.store.save(e.rec);
    this.onProgramStatus(e);
  }

  /** Whether a compiled program's names were cased otherwise than this server now would (a restart with another --output-case). */
  staleCase(e: Entry): boolean {
    return e.rec.program_status === 'Success' && (e.rec.compiled_output_case ?? 'upper') !== pipelineOutputCase(e.rec, this.defaultOutputCase);
  }

  /**
   * Today's `/v0/validate_program`: the program compiled in the worker (after the queued ones) for its report
   * only, no pipeline touched; names cased as this server cases them by default.
   */
  validate(code: string): Promise<CompileReport> {
    return this.pool.compile(code, this.defaultOutputCase ?? 'upper');
  }

  /** Cancels any job of this pipeline. */
  cancel(e: Entry): void {
    e.compileSeq++;
  }

  schedule(e: Entry): void {
    const seq = ++e.compileSeq;
    const version = e.rec.program_version;
    const alive = () => e.compileSeq === seq && this.isCurrent(e);
    if (e.rec.program_status !== 'Pending') this.setProgramStatus(e, 'Pending');
    setImmediate(() => {
      if (!alive()) return;
      this.setProgramStatus(e, 'CompilingSql');
      this.log(e, 'INFO', `compiling program version ${version}`);
      const started = performance.now();
      const outputCase = pipelineOutputCase(e.rec, this.defaultOutputCase);
      void this.pool
        .compile(e.rec.program_code, outputCase, () => !alive())
        .then((out) => {
          if (!alive()) return;
          if (!out.ok) {
            if ('messages' in out) {
              this.setProgramStatus(e, { SqlError: out.messages });
              this.log(
                e,
                'WARN',
                `SQL compilation of program version ${version} failed with ${out.messages.length} error(s): ${out.messages.map((m) => `line ${m.start_line_number}:${m.start_column}: ${m.message}`).join('; ')}`,
              );
            } else {
              this.setProgramStatus(e, { SystemError: out.systemError });
              this.log(e, 'ERROR', out.systemError);
            }
            return;
          }
          e.rec.program_info = out.info;
          e.rec.compiled_output_case = outputCase;
          this.setProgramStatus(e, 'CompilingRust');
          setTimeout(() => {
            if (!alive()) return;
            e.rec.program_binary_url = `builtin://ops-engine/${e.rec.id}/v${version}`;
            this.setProgramStatus(e, 'Success');
            this.log(e, 'INFO', `program version ${version} compiled in ${(performance.now() - started).toFixed(1)} ms`);
          }, this.compileDelayMs).unref();
        });
    });
  }
}
