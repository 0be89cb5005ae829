/**
 * Ad-hoc queries in Feldera's binary formats over HTTP (`format=arrow_ipc|parquet|hash`): content types and the
 * Parquet attachment name as Feldera's, every column type read back with apache-arrow and hyparquet, the hash of
 * Feldera's own test reproduced through the server, the same hash whatever order the rows came in, and the
 * refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { createCompiled, ingest, startRunning, startSvc, type Svc } from './helpers.js';

const SQL = `CREATE TABLE t (
  i INT NOT NULL, bo BOOLEAN, ti TINYINT, bi BIGINT, r REAL, d DOUBLE, dec DECIMAL(10, 2), vc VARCHAR, bin VARBINARY,
  dt DATE, tm TIME, ts TIMESTAMP, arr INT ARRAY, m MAP<VARCHAR, INT>, rw ROW(a INT, b VARCHAR), v VARIANT
) WITH ('materialized' = 'true');
CREATE TABLE tbl (id INT) WITH ('materialized' = 'true');`;

const ROWS = [
  {
    i: 1,
    bo: true,
    ti: -5,
    bi: 9007199254740993n,
    r: 1.5,
    d: -0.25,
    dec: '12.30',
    vc: 'a',
    bin: [0, 255],
    dt: '2024-02-29',
    tm: '01:02:03.5',
    ts: '2024-01-02 03:04:05.678',
    arr: [1, null],
    m: { k: 1 },
    rw: { a: 1, b: 'x' },
    v: { z: [1] },
  },
  { i: 2, bo: null, ti: null, bi: null, r: null, d: null, dec: null, vc: null, bin: null, dt: null, tm: null, ts: null, arr: null, m: null, rw: null, v: null },
  { i: 3, bo: false, ti: 7, bi: -1, r: 0, d: 1e300, dec: '-0.01', vc: 'ü', bin: [], dt: '1970-01-01', tm: '00:00:00', ts: '1999-12-31 23:59:59', arr: [], m: {}, rw: { a: null, b: null }, v: 'text' },
];

/** The rows as JSON lines (bigints written as digits). */
function body(rows: Record<string, unknown>[]): string {
  return rows.map((row) => JSON.stringify({ insert: row }, (_k, v) => (typeof v === 'bigint' ? `@@${v}@@` : v)).replace(/"@@(-?\d+)@@"/g, '$1')).join('\n');
}

/** Today's SDK's create body (it marks the client as today's: lower-case names, as Feldera's). */
const today = (name: string) => ({ name, program_code: SQL, udf_rust: '', udf_toml: '', program_config: {}, runtime_config: {}, description: '', tags: [] });

async function createToday(svc: Svc, name: string): Promise<void> {
  const r = await svc.call('POST', '/v0/pipelines', today(name));
  expect(r.status, r.text).toBe(201);
  await createCompiled(svc, name, SQL, { udf_rust: '', udf_toml: '', tags: [] });
  await startRunning(svc, name);
}

