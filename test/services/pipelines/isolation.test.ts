/**
 * Isolation of pipelines (issue 12): each running pipeline in its own worker thread with its own heap
 * limit. A pipeline that runs out of memory, throws or exits goes to Failed with a reason while the
 * other pipelines and the other services of the same server keep answering; a big step in one
 * pipeline does not hold up the server. Real workers, real server on 127.0.0.1, small sizes with the
 * limits set low.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../../src/services/server.js';
import { WatchReader, createCompiled, ingest, sharedCompiler, shutdown, snapshot, startRunning, startSvc, waitFor, type Res, type Svc } from './helpers.js';

// workers that run out of memory and big steps take seconds, more on a busy machine
vi.setConfig({ testTimeout: 90_000 });

const SMALL_MB = 32;
const SQL = `CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR);
CREATE MATERIALIZED VIEW v AS SELECT id, s FROM t;
CREATE MATERIALIZED VIEW totals AS SELECT COUNT(*) AS c, SUM(id) AS total FROM t;`;

/** A CSV body far beyond what a SMALL_MB heap can hold as rows (about 8 MiB, 280,000 rows). */
function bigCsv(): string {
  const parts: string[] = [];
  for (let i = 0; i < 280_000; i++) parts.push(`${i},row-${i}-xxxxxxxxxxxxxxxx\n`);
  return parts.join('');
}

/** The whole `ops serve` (bookmarks, pipelines, notifications) on 127.0.0.1, wrapped as a Svc. */
async function startAll(extra: Record<string, unknown> = {}): Promise<{ svc: Svc; server: RunningServer; token: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-isolation-'));
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, pipelinesKeepAliveMs: 300, pipelinesCompiler: sharedCompiler(extra), ...extra });
  const svc: Svc = {
    sa: undefined as never,
    base: server.url,
    headers: {},
    async call(method, path, body, x = {}) {
      const headers: Record<string, string> = { ...(x.headers ?? {}) };
      let payload: string | undefined;
      if (x.raw !== undefined) payload = x.raw;
      else if (body !== undefined) {
        payload = JSON.stringify(body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(server.url + path, { method, headers, body: payload });
      const text = await res.text();
      let json: any;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, text, json, headers: res.headers };
    },
    close: () => server.close(),
  };
  return { svc, server, token: server.credentials.bmToken ?? '' };
}

let toClose: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of toClose.reverse()) await c();
  toClose = [];
});

/**
 * One whole server for the tests that need no server option of their own: each test's pipelines have names
 * of their own and are shut down at its end (a server and its compiler's process for each test were a good
 * part of this file's CPU time).
 */
let shared: Promise<{ svc: Svc; server: RunningServer; token: string }> | undefined;
const sharedServer = () => (shared ??= startAll());
afterAll(async () => {
  if (shared) await (await shared).svc.close();
});

async function pipelineOf(svc: Svc, name: string): Promise<any> {
  return (await svc.call('GET', `/v0/pipelines/${name}`)).json;
}

