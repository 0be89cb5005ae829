/**
 * A worker thread in a process of its own: what the server runs each pipeline and the SQL compiler in.
 * It looks like a node:worker_threads Worker to its owner (postMessage, 'message', 'error', 'exit',
 * terminate, ref/unref), but the thread lives in a child process (worker-process.ts) that relays its
 * messages over IPC.
 *
 * Why a process: a worker's heap limit (resourceLimits) is best-effort in Node. Usually a worker that
 * reaches it is ended alone (ERR_WORKER_OUT_OF_MEMORY), but for some allocation shapes V8 aborts the whole
 * process instead (nodejs/node#47224, #65019: an array grown by push() in a loop, which is how the engine
 * builds its deltas). In a process of its own, that abort ends only the pipeline: it is reported here as
 * the worker's 'error' with code ERR_WORKER_OUT_OF_MEMORY (recognized from the process's stderr), then
 * 'exit'.
 *
 * Rules: a message is copied (serialized) before postMessage returns, so its buffers stay the caller's; the
 * typed arrays of a message received are the receiver's own (own-buffers.ts), to keep as long as it likes;
 * `transfer` lists are accepted for the Worker shape and not needed. 'error' comes at most once and before
 * 'exit'; 'exit' comes exactly once, whether the worker exited, the process died or terminate() ended it.
 * Shared slots (an Int32Array the worker reads with Atomics, given to it in workerData[sharedSlots.field])
 * are written with store(), through the relay's thread, which answers while the worker computes. The
 * process's stderr goes to ours as it comes; its last few KiB are kept to say why it died.
 *
 * A data channel (option `dataChannel`): a pipe from this process straight to the worker thread, for bulk
 * bytes that should not cross the relay and the serializer (a pipeline's ingress bodies). The worker gets
 * the pipe's file descriptor in workerData[dataChannel.field] and reads it itself (net.Socket({ fd }));
 * `data` is our end, to write. The pipe keeps its own order, not the messages'.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { EventEmitter } from 'node:events';
import type { FromProcess, SharedSlots, StartSpec, ToProcess } from './link-protocol.js';
import { ownBuffers } from './own-buffers.js';
import { runnableModule } from './js-sources.js';
import { siblingModule } from './spawn.js';

export interface ProcessWorkerOptions {
  workerData?: StartSpec['workerData'];
  resourceLimits?: StartSpec['resourceLimits'];
  sharedSlots?: SharedSlots;
  /** The node binary to run (default: this process's own); a test gives one that cannot start. */
  nodePath?: string;
  /** A pipe to the worker thread: its file descriptor goes in workerData[field]. */
  dataChannel?: { field: string };
}

/** The data channel's file descriptor in the child (after stdin, stdout, stderr and the IPC channel). */
const DATA_FD = 4;

/** The error a worker that reached its heap limit is reported with (as node:worker_threads names it). */
export const OUT_OF_MEMORY = 'ERR_WORKER_OUT_OF_MEMORY';
const STDERR_TAIL_BYTES = 8192;
/** What V8 writes when it aborts a process at a heap limit. */
const HEAP_ABORT = /Reached heap limit|heap out of memory|Ineffective mark-compacts near heap limit/i;

export class ProcessWorker extends EventEmitter {
  private readonly child: ChildProcess;
  private stderrTail = '';
  private workerExit: number | null = null;
  private workerError = false;
  private terminating = false;
  private exited = false;
  private readonly exitPromise: Promise<number>;
  /** Our end of the data channel (null without one); writes after the process ended are dropped. */
  readonly data: Writable | null;

