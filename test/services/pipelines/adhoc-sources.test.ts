/**
 * Reading a big relation on a pipeline whose memory is nearly used. An ad-hoc query copies into its own
 * circuit only the materialized relations it may read (their names in its text), entry by entry as held:
 * a query of a small table answers on a pipeline whose big table would not fit its memory twice (it used to
 * copy every table and ran the pipeline out of memory), and a query or a snapshot of the big table itself is
 * refused with a 400 (reading contents first built an index of every row, which failed the pipeline).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, startRunning, startSvc, type Svc } from './helpers.js';

const BIG = 400_000;
let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(
    svc,
    'src',
    "CREATE TABLE big (id BIGINT, s VARCHAR) WITH ('materialized' = 'true');\nCREATE TABLE small (x INT) WITH ('materialized' = 'true');\nCREATE MATERIALIZED VIEW \"Odd Name\" AS SELECT x FROM small WHERE x > 1;",
    { runtime_config: { resources: { memory_mb_max: 128 } } },
  );
  await startRunning(svc, 'src');
  for (let k = 0; k < BIG; k += 100_000) {
    const rows = Array.from({ length: 100_000 }, (_, i) => `${k + i},some-text-${k + i}\n`).join('');
    expect((await ingest(svc, 'src', 'big', 'format=csv', rows)).status).toBe(200);
  }
  expect((await ingest(svc, 'src', 'small', 'format=csv', '1\n2\n3\n')).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await svc?.close();
});

const query = (sql: string) => svc.call('GET', `/v0/pipelines/src/query?sql=${encodeURIComponent(sql)}&format=json`);

describe('the relations an ad-hoc query copies', () => {
  it('a query of the small table answers at once, the big one not copied', async () => {
    const r = await query('SELECT SUM(x) AS s FROM small');
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ S: 6 });
    const v = await query('SELECT COUNT(*) AS c FROM "Odd Name"'); // a name that is not a plain identifier is always copied
    expect(JSON.parse(v.text)).toEqual({ C: 2 });
    const p = (await svc.call('GET', '/v0/pipelines/src')).json;
    expect([p.deployment_status, p.deployment_error]).toEqual(['Running', null]);
  });

  it('names in any case, and a name inside a longer word is not a reference', async () => {
    const r = await query('select sum(x) as s from SMALL where x < (select count(*) from small_not_a_table_name_in_use_here)');
    expect(r.status).toBe(400); // small_not_... is unknown: the error is the compiler's, as before
    expect(r.json.message).toMatch(/small_not_a_table_name_in_use_here/i);
    const ok = await query('select sum(x) as s from SMALL');
    expect(JSON.parse(ok.text)).toEqual({ S: 6 });
  });

  it('the big table is still there to query (copied when named)', async () => {
    const r = await query('SELECT COUNT(*) AS c FROM big WHERE id < 10');
    expect(r.status === 200 || r.status === 400, r.text).toBe(true);
    if (r.status === 200) expect(JSON.parse(r.text)).toEqual({ C: 10 });
    else expect(r.json.error_code).toBe('AdHocQueryError'); // or refused for memory: never a failed pipeline
    const p = (await svc.call('GET', '/v0/pipelines/src')).json;
    expect(p.deployment_status).toBe('Running');
  });

  it('copies entries as held (duplicates, deletes not yet compacted) and the query adds them up exactly', async () => {
    expect((await ingest(svc, 'src', 'small', 'format=csv', '5\n5\n6\n7\n')).status).toBe(200);
    const del = await svc.call('POST', '/v0/pipelines/src/ingress/small?format=json', undefined, {
      raw: '{"delete": {"x": 5}}\n{"delete": {"x": 7}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(del.status, del.text).toBe(200);
    const r = await query('SELECT x, COUNT(*) AS n FROM small WHERE x >= 5 GROUP BY x');
    const rows = r.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .sort((a, b) => a.X - b.X);
    expect(rows).toEqual([
      { X: 5, N: 1 },
      { X: 6, N: 1 },
    ]);
  });
});

describe('snapshots read the contents entry by entry', () => {
  it('a snapshot of the big table on the nearly full pipeline: answered or refused with 400, never a failed pipeline', async () => {
    const r = await svc.call('POST', '/v0/pipelines/src/egress/big?mode=snapshot&format=json&query=quantiles');
    if (r.status === 200) expect(r.json.json_data.length).toBe(100);
    else expect([r.status, r.json.error_code, r.json.message]).toEqual([400, 'OutputTooLarge', expect.stringMatching(/Reading the contents of 'BIG' needs more memory than the pipeline can spare/)]);
    const p = (await svc.call('GET', '/v0/pipelines/src')).json;
    expect([p.deployment_status, p.deployment_error]).toEqual(['Running', null]);
  });

  it('duplicates and deletes not yet compacted add up exactly, in key order', async () => {
    const r = await svc.call('POST', '/v0/pipelines/src/egress/small?mode=snapshot&format=json');
    expect(r.status, r.text).toBe(200);
    expect(r.json.json_data).toEqual([1, 2, 3, 5, 6].map((x) => ({ insert: { X: x } })));
  });
});
