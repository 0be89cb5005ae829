/**
 * Group commit: writes requested during one turn of the event loop run in one SQLite transaction, each in
 * its own savepoint (one failing write rolls back alone). A caller's promise settles only after the commit,
 * so an answered request is durable. Cuts the per-write commit cost when many clients write at once.
 */
import type { DB } from './db.js';

interface Job {
  fn: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export class WriteBatcher {
  private queue: Job[] = [];
  private scheduled = false;

  constructor(private readonly db: DB) {}

  run<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const jobs = this.queue;
    this.queue = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    let lastError: unknown;
    try {
      this.db.transaction(() => {
        for (const job of jobs) {
          // SQLite may roll the whole transaction back on some errors (a full disk while spilling the
          // cache): the jobs left would then run outside it and commit alone, so they fail with it
          if (!this.db.inTransaction) {
            outcomes.push({ ok: false, error: lastError });
            continue;
          }
          try {
            outcomes.push({ ok: true, value: this.db.transaction(job.fn)() });
          } catch (error) {
            lastError = error;
            outcomes.push({ ok: false, error });
          }
        }
      })();
    } catch (error) {
      // the commit itself failed: nothing was written (and when SQLite had rolled the transaction back
      // already, the error that made it do so is the one to tell)
      const reason = lastError !== undefined && /no transaction is active/.test((error as Error).message) ? lastError : error;
      for (const job of jobs) job.reject(reason);
      return;
    }
    jobs.forEach((job, i) => {
      const o = outcomes[i]!;
      if (o.ok) job.resolve(o.value);
      else job.reject(o.error);
    });
  }
}