  constructor(entry: URL, options: ProcessWorkerOptions = {}) {
    super();
    // node's arguments for the child: none of ours (a --max-old-space-size or a test runner's loader has no
    // business there); run from the TypeScript sources, the child and its worker run their JavaScript copy
    const main = runnableModule(siblingModule(import.meta.url, 'worker-process'));
    const workerEntry = runnableModule(entry);
    const stdio: Array<'ignore' | 'inherit' | 'pipe' | 'ipc'> = ['ignore', 'inherit', 'pipe', 'ipc'];
    if (options.dataChannel) stdio.push('pipe');
    this.child = fork(main, [], { execPath: options.nodePath ?? process.execPath, execArgv: [], serialization: 'advanced', stdio });
    this.data = options.dataChannel ? (this.child.stdio[DATA_FD] as Writable | null) : null;
    // a write to a process that is gone (EPIPE): its end is reported by 'close'
    this.data?.on('error', () => {});
    this.child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.child.on('message', (msg: FromProcess) => this.onMessage(msg));
    let resolveExit!: (code: number) => void;
    this.exitPromise = new Promise<number>((resolve) => (resolveExit = resolve));
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (this.exited) return;
      this.exited = true;
      const exitCode = this.workerExit ?? code ?? 1;
      if (this.workerExit === null && !this.workerError && !this.terminating) {
        this.workerError = true;
        this.emit('error', this.deathError(code, signal));
      }
      this.emit('exit', exitCode);
      resolveExit(exitCode);
    };
    this.child.on('error', (err) => {
      if (this.exited) return;
      this.workerError = true;
      this.emit('error', err);
      // a process that could not be started has no pid and may never report its end
      if (this.child.pid === undefined) finish(1, null);
    });
    // 'close' comes after stderr has ended, so that its tail is whole
    this.child.once('close', finish);
    let workerData = options.workerData ?? null;
    if (options.dataChannel) workerData = { ...(workerData as Record<string, unknown>), [options.dataChannel.field]: DATA_FD };
    const spec: StartSpec = { entry: workerEntry.href, workerData, resourceLimits: options.resourceLimits ?? {}, sharedSlots: options.sharedSlots ?? null };
    this.send({ k: 'start', spec });
  }

  /** The child's process id (for tests and logs). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  private onMessage(msg: FromProcess): void {
    switch (msg.k) {
      case 'message':
        this.emit('message', ownBuffers(msg.m));
        return;
      case 'error': {
        this.workerError = true;
        const err = Object.assign(new Error(msg.message), { name: msg.name, code: msg.code ?? undefined });
        this.emit('error', err);
        return;
      }
      case 'exit':
        this.workerExit = msg.code;
        return;
    }
  }

  /** Why the process ended without its worker's exit: V8's heap abort (as the worker's out-of-memory error), or a signal or exit code. */
  private deathError(code: number | null, signal: NodeJS.Signals | null): Error & { code?: string } {
    const tail = this.stderrTail.trim();
    if (HEAP_ABORT.test(tail)) {
      const line =
        tail
          .split('\n')
          .find((l) => HEAP_ABORT.test(l))
          ?.trim() ?? 'heap limit reached';
      return Object.assign(new Error(`the worker's process was aborted at its heap limit: ${line}`), { code: OUT_OF_MEMORY });
    }
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    const last = tail.split('\n').slice(-3).join(' ').trim();
    return Object.assign(new Error(`the worker's process ended (${how})${last ? `: ${last}` : ''}`), { code: 'ERR_WORKER_PROCESS_ENDED' });
  }

  private send(msg: ToProcess): void {
    if (this.exited || !this.child.connected) return;
    try {
      this.child.send(msg);
    } catch {
      // the channel closed under us: 'close' reports the end
    }
  }

  postMessage(m: unknown, _transfer?: readonly ArrayBuffer[]): void {
    this.send({ k: 'post', m });
  }

  /** Atomics.store(slots, index, value) into the worker's shared slots. */
  store(index: number, value: number): void {
    this.send({ k: 'store', index, value });
  }

  /** Ends the process (and its worker) now; resolves with the exit code once it is gone. */
  terminate(): Promise<number> {
    if (!this.exited) {
      this.terminating = true;
      this.child.kill('SIGKILL');
    }
    return this.exitPromise;
  }

  ref(): void {
    this.child.ref();
    (this.child.channel as { ref?: () => void } | undefined)?.ref?.();
    (this.child.stderr as { ref?: () => void } | null)?.ref?.();
    (this.data as { ref?: () => void } | null)?.ref?.();
  }

  unref(): void {
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
    (this.child.stderr as { unref?: () => void } | null)?.unref?.();
    (this.data as { unref?: () => void } | null)?.unref?.();
  }
}
