/**
 * SIGTERM of `ops serve` (the built binary) while clients hold it: watch streams that are read, one
 * that is never read with output queued for it, an ingress request whose body stalls, a connection
 * that sent nothing and one that sent half a request head. It exits cleanly (0, the `stopped` event)
 * rather than through its 10-second forced exit (1) or a forced exit on a second signal (130: the
 * echo of SIGTERM that conf's when-exit hook re-raises was taken for one), and every client sees its
 * connection end.
 */
import { describe, expect, it } from 'vitest';
import { startServe } from '../helpers/cli.js';
import { rawClient } from '../helpers/raw-client.js';

const SQL = 'CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR);\nCREATE VIEW v AS SELECT id, s FROM t;';

async function until<T>(fn: () => Promise<T | undefined | false>, what: string): Promise<T> {
  const end = Date.now() + 30_000;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('ops serve under SIGTERM', () => {
  it('exits cleanly and promptly with open watch streams (one never read), stalled ingress and idle connections', async () => {
    const serve = await startServe();
    const base = serve.url;
    const host = new URL(base).host;
    const json = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(base + path, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
      return { status: r.status, body: (await r.text()) as string };
    };
    try {
      expect((await json('PUT', '/v0/pipelines/p', { name: 'p', program_code: SQL, runtime_config: {}, program_config: {} })).status).toBe(201);
      await until(async () => JSON.parse((await json('GET', '/v0/pipelines/p')).body).program_status === 'Success', 'compiled');
      expect((await json('POST', '/v0/pipelines/p/start')).status).toBe(202);
      await until(async () => JSON.parse((await json('GET', '/v0/pipelines/p')).body).deployment_status === 'Running', 'Running');

      // watch streams that are read
      const ctrl = new AbortController();
      const readers = await Promise.all(
        Array.from({ length: 3 }, async () => {
          const r = await fetch(`${base}/v0/pipelines/p/egress/v?format=json`, { method: 'POST', signal: ctrl.signal });
          expect(r.status).toBe(200);
          // wrapped: an async function returning the promise would wait for it
          return {
            done: r.text().then(
              () => true,
              () => false,
            ),
          };
        }),
      );
      // one that is never read, with several MiB of output queued for it
      const stalled = await rawClient(base);
      stalled.write(`POST /v0/pipelines/p/egress/v?format=json HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\n\r\n`);
      await until(async () => stalled.received.startsWith('HTTP/1.1 200'), 'the stalled watch');
      stalled.socket.pause();
      const s = 'x'.repeat(2000);
      for (let step = 0; step < 8; step++) {
        const body = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ insert: { id: step * 500 + i, s } })));
        const r = await fetch(`${base}/v0/pipelines/p/ingress/t?format=json&array=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(r.status).toBe(200);
      }
      // an ingress request whose body stalls, a silent connection, half a request head
      const ingress = await rawClient(base);
      ingress.write(`POST /v0/pipelines/p/ingress/t?format=json HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"insert":{"id":1,`);
      const silent = await rawClient(base);
      const halfHead = await rawClient(base);
      halfHead.write(`GET /health HTTP/1.1\r\nHost: ${host}\r\n`);
      await new Promise((r) => setTimeout(r, 300));

      process.kill(serve.process.pid!, 'SIGTERM');
      const result = await serve.process;
      // 0 and the stopped event: a clean close (a forced exit is 1 after 10 s, or 130 on a second signal)
      expect(result.exitCode).toBe(0);
      expect(serve.lines.map((l) => JSON.parse(l))).toContainEqual(expect.objectContaining({ event: 'stopped', signal: 'SIGTERM' }));

      // each read stream ended normally (its body completed)
      for (const r of readers) expect(await r.done).toBe(true);
      await Promise.all([ingress.gone, silent.gone, halfHead.gone]);
      // the stalled ingress was answered (the pipeline shut down under it), not left hanging
      expect(ingress.received).toMatch(/^HTTP\/1\.1 503 /);
      stalled.socket.resume();
      await stalled.gone;
      ctrl.abort();
    } finally {
      await serve.stop('SIGKILL');
    }
  }, 60_000);
});
