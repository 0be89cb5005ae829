/**
 * Starts a worker thread from a module of ours. Built code (dist/*.js) runs the module directly; when
 * the caller itself runs from the TypeScript sources (vitest), the worker first registers
 * ts-hooks.mjs so that it can load the `.ts` module graph. Nothing else differs between the two.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function spawnWorker(entry: URL, options: WorkerOptions = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const hooks = new URL('./ts-hooks.mjs', import.meta.url).href;
  const code = [`import { register } from 'node:module';`, `register(${JSON.stringify(hooks)});`, `await import(${JSON.stringify(entry.href)});`].join('\n');
  return new Worker(code, { ...options, eval: true });
}

/** The URL of a module beside `base` (a relative path without extension): `.js` in built code, `.ts` in the sources. */
export function siblingModule(base: string, name: string): URL {
  const ext = base.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${ext}`, base);
}
