/**
 * A worker thread in a process of its own (workers/process-worker.ts): messages both ways, shared slots
 * written while the worker computes, and every way the worker or its process can end, each reported once
 * and with its reason; the process never outlives the server, and a Ctrl-C meant for the server does not
 * end it. Real child processes, each running a small worker module written here.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { OUT_OF_MEMORY, ProcessWorker } from '../../../src/services/workers/process-worker.js';
import { ROOT } from '../../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'ops-process-worker-'));
const started: ProcessWorker[] = [];
afterAll(async () => {
  await Promise.all(started.map((w) => w.terminate()));
  rmSync(dir, { recursive: true, force: true });
});

/** A worker module of `body` (plain JavaScript with parentPort and workerData in scope). */
function workerModule(name: string, body: string): URL {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `import { parentPort, workerData } from 'node:worker_threads';\n${body}\n`);
  return pathToFileURL(file);
}

function start(entry: URL, options: ConstructorParameters<typeof ProcessWorker>[1] = {}): ProcessWorker {
  const w = new ProcessWorker(entry, options);
  started.push(w);
  return w;
}

/** What the worker reports until it exits: its messages, errors and exit codes, in order. */
function record(w: ProcessWorker) {
  const events: { kind: 'message' | 'error' | 'exit'; value: unknown }[] = [];
  w.on('message', (m) => events.push({ kind: 'message', value: m }));
  w.on('error', (e: Error & { code?: string }) => events.push({ kind: 'error', value: { message: e.message, code: e.code } }));
  const exited = new Promise<number>((resolve) => w.on('exit', (code: number) => (events.push({ kind: 'exit', value: code }), resolve(code))));
  return { events, exited };
}

const nextMessage = (w: ProcessWorker) => new Promise<unknown>((resolve) => w.once('message', resolve));

