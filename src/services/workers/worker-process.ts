/**
 * The entry of a worker's own process (started by process-worker.ts): it runs the worker thread it is
 * told to (spawn.ts, with the heap limit it is given) and relays messages both ways over the IPC
 * channel. The worker thread is where the work happens; this thread only copies messages, so it answers
 * at once (shared slots are written here while the worker computes).
 *
 * Rules: the process lives exactly as long as its worker: when the worker exits, its exit code is sent
 * and the process ends; when the server goes away (the IPC channel closes), the process ends at once.
 * Terminal and service-manager signals (SIGINT, SIGTERM, SIGHUP) are the server's to act on: the server
 * stops its workers itself, so a Ctrl-C at `ops serve` does not kill a pipeline before it is shut down.
 * If V8 aborts the process because the worker reached its heap limit (nodejs/node#47224), only this
 * process ends; its stderr says why, and the server reads it there.
 */
import type { Worker } from 'node:worker_threads';
import { ownBuffers } from './own-buffers.js';
import { spawnWorker } from './spawn.js';
import type { FromProcess, StartSpec, ToProcess } from './link-protocol.js';

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});
process.on('disconnect', () => process.exit(1));

let worker: Worker | null = null;
let slots: Int32Array | null = null;
/** Messages that came before the worker started (none in practice: `start` is the first). */
const early: unknown[] = [];

function send(msg: FromProcess): void {
  if (process.connected) process.send!(msg);
}

/** A message for the worker, its typed arrays copied out of the channel's read buffer and transferred. */
function postToWorker(m: unknown): void {
  const transfer: ArrayBuffer[] = [];
  const own = ownBuffers(m, transfer);
  worker!.postMessage(own, transfer);
}

function start(spec: StartSpec): void {
  let workerData = spec.workerData;
  if (spec.sharedSlots) {
    const shared = new SharedArrayBuffer(spec.sharedSlots.length * Int32Array.BYTES_PER_ELEMENT);
    slots = new Int32Array(shared);
    workerData = { ...(workerData as Record<string, unknown>), [spec.sharedSlots.field]: shared };
  }
  const w = spawnWorker(new URL(spec.entry), { workerData, resourceLimits: spec.resourceLimits, stdout: false, stderr: false });
  worker = w;
  w.on('message', (m: unknown) => send({ k: 'message', m }));
  w.on('error', (err: Error & { code?: string }) => send({ k: 'error', name: err?.name ?? 'Error', message: err?.message ?? String(err), code: err?.code ?? null }));
  w.on('exit', (code) => {
    if (!process.connected) process.exit(code);
    process.send!({ k: 'exit', code } satisfies FromProcess, undefined, {}, () => process.exit(0));
  });
  for (const m of early.splice(0)) postToWorker(m);
}

process.on('message', (msg: ToProcess) => {
  switch (msg.k) {
    case 'start':
      if (!worker) start(msg.spec);
      return;
    case 'post':
      if (worker) postToWorker(msg.m);
      else early.push(msg.m);
      return;
    case 'store':
      if (slots) Atomics.store(slots, msg.index, msg.value);
      return;
  }
});
