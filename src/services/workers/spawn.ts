/**
 * Starts a worker thread from a module of ours. Built code (dist/*.js) runs the module directly; when
 * the caller itself runs from the TypeScript sources (vitest), the worker runs the module's fresh
 * JavaScript copy (js-sources.ts). Nothing else differs between the two.
 *
 * A worker's heap limit (resourceLimits.maxOldGenerationSizeMb: a pipeline's memory_mb_max, the compiler's
 * limit) holds whatever flags the process was started with: V8 lets a process-wide --max-old-space-size
 * (say from NODE_OPTIONS) override the limit of every isolate made after it, so that a pipeline limited to
 * 128 MiB grew to 8 GB under NODE_OPTIONS=--max-old-space-size=8000. The flag is set back to its default
 * (0: each isolate's own limit) before workers are made; the main thread's heap, made already, keeps it.
 */
import { setFlagsFromString } from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { runnableModule } from './js-sources.js';

let flagsReset = false;

export function spawnWorker(entry: URL, options: WorkerOptions = {}): Worker {
  if (options.resourceLimits && !flagsReset) {
    setFlagsFromString('--max-old-space-size=0');
    flagsReset = true;
  }
  return new Worker(runnableModule(entry), options);
}

/** The URL of a module beside `base` (a relative path without extension): `.js` in built code, `.ts` in the sources. */
export function siblingModule(base: string, name: string): URL {
  const ext = base.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${ext}`, base);
}
