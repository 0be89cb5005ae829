/**
 * Watch streams and the server's close under careless and hostile clients: aborted watches, spare and
 * half-sent connections, stalled request bodies, and pipelines that shut down, fail or restart while
 * streams are open. Every stream must end, every count go back to zero, and close() return promptly.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Socket } from 'node:net';
import { rawClient, type RawClient } from '../../helpers/raw-client.js';
import { createCompiled, ingest, shutdown, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

const SQL = 'CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR);\nCREATE VIEW v AS SELECT id, s FROM t WHERE id % 2 = 0;';

/** Resolves with how long close() took, or with Infinity when it has not returned within `limitMs`. */
async function timedClose(svc: Svc, limitMs: number): Promise<number> {
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const took = await Promise.race([svc.close().then(() => Date.now() - t0), new Promise<number>((r) => (timer = setTimeout(() => r(Infinity), limitMs)))]);
  clearTimeout(timer);
  return took;
}

async function outputs(svc: Svc, name: string): Promise<any[]> {
  return (await svc.call('GET', `/v0/pipelines/${name}/stats`)).json.outputs;
}

// generous: each test starts a pipeline worker and some steps on what may be a loaded machine
describe('closing the server', { timeout: 90_000 }, () => {
  // the bug: after watches were aborted and the pipeline shut down, close() waited forever on a
  // connection that had sent nothing (fetch's spare pooled connection), because Node counts it as
  // a request in progress and stops timing such connections once closing starts
  it('returns at once after aborted watches, with connections that sent nothing or half a request head', async () => {
    // a grace period far beyond the bound below: only connections with a response being written may use it
    const svc = await startSvc({ closeGraceMs: 60_000 });
    await createCompiled(svc, 'p', SQL);
    await startRunning(svc, 'p');
    for (let i = 0; i < 4; i++) {
      const w = await WatchReader.open(svc, 'p', 'v', 'format=json');
      expect((await ingest(svc, 'p', 't', 'format=json', `{"insert":{"id":${2 * i},"s":"a"}}`)).status).toBe(200);
      await w.until((r) => r.items().length === 1, 'the change');
      w.close();
    }
    const silent = await rawClient(svc.base);
    const halfHead = await rawClient(svc.base);
    halfHead.write('GET /v0/pipelines HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await shutdown(svc, 'p');
    const took = await timedClose(svc, 30_000);
    expect(took).toBeLessThan(30_000);
    await silent.gone;
    await halfHead.gone;
  });

  it('gives a request still being received the grace period, then cuts its connection', async () => {
    const svc = await startSvc({ closeGraceMs: 300 });
    await createCompiled(svc, 'p', SQL);
    await startRunning(svc, 'p');
    // a chunked body that never ends: the request is in progress, so it is not cut before the grace period
    const stalled = await rawClient(svc.base);
    stalled.write('POST /v0/pipelines/p/egress/v?format=json HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n');
    await new Promise((r) => setTimeout(r, 100));
    let cutAt = 0;
    void stalled.gone.then(() => (cutAt = Date.now()));
    const t0 = Date.now();
    const took = await timedClose(svc, 30_000);
    expect(took).toBeLessThan(30_000);
    await stalled.gone;
    expect(cutAt - t0).toBeGreaterThanOrEqual(250);
  });

  it('answers an ingress request whose client stalled mid-body when the pipeline shuts down, without waiting for the body', async () => {
    const svc = await startSvc({ closeGraceMs: 60_000 });
    await createCompiled(svc, 'p', SQL);
    await startRunning(svc, 'p');
    const stalled = await rawClient(svc.base);
    stalled.write('POST /v0/pipelines/p/ingress/t?format=json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"insert":{"id":2,');
    await new Promise((r) => setTimeout(r, 200));
    await shutdown(svc, 'p');
    await waitFor(() => stalled.received.includes('\r\n\r\n') && stalled.received, 'the answer');
    // 503 Terminating when the request reached the pipeline first; 400 when (on a slow machine) it arrived after the shutdown
    expect(stalled.received).toMatch(/^HTTP\/1\.1 (503|400) /);
    expect(stalled.received).toMatch(/"error_code":"(Terminating|PipelineNotRunningOrPaused)"/);
    expect(await timedClose(svc, 30_000)).toBeLessThan(30_000);
    await stalled.gone;
  });
});

/**
 * Counts the intervals created from now on that are still running (the pipelines' keep-alive timers
 * among them; unref'd timers do not show in process.getActiveResourcesInfo()).
 */
function trackIntervals(): { live: () => number; restore: () => void } {
  const live = new Set<unknown>();
  const { setInterval: set, clearInterval: clear, clearTimeout: clearT } = globalThis;
  globalThis.setInterval = ((...args: Parameters<typeof set>) => {
    const h = set(...args);
    live.add(h);
    return h;
  }) as typeof set;
  globalThis.clearInterval = ((h: Parameters<typeof clear>[0]) => {
    live.delete(h);
    clear(h);
  }) as typeof clear;
  globalThis.clearTimeout = ((h: Parameters<typeof clearT>[0]) => {
    live.delete(h);
    clearT(h);
  }) as typeof clearT;
  return {
    live: () => live.size,
    restore: () => Object.assign(globalThis, { setInterval: set, clearInterval: clear, clearTimeout: clearT }),
  };
}

/** The server's end of each connection, by the client's port (a paused client cannot see its connection closed). */
const serverEnds = new WeakMap<Svc, Map<number, Socket>>();
function trackServerEnds(svc: Svc): Svc {
  const ends = new Map<number, Socket>();
  svc.sa.app.server.on('connection', (s: Socket) => ends.set(s.remotePort!, s));
  serverEnds.set(svc, ends);
  return svc;
}
function serverEnd(svc: Svc, c: RawClient): Socket {
  return serverEnds.get(svc)!.get(c.socket.localPort!)!;
}

/** Opens a watch stream from a raw socket that never reads what it is sent. */
async function stalledWatch(svc: Svc, name: string, query = 'format=json') {
  const c = await rawClient(svc.base);
  c.write(`POST /v0/pipelines/${name}/egress/v?${query} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`);
  await waitFor(() => c.received.startsWith('HTTP/1.1 200'), 'the stalled watch to open');
  c.socket.pause();
  return c;
}

/**
 * Big steps until output is queued for the stalled streams alone (their sockets' buffers full), each read
 * whole by the fast `readers` before the next: as many steps as this machine's socket buffers need, not a
 * fixed count sized for the biggest.
 */
async function stepsUntilQueued(svc: Svc, name: string, readers: WatchReader[], stalled: number): Promise<void> {
  const s = 'x'.repeat(1000);
  for (let step = 0; ; step++) {
    const queued = (await outputs(svc, name)).filter((o) => o.metrics.queued_batches > 0).length;
    if (queued === stalled) return;
    expect(step, 'steps without output queued for the stalled readers').toBeLessThan(100);
    const body = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ insert: { id: (step * 500 + i) * 2, s } })));
    expect((await ingest(svc, name, 't', 'format=json&array=true', body)).status).toBe(200);
    for (const r of readers) await r.until((w) => w.chunks.filter((c) => c.json_data || c.text_data).length > step, `step ${step}`);
  }
}

