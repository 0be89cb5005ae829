/** Watch streams: many watchers, a watcher that disconnects, a watcher that never reads, paused ingress. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bag, createCompiled, ingest, shutdown, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc({ pipelinesWatchMaxChunks: 16 });
});
afterAll(async () => {
  await svc.close();
});

const SQL = 'CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR);\nCREATE VIEW v AS SELECT id, s FROM t WHERE id % 2 = 0;';

async function stats(name: string) {
  return (await svc.call('GET', `/v0/pipelines/${name}/stats`)).json;
}

describe('watch streams', () => {
  it('many concurrent watchers (json and csv) each receive every change once', async () => {
    await createCompiled(svc, 'many', SQL);
    await startRunning(svc, 'many');
    const json = await Promise.all(Array.from({ length: 8 }, () => WatchReader.open(svc, 'many', 'V', 'format=json')));
    const csv = await Promise.all(Array.from({ length: 4 }, () => WatchReader.open(svc, 'many', 'v', 'format=csv')));
    expect((await stats('many')).outputs).toHaveLength(12);
    for (let step = 0; step < 5; step++) {
      const body = Array.from({ length: 10 }, (_, i) => JSON.stringify({ insert: { id: step * 10 + i, s: `s${step}` } })).join('\n');
      expect((await ingest(svc, 'many', 't', 'format=json', body)).status).toBe(200);
    }
    const expected = bag(Array.from({ length: 25 }, (_, k) => ({ insert: { ID: k * 2, S: `s${Math.floor((k * 2) / 10)}` } })));
    for (const w of json) {
      await w.until((r) => r.items().length >= 25, 'all json changes');
      expect(bag(w.items())).toEqual(expected);
      expect(w.chunks.filter((c) => c.json_data)).toHaveLength(5);
    }
    for (const w of csv) {
      await w.until((r) => r.chunks.filter((c) => c.text_data).length >= 5, 'all csv changes');
      const lines = w.chunks.flatMap((c) => (c.text_data ?? '').split('\n').filter(Boolean));
      expect(lines).toHaveLength(25);
      expect(lines).toContain('0,s0,1');
    }
    await shutdown(svc, 'many');
    for (const w of [...json, ...csv]) await w.until((r) => r.ended, 'stream end');
  });

  it('a watcher that disconnects mid-stream is removed; ingestion and other watchers go on', async () => {
    await createCompiled(svc, 'disc', SQL);
    await startRunning(svc, 'disc');
    const leaving = await WatchReader.open(svc, 'disc', 'v', 'format=json');
    const staying = await WatchReader.open(svc, 'disc', 'v', 'format=json');
    expect((await ingest(svc, 'disc', 't', 'format=json', '{"insert":{"id":2,"s":"a"}}')).status).toBe(200);
    await leaving.until((r) => r.items().length === 1, 'first change');
    leaving.close();
    await waitFor(async () => (await stats('disc')).outputs.length === 1, 'the endpoint to be removed');
    for (let i = 0; i < 5; i++) expect((await ingest(svc, 'disc', 't', 'format=json', `{"insert":{"id":${10 + 2 * i},"s":"b"}}`)).status).toBe(200);
    await staying.until((r) => r.items().length === 6, 'all changes');
    const logs = (await svc.call('GET', '/v0/pipelines/disc/logs')).text;
    expect(logs).toMatch(/closed: client disconnected/);
    await shutdown(svc, 'disc');
  });

  it('a watcher that never reads does not stall ingestion or other watchers; its chunks are dropped (backpressure=false)', async () => {
    await createCompiled(svc, 'slow', SQL);
    await startRunning(svc, 'slow');
    const port = new URL(svc.base).port;
    const sock = connect({ host: '127.0.0.1', port: Number(port) });
    await new Promise<void>((r) => sock.once('connect', () => r()));
    sock.write(`POST /v0/pipelines/slow/egress/v?format=json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`);
    await waitFor(async () => (await stats('slow')).outputs.length === 1, 'the slow watcher');
    sock.pause(); // never read again
    const fast = await WatchReader.open(svc, 'slow', 'v', 'format=json');
    const big = 'x'.repeat(1000);
    // steps until the slow watcher drops a chunk (its 16-chunk buffer and the socket's few MB full), then
    // three more: as many as this machine's buffers need, not a fixed count sized for the biggest (a fixed
    // 60 steps, 30 MB, was most of this file's time)
    const dropped = async () => (await stats('slow')).outputs.some((o: any) => o.metrics.dropped_batches > 0);
    let steps = 0;
    let after = -1;
    while (after < 3) {
      expect(steps, 'steps without a dropped chunk').toBeLessThan(200);
      const step = steps++;
      const body = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ insert: { id: (step * 500 + i) * 2, s: big } })));
      const r = await ingest(svc, 'slow', 't', 'format=json&array=true', body);
      expect(r.status).toBe(200);
      // the fast watcher reads each step before the next is sent, so it is never the one that overflows,
      // however slow the machine
      await fast.until((w) => w.items().length === (step + 1) * 500, `step ${step} on the fast watcher`);
      if (after >= 0 || (await dropped())) after++;
    }
    const st = await stats('slow');
    expect(st.global_metrics.total_processed_records).toBe(steps * 500);
    // the slow watcher alone drops; the fast one got every step, those after the first drop included
    const slowOut = st.outputs.filter((o: any) => o.metrics.dropped_batches > 0);
    expect(slowOut, JSON.stringify(st.outputs.map((o: any) => o.metrics))).toHaveLength(1);
    expect(fast.items()).toHaveLength(steps * 500);
    expect((await svc.call('GET', '/v0/pipelines/slow/logs')).text).toMatch(/not keeping up: dropping a chunk/);
    sock.destroy();
    await shutdown(svc, 'slow');
  });

  it('with backpressure=true an overflowing watcher is ended instead', async () => {
    await createCompiled(svc, 'slowbp', SQL);
    await startRunning(svc, 'slowbp');
    const sock = connect({ host: '127.0.0.1', port: Number(new URL(svc.base).port) });
    await new Promise<void>((r) => sock.once('connect', () => r()));
    sock.write(`POST /v0/pipelines/slowbp/egress/v?format=json&backpressure=true HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`);
    await waitFor(async () => (await stats('slowbp')).outputs.length === 1, 'the slow watcher');
    sock.pause();
    const big = 'x'.repeat(1000);
    // steps until the watcher is ended (its buffer and the socket's full), as many as this machine needs
    let steps = 0;
    while ((await stats('slowbp')).outputs.length > 0) {
      expect(steps, 'steps without the watcher ended').toBeLessThan(200);
      const step = steps++;
      const body = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ insert: { id: (step * 500 + i) * 2, s: big } })));
      expect((await ingest(svc, 'slowbp', 't', 'format=json&array=true', body)).status).toBe(200);
    }
    expect(steps).toBeGreaterThan(16); // not before its 16-chunk buffer was full
    expect((await svc.call('GET', '/v0/pipelines/slowbp/logs')).text).toMatch(/closing the stream \(backpressure=true\)/);
    sock.destroy();
    await shutdown(svc, 'slowbp');
  });

  it('ingress into a paused pipeline waits until it runs (force=true does not)', async () => {
    await createCompiled(svc, 'paused', SQL);
    await startRunning(svc, 'paused');
    await svc.call('POST', '/v0/pipelines/paused/pause');
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/paused')).json.deployment_status === 'Paused', 'Paused');
    let done = false;
    const pending = ingest(svc, 'paused', 't', 'format=json', '{"insert":{"id":2,"s":"waited"}}').then((r) => {
      done = true;
      return r;
    });
    expect((await ingest(svc, 'paused', 't', 'format=json&force=true', '{"insert":{"id":4,"s":"forced"}}')).status).toBe(200);
    expect(done).toBe(false);
    expect((await stats('paused')).global_metrics.total_processed_records).toBe(1);
    await startRunning(svc, 'paused');
    expect((await pending).status).toBe(200);
    expect((await stats('paused')).global_metrics.total_processed_records).toBe(2);
    // a request waiting when the pipeline shuts down gets an error, not a hang
    await svc.call('POST', '/v0/pipelines/paused/pause');
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/paused')).json.deployment_status === 'Paused', 'Paused');
    const waiting = ingest(svc, 'paused', 't', 'format=json', '{"insert":{"id":6,"s":"never"}}');
    await new Promise((r) => setTimeout(r, 50));
    await shutdown(svc, 'paused');
    const r = await waiting;
    // 503 Terminating when it was waiting; 400 if (on a loaded machine) it arrived after the shutdown
    expect([503, 400]).toContain(r.status);
    expect(['Terminating', 'PipelineNotRunningOrPaused']).toContain(r.json.error_code);
  });

  it('closing the server ends open watch streams and followed logs', async () => {
    const other = await startSvc();
    await createCompiled(other, 'closing', SQL);
    await startRunning(other, 'closing');
    const w = await WatchReader.open(other, 'closing', 'v', 'format=json');
    const ctrl = new AbortController();
    const follow = await fetch(`${other.base}/v0/pipelines/closing/logs?follow=true`, { signal: ctrl.signal });
    expect(follow.status).toBe(200);
    const reader = follow.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/deployment status: Running/);
    expect((await ingest(other, 'closing', 't', 'format=json', '{"insert":{"id":2,"s":"x"}}')).status).toBe(200);
    await w.until((r) => r.items().length === 1, 'the change');
    await other.close();
    await w.until((r) => r.ended, 'the watch stream to end');
    expect(w.items()).toEqual([{ insert: { ID: 2, S: 'x' } }]);
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
  });
});