async function expectOtherServicesAnswer(svc: Svc, token: string): Promise<void> {
  const health = await svc.call('GET', '/health');
  expect(health.status, health.text).toBe(200);
  expect(health.json.services.pipelines.status).toBe('ok');
  expect((await svc.call('GET', '/api/version')).json).toEqual({ version: '2.0' });
  const links = await svc.call('GET', '/api/v2/links', undefined, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  expect(links.status, links.text).toBe(200);
}

describe('a pipeline that runs out of its memory limit', () => {
  it('goes to Failed with the reason; its watch stream ends, the request in flight gets the error; the server, the bookmarks and another pipeline keep answering; /shutdown clears it', async () => {
    const { svc, token } = await sharedServer();
    await createCompiled(svc, 'small', SQL, { runtime_config: { resources: { memory_mb_max: SMALL_MB } } });
    await createCompiled(svc, 'other', SQL);
    await startRunning(svc, 'small');
    await startRunning(svc, 'other');
    expect((await ingest(svc, 'small', 't', 'format=csv', '1,one\n')).status).toBe(200);
    const watch = await WatchReader.open(svc, 'small', 'v');
    expect(watch.status).toBe(200);

    const r = await ingest(svc, 'small', 't', 'format=csv', bigCsv());
    expect(r.status, r.text).toBe(500);
    expect(r.json.error_code).toBe('RuntimeError.OutOfMemory');

    const p = await waitFor(async () => ((await pipelineOf(svc, 'small')).deployment_status === 'Failed' ? pipelineOf(svc, 'small') : undefined), 'small Failed');
    expect(p.deployment_error).toMatchObject({ error_code: 'RuntimeError.OutOfMemory', details: { memory_mb_max: SMALL_MB } });
    expect(p.deployment_error.message).toContain(`limit of ${SMALL_MB} MiB`);
    expect(p.deployment_error.message).toContain('memory_mb_max');
    await watch.until((w) => w.ended, 'the watch stream of the failed pipeline to end');

    await expectOtherServicesAnswer(svc, token);
    expect((await ingest(svc, 'other', 't', 'format=csv', '5,five\n6,six\n')).status).toBe(200);
    expect((await snapshot(svc, 'other', 'totals')).json_data).toEqual([{ insert: { C: 2, TOTAL: 11 } }]);

    // a Failed pipeline takes no input and cannot start until /shutdown acknowledges the error
    expect((await ingest(svc, 'small', 't', 'format=csv', '2,two\n')).json.error_code).toBe('PipelineNotRunningOrPaused');
    expect((await svc.call('POST', '/v0/pipelines/small/start')).json.error_code).toBe('IllegalPipelineStateTransition');
    await shutdown(svc, 'small');
    expect(await pipelineOf(svc, 'small')).toMatchObject({ deployment_status: 'Shutdown', deployment_error: null });
    await startRunning(svc, 'small');
    expect((await ingest(svc, 'small', 't', 'format=csv', '3,three\n')).status).toBe(200);
    expect((await snapshot(svc, 'small', 'totals')).json_data).toEqual([{ insert: { C: 1, TOTAL: 3 } }]);
    await Promise.all([shutdown(svc, 'small'), shutdown(svc, 'other')]);
  });

  it('a limit too small to even start the worker fails the start with the same reason', async () => {
    const { svc } = await sharedServer();
    await createCompiled(svc, 'tiny', SQL, { runtime_config: { resources: { memory_mb_max: 1 } } });
    expect((await svc.call('POST', '/v0/pipelines/tiny/start')).status).toBe(202);
    const p = await waitFor(async () => ((await pipelineOf(svc, 'tiny')).deployment_status === 'Failed' ? pipelineOf(svc, 'tiny') : undefined), 'tiny Failed');
    expect(p.deployment_error).toMatchObject({ error_code: 'RuntimeError.OutOfMemory', details: { memory_mb_max: 1 } });
    await shutdown(svc, 'tiny');
    expect((await pipelineOf(svc, 'tiny')).deployment_error).toBeNull();
  });

  it('two pipelines ingest at once and one runs out of memory: the other applies every batch exactly', async () => {
    const { svc } = await sharedServer();
    await createCompiled(svc, 'doomed', SQL, { runtime_config: { resources: { memory_mb_max: SMALL_MB } } });
    await createCompiled(svc, 'steady', SQL);
    await startRunning(svc, 'doomed');
    await startRunning(svc, 'steady');
    const big = bigCsv();
    const batches: Promise<Res>[] = [];
    let expected = 0;
    const doomed = ingest(svc, 'doomed', 't', 'format=csv', big);
    for (let b = 0; b < 20; b++) {
      const rows: string[] = [];
      for (let i = b * 500; i < (b + 1) * 500; i++) {
        rows.push(`${i},s${i}\n`);
        expected += i;
      }
      batches.push(ingest(svc, 'steady', 't', 'format=csv', rows.join('')));
    }
    const results = await Promise.all(batches);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect((await doomed).json.error_code).toBe('RuntimeError.OutOfMemory');
    await waitFor(async () => (await pipelineOf(svc, 'doomed')).deployment_status === 'Failed', 'doomed Failed');
    expect((await snapshot(svc, 'steady', 'totals')).json_data).toEqual([{ insert: { C: 10_000, TOTAL: expected } }]);
    expect((await pipelineOf(svc, 'steady')).deployment_status).toBe('Running');
    await Promise.all([shutdown(svc, 'steady'), shutdown(svc, 'doomed')]);
  });
});

describe('a step that fills the heap (a join far bigger than its inputs)', () => {
  it('is stopped by the step guard: the pipeline fails as out of memory with the reason, the request gets it, the server answers', async () => {
    const { svc } = await sharedServer();
    const join = 'CREATE TABLE a (x INT); CREATE TABLE b (y INT); CREATE VIEW v AS SELECT COUNT(*) AS c, SUM(x + y) AS s FROM a, b;';
    await createCompiled(svc, 'joins', join, { runtime_config: { resources: { memory_mb_max: 160 } } });
    await startRunning(svc, 'joins');
    const side = Array.from({ length: 2500 }, (_, i) => `${i}\n`).join('');
    expect((await ingest(svc, 'joins', 'a', 'format=csv', side)).status).toBe(200);
    // 2,500 x 2,500 rows out of the join: far past 160 MiB
    const r = await ingest(svc, 'joins', 'b', 'format=csv', side);
    expect(r.status, r.text).toBe(500);
    expect(r.json.error_code).toBe('RuntimeError.OutOfMemory');
    const p = await waitFor(async () => ((await pipelineOf(svc, 'joins')).deployment_status === 'Failed' ? pipelineOf(svc, 'joins') : undefined), 'joins Failed');
    expect(p.deployment_error).toMatchObject({ error_code: 'RuntimeError.OutOfMemory', details: { memory_mb_max: 160 } });
    expect(p.deployment_error.message).toContain('limit of 160 MiB');
    // stopped by the guard (live heap over its share after a collection), not by V8 at the very end
    expect(p.deployment_error.details.error).toMatch(/a step filled the worker's heap: \d+ MiB live after a full collection, over 85% of its limit of 160 MiB/);
    expect((await svc.call('GET', '/v0/pipelines')).status).toBe(200);
    await shutdown(svc, 'joins');
    expect((await pipelineOf(svc, 'joins')).deployment_status).toBe('Shutdown');
  });
});

describe('a worker that fails unexpectedly', () => {
  const reasons = {
    throw: /injected fault: the pipeline worker threw/,
    exit: /exited unexpectedly \(exit code 70\)/,
    step: /failed while processing input: injected fault: an engine operator failed/,
    // the pipeline's whole process gone (in a thread of the server's process, this took the server with it)
    kill: /process ended \(signal SIGKILL\)/,
  };
  for (const fault of ['throw', 'exit', 'step', 'kill'] as const) {
    it(`(${fault}) fails the pipeline with a reason; the request in flight gets the error instead of hanging`, async () => {
      const svc = await startSvc({ pipelinesWorkerFault: fault });
      toClose.push(() => svc.close());
      await createCompiled(svc, 'faulty', SQL);
      await startRunning(svc, 'faulty');
      const watch = await WatchReader.open(svc, 'faulty', 'v');
      const r = await ingest(svc, 'faulty', 't', 'format=csv', '1,one\n');
      expect(r.status, r.text).toBe(500);
      expect(r.json.error_code).toBe('RuntimeError.WorkerPanic');
      const p = await waitFor(async () => ((await pipelineOf(svc, 'faulty')).deployment_status === 'Failed' ? pipelineOf(svc, 'faulty') : undefined), 'Failed');
      expect(p.deployment_error.error_code).toBe('RuntimeError.WorkerPanic');
      expect(p.deployment_error.message).toMatch(reasons[fault]);
      if (fault === 'step') expect(r.json.message).toMatch(reasons.step);
      await watch.until((w) => w.ended, 'the watch stream to end');
      expect((await svc.call('GET', '/v0/pipelines/faulty/stats')).json.error_code).toBe('PipelineNotRunningOrPaused');
      await shutdown(svc, 'faulty');
      expect((await pipelineOf(svc, 'faulty')).deployment_error).toBeNull();
    });
  }
});

describe('a big step in one pipeline', () => {
  it("does not hold up /health, /api/version, or another pipeline's ingress, snapshots and watch stream", async () => {
    const { svc, token } = await sharedServer();
    const N = 2000; // a 4,000,000-pair join: seconds of work for the heavy pipeline's worker; BIGINT: the sum (about 8e9) is beyond INTEGER, whose SUM would overflow (refused)
    await createCompiled(svc, 'heavy', 'CREATE TABLE a (x BIGINT); CREATE TABLE b (y BIGINT); CREATE MATERIALIZED VIEW j AS SELECT COUNT(*) AS c, SUM(x + y) AS s FROM a, b;');
    await createCompiled(svc, 'light', SQL);
    await startRunning(svc, 'heavy');
    await startRunning(svc, 'light');
    const seq = (n: number) => Array.from({ length: n }, (_, i) => `${i}\n`).join('');
    expect((await ingest(svc, 'heavy', 'b', 'format=csv', seq(N))).status).toBe(200);
    const watch = await WatchReader.open(svc, 'light', 'v');

    let heavyDone = false;
    const heavy = ingest(svc, 'heavy', 'a', 'format=csv', seq(N)).then((r) => {
      heavyDone = true;
      return r;
    });
    // wait until the worker has the whole body: stats show it buffered while its step runs
    let globalBuffered: number | undefined;
    const buffered = async () => {
      const stats = (await svc.call('GET', '/v0/pipelines/heavy/stats')).json;
      const inputs: any[] = stats.inputs;
      const arrived = inputs.find((i) => i.endpoint_name === 'api-ingress-A')?.metrics.buffered_bytes > 0;
      if (arrived) globalBuffered = stats.global_metrics.buffered_input_bytes;
      return arrived;
    };
    await waitFor(async () => (await buffered()) || heavyDone, 'the heavy ingress to arrive', 10_000);
    // the global figure is the endpoints' sum: the whole body, while its step runs (heavyDone is false below)
    expect(heavyDone || globalBuffered === seq(N).length).toBe(true);
    const answeredWhileBusy: string[] = [];
    for (let k = 0; k < 3; k++) {
      await expectOtherServicesAnswer(svc, token);
      expect((await ingest(svc, 'light', 't', 'format=csv', `${k},k${k}\n`)).status).toBe(200);
      await watch.until((w) => w.items().length === k + 1, `change ${k} on the watch stream`);
      expect((await snapshot(svc, 'light', 'totals')).json_data).toEqual([{ insert: { C: k + 1, TOTAL: (k * (k + 1)) / 2 } }]);
      if (!heavyDone) answeredWhileBusy.push(`round ${k}`);
    }
    expect(answeredWhileBusy).toEqual(['round 0', 'round 1', 'round 2']);
    expect(heavyDone).toBe(false);
    expect((await heavy).status).toBe(200);
    expect((await snapshot(svc, 'heavy', 'j')).json_data).toEqual([{ insert: { C: N * N, S: N * N * (N - 1) } }]);
    watch.close();
    await Promise.all([shutdown(svc, 'heavy'), shutdown(svc, 'light')]);
  });
});

describe('per-pipeline memory figures and limits', () => {
  it("stats report each worker's own memory, its limit, steps and records", async () => {
    const { svc } = await sharedServer();
    await createCompiled(svc, 'm1', SQL, { runtime_config: { resources: { memory_mb_max: 300 } } });
    await startRunning(svc, 'm1');
    expect((await ingest(svc, 'm1', 't', 'format=csv', '1,a\n2,b\n')).status).toBe(200);
    const g = (await svc.call('GET', '/v0/pipelines/m1/stats')).json.global_metrics;
    expect(g.memory_limit_bytes).toBe(300 * 1024 * 1024);
    expect(g.rss_bytes).toBeGreaterThan(0);
    expect(g.rss_bytes).toBeLessThan(300 * 1024 * 1024);
    expect(g.heap_used_bytes).toBeGreaterThan(0);
    expect(g.cpu_msecs).toBeGreaterThan(0); // the worker compiled the program and applied a step
    expect(g).toMatchObject({ total_completed_steps: 1, total_input_records: 2, total_processed_records: 2 });
    // runtime_elapsed_msecs is the engine's time in steps only: a step of 50,000 rows takes some; cpu_msecs is
    // the CPU time of the pipeline's process, which the parsing and the step add to
    const rows = Array.from({ length: 50_000 }, (_, i) => `${i},r${i}\n`).join('');
    expect((await ingest(svc, 'm1', 't', 'format=csv', rows)).status).toBe(200);
    const after = (await svc.call('GET', '/v0/pipelines/m1/stats')).json.global_metrics;
    expect(after.runtime_elapsed_msecs).toBeGreaterThan(0);
    expect(after.runtime_elapsed_msecs).toBeLessThanOrEqual(after.uptime_msecs);
    expect(after.cpu_msecs).toBeGreaterThan(g.cpu_msecs);
    await shutdown(svc, 'm1');
  });

  it('memory_mb_max must be null or a whole number of MiB', async () => {
    const { svc } = await sharedServer();
    for (const bad of [0, -5, 1.5, '512', true]) {
      const r = await svc.call('PUT', '/v0/pipelines/mm', { name: 'mm', program_code: SQL, runtime_config: { resources: { memory_mb_max: bad } } });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.json.message).toContain('memory_mb_max');
    }
    const ok = await svc.call('PUT', '/v0/pipelines/mm', { name: 'mm', program_code: SQL, runtime_config: { resources: { memory_mb_max: null } } });
    expect(ok.status).toBe(201);
  });
});

describe('ingress bodies stream to the worker', () => {
  it('a body over the limit is 413 and applies nothing, whether its length is declared or it is sent in chunks', async () => {
    const svc = await startSvc({ pipelinesIngressBodyLimit: 4096 });
    toClose.push(() => svc.close());
    await createCompiled(svc, 'lim', SQL);
    await startRunning(svc, 'lim');
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => `${from + i},r\n`).join('');
    const declared = await ingest(svc, 'lim', 't', 'format=csv', rows(0, 1000));
    expect(declared.status, declared.text).toBe(413);
    expect(declared.json.message).toContain('4096');
    // a chunked body (no content-length): refused once it grows past the limit
    const enc = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let k = 0; k < 10; k++) c.enqueue(enc.encode(rows(k * 100, 100)));
        c.close();
      },
    });
    const chunked = await fetch(`${svc.base}/v0/pipelines/lim/ingress/t?format=csv`, { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'text/csv' } } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { message: string }).message).toContain('4096');
    expect((await snapshot(svc, 'lim', 'totals')).json_data).toEqual([{ insert: { C: 0, TOTAL: null } }]);
    // within the limit, in many small chunks: one step with all of it
    const small = new ReadableStream<Uint8Array>({
      start(c) {
        for (let k = 0; k < 20; k++) c.enqueue(enc.encode(`${k},s\n`));
        c.close();
      },
    });
    const ok = await fetch(`${svc.base}/v0/pipelines/lim/ingress/t?format=csv`, { method: 'POST', body: small, duplex: 'half', headers: { 'content-type': 'text/csv' } } as RequestInit);
    expect(ok.status).toBe(200);
    expect((await snapshot(svc, 'lim', 'totals')).json_data).toEqual([{ insert: { C: 20, TOTAL: 190 } }]);
    const stats = (await svc.call('GET', '/v0/pipelines/lim/stats')).json;
    expect(stats.global_metrics.total_completed_steps).toBe(1);
  });
});