describe('watch streams when the pipeline goes away', { timeout: 90_000 }, () => {
  /** A mix of streams: json and csv readers, and stalled readers with output still queued for them. */
  async function openMany(svc: Svc, name: string) {
    const readers = await Promise.all([
      ...Array.from({ length: 6 }, () => WatchReader.open(svc, name, 'v', 'format=json')),
      ...Array.from({ length: 3 }, () => WatchReader.open(svc, name, 'v', 'format=csv')),
    ]);
    const stalled = [await stalledWatch(svc, name), await stalledWatch(svc, name)];
    expect(await outputs(svc, name)).toHaveLength(11);
    await stepsUntilQueued(svc, name, readers, 2);
    const queued = (await outputs(svc, name)).filter((o) => o.metrics.queued_batches > 0);
    expect(queued, 'output still queued for both stalled readers').toHaveLength(2);
    return { readers, stalled };
  }

  it('shutdown ends every stream, cuts off stalled readers that do not take the rest; restart starts afresh; no watcher or timer is left', async () => {
    const svc = trackServerEnds(await startSvc({ closeGraceMs: 60_000 }));
    await createCompiled(svc, 'p', SQL);
    const intervals = trackIntervals();
    onTestFinished(() => intervals.restore());
    await startRunning(svc, 'p');
    const { readers, stalled } = await openMany(svc, 'p');
    expect(intervals.live(), 'the keep-alive timer of the running pipeline').toBeGreaterThan(0);
    await shutdown(svc, 'p');
    for (const r of readers) await r.until((w) => w.ended, 'the stream to end');
    // the stalled readers had output queued: their connections are cut after END_DRAIN_MS
    for (const c of stalled) await waitFor(() => serverEnd(svc, c).destroyed, 'the stalled reader to be cut off');
    await waitFor(() => intervals.live() === 0, 'no timer left running');

    // restarted: a new instance, whose streams see only its own changes
    await startRunning(svc, 'p');
    expect(await outputs(svc, 'p')).toEqual([]);
    const fresh = await WatchReader.open(svc, 'p', 'v', 'format=json');
    expect((await ingest(svc, 'p', 't', 'format=json', '{"insert":{"id":4,"s":"after"}}')).status).toBe(200);
    await fresh.until((w) => w.items().length === 1, 'the change after the restart');
    expect(fresh.items()).toEqual([{ insert: { ID: 4, S: 'after' } }]);
    // a running pipeline cannot be deleted (its streams go on); once shut down it can, and its followed log ends
    const follow = await fetch(`${svc.base}/v0/pipelines/p/logs?follow=true`);
    expect(follow.status).toBe(200);
    const followed = follow.text();
    expect((await svc.call('DELETE', '/v0/pipelines/p')).status).toBe(400);
    await shutdown(svc, 'p');
    await fresh.until((w) => w.ended, 'the stream to end');
    expect((await svc.call('DELETE', '/v0/pipelines/p')).status).toBe(200);
    expect(await followed).toMatch(/deployment status: Shutdown\n$/);
    expect(await timedClose(svc, 30_000)).toBeLessThan(30_000);
  });

  it('a pipeline whose worker dies ends every stream (stalled ones too) and leaves no watcher or timer', async () => {
    // the fault knob kills every pipeline's worker on its first ingest; the streams were opened before
    const svc = trackServerEnds(await startSvc({ closeGraceMs: 60_000, pipelinesWorkerFault: 'exit' }));
    await createCompiled(svc, 'p', SQL);
    const intervals = trackIntervals();
    onTestFinished(() => intervals.restore());
    await startRunning(svc, 'p');
    expect(intervals.live(), 'the keep-alive timer of the running pipeline').toBeGreaterThan(0);
    const readers = await Promise.all(Array.from({ length: 5 }, () => WatchReader.open(svc, 'p', 'v', 'format=json')));
    const stalled = await stalledWatch(svc, 'p');
    expect((await ingest(svc, 'p', 't', 'format=json', '{"insert":{"id":2,"s":"a"}}')).json.error_code).toBe('RuntimeError.WorkerPanic');
    for (const r of readers) await r.until((w) => w.ended, 'the stream to end');
    // nothing was queued for the stalled reader: its stream ended normally (the chunked body's last chunk)
    stalled.socket.resume();
    await waitFor(() => stalled.received.endsWith('\r\n0\r\n\r\n'), 'the end of the stalled stream');
    const p = await waitFor(async () => {
      const r = (await svc.call('GET', '/v0/pipelines/p')).json;
      return r.deployment_status === 'Failed' && r;
    }, 'Failed');
    expect(p.deployment_error.error_code).toBe('RuntimeError.WorkerPanic');
    await waitFor(() => intervals.live() === 0, 'no timer left running');
    expect(await timedClose(svc, 30_000)).toBeLessThan(30_000);
  });

  it('clients that disconnect before or while the stream opens leave no watcher behind', async () => {
    const svc = await startSvc();
    await createCompiled(svc, 'p', SQL);
    await startRunning(svc, 'p');
    const clients = await Promise.all(Array.from({ length: 30 }, () => rawClient(svc.base)));
    clients.forEach((c, i) => {
      c.write(`POST /v0/pipelines/p/egress/v?format=json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`);
      // some at once, some a moment later
      if (i % 2 === 0) c.socket.destroy();
      else setTimeout(() => c.socket.destroy(), i);
    });
    await Promise.all(clients.map((c) => c.gone));
    await waitFor(async () => (await outputs(svc, 'p')).length === 0, 'every watcher to be removed');
    // the pipeline still serves a watcher as before
    const w = await WatchReader.open(svc, 'p', 'v', 'format=json');
    expect((await ingest(svc, 'p', 't', 'format=json', '{"insert":{"id":2,"s":"a"}}')).status).toBe(200);
    await w.until((r) => r.items().length === 1, 'the change');
    await shutdown(svc, 'p');
    expect(await timedClose(svc, 30_000)).toBeLessThan(30_000);
  });

  it('closing the server with streams open (stalled ones too) ends them and returns promptly', async () => {
    const svc = trackServerEnds(await startSvc({ closeGraceMs: 60_000 }));
    await createCompiled(svc, 'p', SQL);
    await startRunning(svc, 'p');
    const { readers, stalled } = await openMany(svc, 'p');
    expect(await timedClose(svc, 30_000)).toBeLessThan(30_000);
    for (const r of readers) await r.until((w) => w.ended, 'the stream to end');
    for (const c of stalled) expect(serverEnd(svc, c).destroyed).toBe(true);
  });
});
