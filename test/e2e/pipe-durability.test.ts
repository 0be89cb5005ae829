/**
 * kill -9 of `ops serve` at random points while three clients ingest into a pipeline over HTTP: after each
 * restart on the same data dir the pipeline is Running again by itself (the listening line says so), every
 * row whose request was answered 200 is there exactly once, and its views equal the views computed from the
 * rows it holds (what a fresh circuit fed the same rows gives). Then SIGTERM: the graceful stop checkpoints,
 * and the next start resumes from that checkpoint with nothing to replay.
 */
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, startServe, tempDir, type ServeHandle } from '../helpers/cli.js';

const SQL = `CREATE TABLE t (id BIGINT NOT NULL, k INT, v BIGINT) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW by_k AS SELECT k, COUNT(*) AS n, SUM(v) AS s FROM t GROUP BY k;
CREATE MATERIALIZED VIEW dup AS SELECT id, COUNT(*) AS c FROM t GROUP BY id HAVING COUNT(*) > 1;`;

const toStop: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of toStop) await stop().catch(() => {});
});

async function call(base: string, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const r = await request(`${base}${path}`, { method: method as 'GET', body, headers: body === undefined ? {} : { 'content-type': 'application/json' } });
  return { status: r.statusCode, text: await r.body.text() };
}

async function query(base: string, sql: string): Promise<any[]> {
  const r = await call(base, 'GET', `/v0/pipelines/p/query?sql=${encodeURIComponent(sql)}&format=json`);
  expect(r.status, r.text).toBe(200);
  return r.text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

async function until<T>(fn: () => Promise<T | undefined>, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const running = (base: string) =>
  until(async () => {
    const r = await call(base, 'GET', '/v0/pipelines/p');
    return JSON.parse(r.text).deployment_status === 'Running' ? true : undefined;
  }, 'the pipeline Running');

describe('pipeline durability across kill -9 of ops serve', () => {
  it('every acknowledged row survives each kill exactly once, and the views match the rows', async () => {
    const env = isolatedEnv();
    const dataDir = tempDir('ops-pipe-kill-');
    let server: ServeHandle = await startServe([], env, dataDir);
    toStop.push(() => server.stop('SIGKILL'));
    expect((await call(server.url, 'PUT', '/v0/pipelines/p', JSON.stringify({ name: 'p', description: '', runtime_config: {}, program_config: {}, program_code: SQL }))).status).toBe(201);
    await until(async () => (JSON.parse((await call(server.url, 'GET', '/v0/pipelines/p')).text).program_status === 'Success' ? true : undefined), 'compiled');
    expect((await call(server.url, 'POST', '/v0/pipelines/p/start')).status).toBe(202);
    await running(server.url);

    const acked = new Set<number>();
    let next = 0;
    for (let round = 0; round < 3; round++) {
      let stop = false;
      const base = server.url;
      const client = async (): Promise<void> => {
        while (!stop) {
          const from = next;
          next += 100;
          let body = '';
          for (let i = from; i < from + 100; i++) body += `{"insert":{"id":${i},"k":${i % 7},"v":${i * 3}}}\n`;
          const r = await call(base, 'POST', '/v0/pipelines/p/ingress/t?format=json', body).catch(() => null);
          if (r?.status === 200) for (let i = from; i < from + 100; i++) acked.add(i);
        }
      };
      const clients = [client(), client(), client()];
      await until(async () => (acked.size >= (round + 1) * 2000 ? true : undefined), 'rows acknowledged');
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 400)));
      await server.stop('SIGKILL');
      stop = true;
      await Promise.all(clients);

      server = await startServe([], env, dataDir);
      await running(server.url);
      const ids = new Set((await query(server.url, 'SELECT id FROM t')).map((r) => Number(r.id ?? r.ID)));
      const missing = [...acked].filter((id) => !ids.has(id));
      expect(missing, `round ${round}: acknowledged rows missing`).toEqual([]);
      expect(await query(server.url, 'SELECT * FROM dup')).toEqual([]);
      // the view is what the rows give
      const expected = new Map<number, { n: number; s: number }>();
      for (const id of ids) {
        const e = expected.get(id % 7) ?? { n: 0, s: 0 };
        e.n += 1;
        e.s += id * 3;
        expected.set(id % 7, e);
      }
      const view = await query(server.url, 'SELECT k, n, s FROM by_k');
      expect(new Map(view.map((r) => [Number(r.k ?? r.K), { n: Number(r.n ?? r.N), s: Number(r.s ?? r.S) }]))).toEqual(expected);
    }

    // a graceful stop checkpoints: the next start replays nothing
    await server.stop('SIGTERM');
    expect((await server.process).exitCode).toBe(0);
    server = await startServe([], env, dataDir);
    await running(server.url);
    const logs = (await call(server.url, 'GET', '/v0/pipelines/p/logs')).text;
    expect(logs).toMatch(/replayed 0 step\(s\)/);
    const count = Number(Object.values((await query(server.url, 'SELECT COUNT(*) AS c FROM t'))[0])[0]);
    expect(count).toBeGreaterThanOrEqual(acked.size);
    await server.stop('SIGTERM');
  }, 180_000);
});
