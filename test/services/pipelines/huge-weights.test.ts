/**
 * One weighted ingress event of weight 10^8 (`update_format=weighted`) is a legal change, but JSON output
 * writes a row once per unit of weight: building that answer made a worker grow one array past any heap
 * limit, and V8 ended the whole process (every pipeline and both other services), not just the worker.
 * Now JSON output that would repeat rows more than MAX_REPEATED_RECORDS times is refused or ended with the
 * reason, CSV (which carries the weight) still works, and the server, the pipeline and its state live on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPEATED_RECORDS } from '../../../src/services/pipelines/worker/egress/encode.js';
import { createCompiled, ingest, startRunning, startSvc, WatchReader, type Svc } from './helpers.js';

const SQL = "CREATE TABLE t (x INT) WITH ('materialized' = 'true');\nCREATE MATERIALIZED VIEW v AS SELECT x FROM t;";
const HUGE = 100_000_000;

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'w', SQL);
  await startRunning(svc, 'w');
});
afterAll(async () => {
  await svc?.close();
});

async function alive(): Promise<void> {
  expect((await svc.call('GET', '/v0/pipelines')).status).toBe(200);
  expect((await svc.call('GET', '/v0/pipelines/w')).json.deployment_status).toBe('Running');
}

describe('rows of huge weight', () => {
  it('a JSON watch stream is ended with the reason; a CSV stream gets the row with its weight; the server lives on', async () => {
    const json = await WatchReader.open(svc, 'w', 'v', 'format=json');
    const csv = await WatchReader.open(svc, 'w', 'v', 'format=csv');
    expect((await ingest(svc, 'w', 't', 'format=json&update_format=weighted', `{"weight": ${HUGE}, "data": {"x": 7}}`)).status).toBe(200);
    await json.until((w) => w.ended, 'the JSON stream to end');
    await csv.until((w) => w.raw.includes(`7,${HUGE}`), 'the CSV line with its weight');
    await alive();
    const logs = (await svc.call('GET', '/v0/pipelines/w/logs')).text;
    expect(logs).toMatch(/ended: a step's changes to 'V' cannot be sent on it: rows of weight beyond 1 would be written 100000000 times/);
    // a new JSON stream works for ordinary steps
    const again = await WatchReader.open(svc, 'w', 'v', 'format=json');
    expect((await ingest(svc, 'w', 't', 'format=json&update_format=raw', '{"x": 1}')).status).toBe(200);
    await again.until((w) => w.items().length === 1, 'the next change');
    expect(again.items()).toEqual([{ insert: { X: 1 } }]);
  });

  it('a JSON snapshot is refused (400 OutputTooLarge), a CSV snapshot answers with the weight, a quantile sample and a count still work', async () => {
    const r = await svc.call('POST', '/v0/pipelines/w/egress/v?format=json&mode=snapshot');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error_code: 'OutputTooLarge', message: expect.stringContaining('format=csv') });
    const c = await svc.call('POST', '/v0/pipelines/w/egress/v?format=csv&mode=snapshot');
    expect(c.status).toBe(200);
    expect(c.json.text_data).toContain(`7,${HUGE}\n`);
    const neighborhood = await svc.call('POST', '/v0/pipelines/w/egress/v?format=json&mode=snapshot&query=neighborhood', { anchor: null, before: 0, after: 2 });
    expect(neighborhood.status).toBe(400);
    expect(neighborhood.json.error_code).toBe('OutputTooLarge');
    const count = await svc.call('GET', `/v0/pipelines/w/query?sql=${encodeURIComponent('SELECT COUNT(*) AS c FROM v')}&format=json`);
    expect(JSON.parse(count.text)).toEqual({ C: HUGE + 1 });
    await alive();
  });

  it('a send_snapshot stream ends with the reason instead of taking the worker down', async () => {
    const s = await WatchReader.open(svc, 'w', 'v', 'format=json&send_snapshot=true');
    await s.until((w) => w.ended, 'the stream to end');
    await alive();
  });

  it('just under the limit, JSON writes every repeat', async () => {
    await createCompiled(svc, 'u', SQL);
    await startRunning(svc, 'u');
    const n = MAX_REPEATED_RECORDS + 1; // extra records beyond one per row: exactly the limit
    expect((await ingest(svc, 'u', 't', 'format=json&update_format=weighted', `{"weight": ${n}, "data": {"x": 3}}`)).status).toBe(200);
    const r = await svc.call('POST', '/v0/pipelines/u/egress/v?format=json&mode=snapshot');
    expect(r.status).toBe(200);
    expect(r.json.json_data).toHaveLength(n);
  });
});
