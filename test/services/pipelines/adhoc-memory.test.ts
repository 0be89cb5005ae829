/**
 * An ad-hoc query too big for its pipeline's memory is the query's fault: a 400 AdHocQueryError saying
 * so, and the pipeline keeps running with its state (it used to run the worker out of memory: Failed,
 * state lost). Three ways to be too big: a join's result, a row whose weight expands to that many rows,
 * an INSERT ... SELECT of either (nothing applied); and an Arrow or Parquet answer, built outside the heap,
 * whose bytes count with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, startRunning, startSvc, type Svc } from './helpers.js';

const SQL = "CREATE TABLE t (x INT) WITH ('materialized' = 'true');\nCREATE TABLE dst (s BIGINT) WITH ('materialized' = 'true');";
const N = 3000; // a cross join of 9,000,000 rows: far past 60% of a 160 MiB heap

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'q', SQL, { runtime_config: { resources: { memory_mb_max: 160 } } });
  await startRunning(svc, 'q');
  const ids = Array.from({ length: N }, (_, i) => `${i + 1}\n`).join('');
  expect((await ingest(svc, 'q', 't', 'format=csv', ids)).status).toBe(200);
});
afterAll(async () => {
  await svc?.close();
});

const query = (sql: string) => svc.call('GET', `/v0/pipelines/q/query?sql=${encodeURIComponent(sql)}&format=json`);

async function stillWhole(): Promise<void> {
  const p = (await svc.call('GET', '/v0/pipelines/q')).json;
  expect([p.deployment_status, p.deployment_error]).toEqual(['Running', null]);
  const r = await query('SELECT COUNT(*) AS c, SUM(x) AS s FROM t');
  expect(r.status, r.text).toBe(200);
  expect(JSON.parse(r.text)).toEqual({ C: N, S: (N * (N + 1)) / 2 });
}

describe('ad-hoc queries bounded by the pipeline memory', () => {
  it("a join's huge result: 400 naming the limit, the pipeline runs on with its state", async () => {
    const r = await query('SELECT a.x * 10000 + b.x AS s FROM t a, t b');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error_code: 'AdHocQueryError', message: expect.stringMatching(/more memory than the pipeline can spare.*memory_mb_max/) });
    await stillWhole();
    // the same join narrowed is answered
    const small = await query('SELECT a.x * 10000 + b.x AS s FROM t a, t b WHERE a.x <= 2 AND b.x <= 2');
    expect(
      small.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).S),
    ).toEqual([10001, 10002, 20001, 20002]);
  });

  it('an INSERT ... SELECT of a huge join: refused, nothing applied', async () => {
    const r = await query('INSERT INTO dst SELECT a.x * 10000 + b.x FROM t a, t b');
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe('AdHocQueryError');
    await stillWhole();
    expect(JSON.parse((await query('SELECT COUNT(*) AS c FROM dst')).text)).toEqual({ C: 0 });
  });

  it('a row whose weight expands to 10^8 rows in the answer: refused', async () => {
    expect((await ingest(svc, 'q', 't', 'format=json&update_format=weighted', '{"weight": 100000000, "data": {"x": -1}}')).status).toBe(200);
    const r = await query('SELECT x FROM t WHERE x < 0');
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe('AdHocQueryError');
    const p = (await svc.call('GET', '/v0/pipelines/q')).json;
    expect(p.deployment_status).toBe('Running');
    // the weight is there, as an aggregate reads it
    expect(JSON.parse((await query('SELECT COUNT(*) AS c FROM t WHERE x < 0')).text)).toEqual({ C: 100_000_000 });
  });

  it('an arrow_ipc or parquet answer whose Arrow buffers (outside the heap) pass the share: refused, the pipeline runs on', async () => {
    // one row of weight 1,000,000 with 300 characters: about 300 MB of Arrow, in a pipeline of 160 MiB
    const pad = 'p'.repeat(300);

    await createCompiled(svc, 'wide', "CREATE TABLE w (s VARCHAR) WITH ('materialized' = 'true');", { runtime_config: { resources: { memory_mb_max: 160 } } });
    await startRunning(svc, 'wide');
    expect((await ingest(svc, 'wide', 'w', 'format=json&update_format=weighted', JSON.stringify({ weight: 1_000_000, data: { s: pad } }))).status).toBe(200);
    for (const format of ['arrow_ipc', 'parquet']) {
      const r = await svc.call('GET', `/v0/pipelines/wide/query?sql=${encodeURIComponent('SELECT s FROM w')}&format=${format}`);
      expect(r.status, format).toBe(400);
      expect(r.json).toMatchObject({ error_code: 'AdHocQueryError', message: expect.stringMatching(/more memory than the pipeline can spare/) });
    }
    const p = (await svc.call('GET', '/v0/pipelines/wide')).json;
    expect([p.deployment_status, p.deployment_error]).toEqual(['Running', null]);
    // a narrower answer in the same format is given
    const small = await fetch(`${svc.base}/v0/pipelines/wide/query?sql=${encodeURIComponent('SELECT COUNT(*) AS c FROM w')}&format=arrow_ipc`);
    expect(small.status).toBe(200);
  });
});