describe('ad-hoc query formats arrow_ipc, parquet and hash', () => {
  let svc: Svc;
  const get = (name: string, sql: string, format: string) => fetch(`${svc.base}/v0/pipelines/${name}/query?sql=${encodeURIComponent(sql)}&format=${format}`);
  beforeAll(async () => {
    svc = await startSvc();
    await createToday(svc, 'fmt');
    expect((await ingest(svc, 'fmt', 't', 'format=json', body(ROWS))).status).toBe(200);
    // the same rows, arriving in another order
    await createToday(svc, 'fmt2');
    expect((await ingest(svc, 'fmt2', 't', 'format=json', body([ROWS[2]!, ROWS[0]!, ROWS[1]!]))).status).toBe(200);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('arrow_ipc: an Arrow IPC stream (application/octet-stream) whose rows are the json answer', async () => {
    const res = await get('fmt', 'SELECT * FROM t', 'arrow_ipc');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    const t = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    expect(t.schema.fields.map((f) => f.name)).toEqual(Object.keys(ROWS[0]!));
    expect(t.numRows).toBe(3);
    const byI = new Map(t.toArray().map((r) => [r.i, r.toJSON()]));
    const one = byI.get(1)!;
    expect(one).toMatchObject({ bo: true, ti: -5, bi: 9007199254740993n, r: 1.5, d: -0.25, vc: 'a', dt: Date.UTC(2024, 1, 29) });
    expect([...one.bin]).toEqual([0, 255]);
    expect([...one.arr]).toEqual([1, null]);
    expect(one.m.toJSON()).toEqual({ k: 1 });
    expect(one.rw.toJSON()).toEqual({ a: 1, b: 'x' });
    expect(JSON.parse(one.v)).toEqual({ z: [1] });
    expect(one.tm).toBe(3723500000000n);
    const two = byI.get(2)!;
    for (const k of Object.keys(ROWS[1]!)) if (k !== 'i') expect(two[k], k).toBeNull();
    expect(JSON.parse(byI.get(3)!.v)).toBe('text');
  });

  it('parquet: one file as an attachment named results_YYYYMMDD_HHMMSS.parquet, read back by hyparquet', async () => {
    const res = await get('fmt', 'SELECT i, dec, vc, ts, arr FROM t WHERE i <> 2', 'parquet');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="results_\d{8}_\d{6}\.parquet"$/);
    const file = await res.arrayBuffer();
    expect(Number(parquetMetadata(file).num_rows)).toBe(2);
    const rows = (await parquetReadObjects({ file })) as Record<string, unknown>[];
    expect(rows.sort((a, b) => Number(a.i) - Number(b.i))).toEqual([
      { i: 1, dec: 12.3, vc: 'a', ts: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)), arr: [1, null] },
      { i: 3, dec: -0.01, vc: 'ü', ts: new Date(Date.UTC(1999, 11, 31, 23, 59, 59)), arr: [] },
    ]);
  });

  it("hash: Feldera's digest of its own test through the server, text/plain, no newline", async () => {
    const pushed = await svc.call('POST', '/v0/pipelines/fmt/ingress/tbl?format=csv', undefined, { raw: '1\n2\n', headers: { 'content-type': 'text/csv' } });
    expect(pushed.status, pushed.text).toBe(200);
    const res = await get('fmt', 'SELECT * FROM tbl ORDER BY id', 'hash');
    expect(res.status).toBe(200);
    // exactly text/plain, no charset: today's Python SDK decodes any other content type as JSON
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('CCACBC763D343FB9855F285385B5A8A04FB5DAC4926DA3802F071B0C05BDF852');
  });

  it('hash: the same rows hash the same whatever order they came in; other rows hash otherwise', async () => {
    const h1 = await (await get('fmt', 'SELECT * FROM t', 'hash')).text();
    const h2 = await (await get('fmt2', 'SELECT * FROM t', 'hash')).text();
    expect(h1).toMatch(/^[0-9A-F]{64}$/);
    expect(h2).toBe(h1);
    expect(await (await get('fmt2', 'SELECT * FROM t ORDER BY i DESC', 'hash')).text()).toBe(h1);
    expect(await (await get('fmt2', 'SELECT * FROM t WHERE i < 3', 'hash')).text()).not.toBe(h1);
  });

  it('an INSERT answers its count in the format asked; a bad format or query is a 400 with a body', async () => {
    const ins = await get('fmt', 'INSERT INTO tbl VALUES (3)', 'arrow_ipc');
    expect(ins.status).toBe(200);
    const t = tableFromIPC(new Uint8Array(await ins.arrayBuffer()));
    expect(t.toArray().map((r) => r.toJSON())).toEqual([{ count: 1n }]);
    const bad = await get('fmt', 'SELECT 1', 'arrow');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error_code: 'InvalidQueryParameter' });
    const wrong = await get('fmt', 'SELECT nope FROM t', 'parquet');
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error_code: 'AdHocQueryError' });
  });
});