function alive(pid: number): boolean {
  try {
    // a zombie (ended, not yet reaped by whoever adopted it) counts as gone
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const ECHO = workerModule(
  'echo',
  `parentPort.postMessage({ t: 'hello', data: workerData });
parentPort.on('message', (m) => {
  if (m.t === 'bytes') {
    const sum = m.bytes.reduce((a, b) => a + b, 0);
    const back = new Uint8Array(m.bytes.length).map((_, i) => m.bytes[m.bytes.length - 1 - i]);
    parentPort.postMessage({ t: 'bytes', n: m.n, sum, isUint8: m.bytes instanceof Uint8Array, back }, [back.buffer]);
  } else parentPort.postMessage(m);
});`,
);

describe('a worker in a process of its own', () => {
  it('gets its workerData, and messages go both ways in order, bytes intact, the sender keeping its buffers', async () => {
    const w = start(ECHO, { workerData: { name: 'p1', limits: [1, 2] } });
    expect(await nextMessage(w)).toEqual({ t: 'hello', data: { name: 'p1', limits: [1, 2] } });
    const got: { n: number; sum: number; isUint8: boolean; back: Uint8Array }[] = [];
    w.on('message', (m: { t: string }) => m.t === 'bytes' && got.push(m as never));
    const sent: Uint8Array[] = [];
    for (let n = 0; n < 20; n++) {
      const bytes = new Uint8Array(50_000 + n * 1000).map((_, i) => (i * 7 + n) & 0xff);
      sent.push(bytes);
      w.postMessage({ t: 'bytes', n, bytes }, [bytes.buffer]);
    }
    await until(() => got.length === 20, '20 answers');
    expect(got.map((g) => g.n)).toEqual([...Array(20).keys()]);
    for (const [n, g] of got.entries()) {
      expect(g.isUint8).toBe(true);
      expect(g.sum).toBe(sent[n]!.reduce((a, b) => a + b, 0)); // still readable here: copied, not transferred away
      expect(Buffer.from(g.back).equals(Buffer.from(sent[n]!.slice().reverse()))).toBe(true);
    }
  });

  it('sees shared slots written while it computes without pause', async () => {
    const entry = workerModule(
      'spin',
      `const slots = new Int32Array(workerData.cancels);
parentPort.postMessage('spinning');
const t0 = Date.now();
while (Atomics.load(slots, 5) !== 43 && Date.now() - t0 < 20000) {} // never yields to its event loop
parentPort.postMessage(Atomics.load(slots, 5) === 43 ? 'seen' : 'not seen');`,
    );
    const w = start(entry, { workerData: {}, sharedSlots: { field: 'cancels', length: 8 } });
    expect(await nextMessage(w)).toBe('spinning');
    w.store(5, 43);
    expect(await nextMessage(w)).toBe('seen');
  });

  it('reads its data channel itself: bytes written in any pieces arrive whole and in order, beside the messages', async () => {
    const entry = workerModule(
      'channel',
      `import { Socket } from 'node:net';
import { createHash } from 'node:crypto';
const hash = createHash('sha256');
let n = 0;
const channel = new Socket({ fd: workerData.dataFd, readable: true, writable: false });
channel.on('data', (d) => {
  hash.update(d);
  n += d.length;
  if (n === workerData.total) parentPort.postMessage({ n, sha: hash.digest('hex') });
});
parentPort.postMessage('listening');`,
    );
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 251;
    const w = start(entry, { workerData: { total: bytes.length }, dataChannel: { field: 'dataFd' } });
    expect(await nextMessage(w)).toBe('listening');
    const done = nextMessage(w);
    for (let at = 0; at < bytes.length; at += 65_537) w.data!.write(bytes.subarray(at, at + 65_537));
    expect(await done).toEqual({ n: bytes.length, sha: createHash('sha256').update(bytes).digest('hex') });
  });

  it('without a data channel has none', () => {
    const w = start(workerModule('plain', `parentPort.postMessage('up');`));
    expect(w.data).toBeNull();
  });

  it('that throws is reported as an error with its message, then one exit', async () => {
    const w = start(workerModule('throws', `setTimeout(() => { throw new RangeError('boom from the worker'); }, 10);`));
    const { events, exited } = record(w);
    await exited;
    expect(events.map((e) => e.kind)).toEqual(['error', 'exit']);
    expect((events[0]!.value as { message: string }).message).toBe('boom from the worker');
  });

  it('that reaches its heap limit is reported as out of memory (however Node or V8 ends it), and the server process lives on', async () => {
    const w = start(workerModule('hog', `const keep = []; for (;;) keep.push({ a: keep.length, b: 'x' + keep.length });`), { resourceLimits: { maxOldGenerationSizeMb: 16 } });
    const { events, exited } = record(w);
    await exited;
    expect(events.map((e) => e.kind)).toEqual(['error', 'exit']);
    expect((events[0]!.value as { code: string }).code).toBe(OUT_OF_MEMORY);
  });

  it("whose process dies (the kernel's OOM killer, a signal) is reported with the signal, then one exit", async () => {
    const w = start(workerModule('killed', `parentPort.postMessage('up'); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 20);`));
    const { events, exited } = record(w);
    await exited;
    expect(events.map((e) => e.kind)).toEqual(['message', 'error', 'exit']);
    expect(events[1]!.value).toMatchObject({ code: 'ERR_WORKER_PROCESS_ENDED', message: expect.stringMatching(/signal SIGKILL/) });
  });

  it('whose process V8 aborts at the heap limit is reported as out of memory, from what V8 writes to stderr', async () => {
    // V8's message as it writes it on that abort (nodejs/node#47224), then the process ends as the abort ends it
    const entry = workerModule(
      'v8abort',
      `process.stderr.write('\\n<--- Last few GCs --->\\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\\n', () => setTimeout(() => process.kill(process.pid, 'SIGKILL'), 50));`,
    );
    const w = start(entry);
    const { events, exited } = record(w);
    await exited;
    expect(events.map((e) => e.kind)).toEqual(['error', 'exit']);
    expect(events[0]!.value).toMatchObject({ code: OUT_OF_MEMORY, message: expect.stringMatching(/Reached heap limit/) });
  });

  it('whose process cannot be started reports the error, then one exit; terminate() does not wait for a process that never ran', async () => {
    const w = start(ECHO, { nodePath: join(dir, 'no-such-node') });
    const { events, exited } = record(w);
    await exited;
    expect(events.map((e) => e.kind)).toEqual(['error', 'exit']);
    expect(events[0]!.value).toMatchObject({ code: 'ENOENT' });
    expect(await w.terminate()).toBe(1);
  });

  it('ended by terminate() reports one exit and no error', async () => {
    const w = start(ECHO);
    await nextMessage(w);
    const { events } = record(w);
    const code = await w.terminate();
    expect(events).toEqual([{ kind: 'exit', value: code }]);
  });

  it('ignores a Ctrl-C meant for the server (SIGINT), which stops its workers itself', async () => {
    const w = start(ECHO);
    await nextMessage(w);
    process.kill(w.pid!, 'SIGINT');
    await new Promise((r) => setTimeout(r, 200));
    w.postMessage({ t: 'still-there' });
    expect(await nextMessage(w)).toEqual({ t: 'still-there' });
  });

  it('ends when the server process is killed', async () => {
    // a server process of its own (built code), killed without a chance to stop its workers
    const script = join(dir, 'server.mjs');
    writeFileSync(
      script,
      `import { ProcessWorker } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/services/workers/process-worker.js')).href)};
const w = new ProcessWorker(new URL(${JSON.stringify(ECHO.href)}));
w.once('message', () => console.log(w.pid));
setInterval(() => {}, 1000);\n`,
    );
    const server = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve) => server.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
    expect(alive(pid)).toBe(true);
    server.kill('SIGKILL');
    await until(() => !alive(pid), "the worker's process to end");
  });
});
