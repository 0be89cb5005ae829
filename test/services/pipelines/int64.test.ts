/**
 * Exact 64-bit integers end to end through a running pipeline: BIGINT limits in by JSON and CSV ingress, back
 * out digit-exact on a watch stream, a snapshot and an ad-hoc query; an insert that overflows a view is
 * refused whole (422 StepRefused naming the view, the expression and the type) and nothing of it is applied.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, shutdown, startRunning, startSvc, WatchReader, type Svc } from './helpers.js';

const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';

const SQL = `CREATE TABLE t (k INT NOT NULL PRIMARY KEY, b BIGINT, i INTEGER) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW v AS SELECT k, b, b / 2 AS half, i * 2 AS twice FROM t;
CREATE MATERIALIZED VIEW s AS SELECT SUM(i) AS si, COUNT(*) AS n FROM t;`;

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'ints', SQL);
  await startRunning(svc, 'ints');
});
afterAll(async () => {
  await svc?.close();
});

const snapshotText = async (rel: string): Promise<string> => {
  const r = await svc.call('POST', `/v0/pipelines/ints/egress/${rel}?format=json&mode=snapshot&query=quantiles`);
  expect(r.status, r.text).toBe(200);
  return r.text;
};

describe('BIGINT through a pipeline', () => {
  it('the limits go in by JSON and CSV and come out digit-exact on watch, snapshot and query; an overflow is refused whole', async () => {
    const watch = await WatchReader.open(svc, 'ints', 'v');
    expect(watch.status).toBe(200);
    try {
      const r1 = await ingest(svc, 'ints', 't', 'format=json', `{"insert":{"k":1,"b":${MAX},"i":1}}\n{"insert":{"k":2,"b":${MIN},"i":2}}`);
      expect(r1.status, r1.text).toBe(200);
      const r2 = await ingest(svc, 'ints', 't', 'format=csv', `3,9007199254740993,3\n`);
      expect(r2.status, r2.text).toBe(200);
      // update_format=raw takes the JSON fast path, which leaves a literal of more than 15 digits to the exact path
      const r3 = await ingest(svc, 'ints', 't', 'format=json&update_format=raw', `{"k":7,"b":-9223372036854775807,"i":7}`);
      expect(r3.status, r3.text).toBe(200);
      await watch.until((w) => w.raw.includes('9007199254740993') && w.raw.includes('"K":7'), 'the CSV and raw rows on the watch stream');
      expect(watch.raw).toContain(`{"insert":{"K":7,"B":-9223372036854775807,"HALF":-4611686018427387903,"TWICE":14}}`);
      // the raw text carries every digit (a JSON.parse of it would round them)
      expect(watch.raw).toContain(`{"insert":{"K":1,"B":${MAX},"HALF":4611686018427387903,"TWICE":2}}`);
      expect(watch.raw).toContain(`{"insert":{"K":2,"B":${MIN},"HALF":-4611686018427387904,"TWICE":4}}`);
      expect(watch.raw).toContain(`{"insert":{"K":3,"B":9007199254740993,"HALF":4503599627370496,"TWICE":6}}`);

      const snap = await snapshotText('v');
      expect(snap).toContain(`{"insert":{"K":2,"B":${MIN},"HALF":-4611686018427387904,"TWICE":4}}`);
      expect(snap).toContain(`"B":${MAX}`);
      const csv = await svc.call('POST', `/v0/pipelines/ints/egress/t?format=csv&mode=snapshot&query=quantiles`);
      expect(JSON.parse(csv.text).text_data).toContain(`1,${MAX},1,1\n`);

      const q = await svc.call('GET', `/v0/pipelines/ints/query?sql=${encodeURIComponent('SELECT k, b, b + 0 AS same FROM t')}&format=json`);
      expect(q.status, q.text).toBe(200);
      expect(q.text).toContain(`{"K":1,"B":${MAX},"SAME":${MAX}}`);
      expect(q.text).toContain(`{"K":2,"B":${MIN},"SAME":${MIN}}`);
      // an ad-hoc query that overflows is a 4xx naming its expression, not a 500
      const bad = await svc.call('GET', `/v0/pipelines/ints/query?sql=${encodeURIComponent('SELECT b - 1 AS less FROM t')}&format=json`);
      expect(bad.status, bad.text).toBe(400);
      expect(bad.json.error_code).toBe('AdHocQueryError');
      expect(bad.json.message).toContain('b - 1');

      // an insert that overflows a view (i * 2 in V, INTEGER) and another that is fine: refused whole
      const before = { v: await snapshotText('v'), s: await snapshotText('s'), t: await snapshotText('t') };
      const seen = watch.raw.length;
      const refused = await ingest(svc, 'ints', 't', 'format=json', `{"insert":{"k":5,"b":5,"i":5}}\n{"insert":{"k":4,"b":4,"i":2147483647}}`);
      expect(refused.status, refused.text).toBe(422);
      expect(refused.json.error_code).toBe('StepRefused');
      expect(refused.json.details).toMatchObject({ view: 'V', type: 'INTEGER' });
      expect(refused.json.details.expression).toMatch(/^i \* 2 \(line 2/);
      expect(refused.json.message).toContain('4294967294');
      expect({ v: await snapshotText('v'), s: await snapshotText('s'), t: await snapshotText('t') }).toEqual(before);

      // the pipeline runs on as if the request never came: the next step shows only its own change
      const next = await ingest(svc, 'ints', 't', 'format=json', `{"insert":{"k":6,"b":6,"i":6}}`);
      expect(next.status, next.text).toBe(200);
      await watch.until((w) => w.raw.slice(seen).includes('"K":6'), 'the next step on the watch stream');
      const after = watch.raw.slice(seen);
      expect(after).not.toContain('"K":5');
      expect(after).not.toContain('"K":4');
      const st = await svc.call('GET', '/v0/pipelines/ints');
      expect(st.json.deployment_status).toBe('Running');
      expect(await snapshotText('s')).toContain('{"insert":{"SI":19,"N":5}}');
    } catch (err) {
      watch.close();
      throw err;
    }
    await shutdown(svc, 'ints');
    await watch.until((w) => w.ended, 'the watch stream to end with the pipeline');
  });
});
