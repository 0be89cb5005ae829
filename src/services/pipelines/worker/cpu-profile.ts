/**
 * A CPU profile of a pipeline's worker thread, for benches (test/bench/nexmark-http.bench.mjs): when the
 * environment variable OPS_PIPELINE_CPU_PROFILE names a folder, the worker profiles itself from its start
 * (node:inspector) and, at its stop, writes `pipeline-<pid>-<time>.cpuprofile` there (Chrome's format, as
 * `node --cpu-prof` writes; the pipeline's process is ended by its host, so node's own flag never writes).
 * Without the variable nothing is done. A profile that cannot be written is reported on stderr, never fatal.
 */
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class WorkerCpuProfile {
  private session: Session | null = null;

  constructor(private readonly dir = process.env.OPS_PIPELINE_CPU_PROFILE) {
    if (!dir) return;
    this.session = new Session();
    this.session.connect();
    this.session.post('Profiler.enable');
    this.session.post('Profiler.start');
  }

  /** Stops profiling and writes the profile; resolves once it is written (at once without a profile). */
  async stop(): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.session = null;
    await new Promise<void>((resolve) => {
      session.post('Profiler.stop', (err, result) => {
        try {
          if (err) throw err;
          writeFileSync(join(this.dir!, `pipeline-${process.pid}-${Date.now()}.cpuprofile`), JSON.stringify(result.profile));
        } catch (e) {
          process.stderr.write(`pipeline cpu profile not written: ${(e as Error).message}\n`);
        }
        session.disconnect();
        resolve();
      });
    });
  }
}
