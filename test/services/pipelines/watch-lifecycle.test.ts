/**
 * Watch streams and the server's close under careless and hostile clients: aborted watches, spare and
 * half-sent connections, stalled request bodies, and pipelines that shut down, fail or restart while
 * streams are open. Every stream must end, every count go back to zero, and close() return promptly.
 */
import { describe, expect, it } from 'vitest';
import { rawClient } from '../../helpers/raw-client.js';
import { createCompiled, ingest, shutdown, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

const SQL = 'CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR);\nCREATE VIEW v AS SELECT id, s FROM t WHERE id % 2 = 0;';

/** Resolves with how long close() took, or with Infinity when it has not returned within `limitMs`. */
async function timedClose(svc: Svc, limitMs: number): Promise<number> {
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const took = await Promise.race([
    svc.close().then(() => Date.now() - t0),
    new Promise<number>((r) => (timer = setTimeout(() => r(Infinity), limitMs))),
  ]);
  clearTimeout(timer);
  return took;
}

async function outputs(svc: Svc, name: string): Promise<any[]> {
  return (await svc.call('GET', `/v0/pipelines/${name}/stats`)).json.outputs;
}

describe('closing the server', () => {
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
    const took = await timedClose(svc, 15_000);
    expect(took).toBeLessThan(15_000);
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
    const took = await timedClose(svc, 15_000);
    expect(took).toBeLessThan(15_000);
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
    expect(await timedClose(svc, 15_000)).toBeLessThan(15_000);
    await stalled.gone;
  });
});
