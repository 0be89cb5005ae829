/**
 * Long JSON numbers through a running pipeline: a DECIMAL(38, 10) sent as a bare JSON number keeps every digit
 * in each update format (insert_delete, raw on and off the fast path, weighted, debezium; array or not) and by
 * CSV, and comes out with those digits on a watch stream and a snapshot; DECIMAL ARRAY elements and VARIANT
 * numbers too; a neighborhood anchor is read exactly; too many fraction digits are dropped toward zero and a
 * value beyond the precision is a 400 naming the field, as Feldera reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonNumberText } from '../../../src/engine/index.js';
import { rowComparator } from '../../../src/services/pipelines/worker/egress/order.js';
import { createCompiled, ingest, startRunning, startSvc, WatchReader, type Svc } from './helpers.js';

const LONG = '1234567890123456789012345678.1234567890';
/** LONG with one more digit in the last place of the scale, and its neighbour below. */
const NEXT = '1234567890123456789012345678.1234567891';
const BELOW = '1234567890123456789012345678.1234567889';

const SQL = `CREATE TABLE t (k INT NOT NULL PRIMARY KEY, d DECIMAL(38, 10), a DECIMAL(38, 10) ARRAY, v VARIANT, f DOUBLE) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW w AS SELECT k, d, a, v FROM t;
CREATE TABLE p (d DECIMAL(38, 10) NOT NULL PRIMARY KEY) WITH ('materialized' = 'true');`;

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'dec', SQL);
  await startRunning(svc, 'dec');
});
afterAll(async () => {
  await svc?.close();
});

const snapshotText = async (rel: string, format = 'json'): Promise<string> => {
  const r = await svc.call('POST', `/v0/pipelines/dec/egress/${rel}?format=${format}&mode=snapshot&query=quantiles`);
  expect(r.status, r.text).toBe(200);
  return r.text;
};

describe('DECIMAL(38, 10) JSON numbers through a pipeline', () => {
  it('every update format keeps every digit; watch and snapshot print them', async () => {
    const watch = await WatchReader.open(svc, 'dec', 'w');
    expect(watch.status).toBe(200);
    try {
      const bodies: Array<[string, string]> = [
        ['format=json', `{"insert":{"k":1,"d":${LONG}}}`],
        ['format=json&update_format=insert_delete&array=true', `[{"insert":{"k":2,"d":-${LONG}}}]`],
        ['format=json&update_format=raw', `{"k":3,"d":${LONG}}`], // the fast path leaves a long number to the exact path
        ['format=json&update_format=raw&array=true', `[{"k":4,"d":${NEXT}},{"k":44,"d":${LONG}}]`],
        ['format=json&update_format=weighted', `{"weight":1,"data":{"k":5,"d":${LONG}}}`],
        ['format=json&update_format=debezium', `{"payload":{"op":"c","after":{"k":6,"d":${LONG}}}}`],
        ['format=csv', `7,${LONG},,,\n`],
        ['format=json', `{"insert":{"k":8,"d":${LONG}99,"a":[${LONG},${NEXT}],"v":{"x":${LONG}1},"f":${LONG}}}`],
      ];
      for (const [query, body] of bodies) {
        const r = await ingest(svc, 'dec', 't', query, body);
        expect(r.status, `${query}: ${r.text}`).toBe(200);
      }
      await watch.until((w) => w.raw.includes('"K":8'), 'the last row on the watch stream');
      for (const k of [1, 3, 44, 5, 6, 7, 8]) expect(watch.raw).toContain(`{"insert":{"K":${k},"D":"${LONG}"`);
      expect(watch.raw).toContain(`{"insert":{"K":2,"D":"-${LONG}"`);
      expect(watch.raw).toContain(`{"insert":{"K":4,"D":"${NEXT}"`);
      expect(watch.raw).toContain(`"A":["${LONG}","${NEXT}"],"V":{"x":${LONG}1}`);

      const snap = await snapshotText('t');
      for (const k of [1, 3, 5, 6, 7]) expect(snap).toContain(`{"insert":{"K":${k},"D":"${LONG}","A":null,"V":null,"F":null}}`);
      // DOUBLE: the double Feldera's serde_json reads (20 digits rounded, times 10^8; not the nearest: types/serde-float.ts)
      expect(snap).toContain(`{"insert":{"K":8,"D":"${LONG}","A":["${LONG}","${NEXT}"],"V":{"x":${LONG}1},"F":${Number(12345678901234567890n) * 1e8}}}`);
      const q = await svc.call('GET', `/v0/pipelines/dec/query?sql=${encodeURIComponent('SELECT k, d, v, d + d AS twice FROM t WHERE k = 8')}&format=json`);
      expect(q.status, q.text).toBe(200);
      expect(q.text.trim()).toBe(`{"K":8,"D":"${LONG}","V":{"x":${LONG}1},"TWICE":"2469135780246913578024691356.2469135780"}`);
      const csv = JSON.parse(await snapshotText('w', 'csv')).text_data as string;
      expect(csv).toContain(`2,-${LONG},,,1\n`);
      expect(csv).toContain(`8,${LONG},"[""${LONG}"",""${NEXT}""]","{""x"":${LONG}1}",1\n`);
    } finally {
      watch.close();
    }
  });

  it('a neighborhood anchor is read exactly (a rounded one would stand above both rows)', async () => {
    const r = await ingest(svc, 'dec', 'p', 'format=json', `{"insert":{"d":${BELOW}}}\n{"insert":{"d":${NEXT}}}\n{"insert":{"d":"${LONG}"}}`);
    expect(r.status, r.text).toBe(200);
    const nb = await svc.call('POST', '/v0/pipelines/dec/egress/p?query=neighborhood&mode=snapshot&format=json', undefined, {
      raw: `{"anchor":{"d":${NEXT}},"before":1,"after":1}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(nb.status, nb.text).toBe(200);
    // rows in value order, where the values differ beyond what a double holds
    const more = await ingest(svc, 'dec', 'p', 'format=json', `{"insert":{"d":-${LONG}}}\n{"insert":{"d":-${NEXT}}}`);
    expect(more.status, more.text).toBe(200);
    const order = (JSON.parse(await snapshotText('p')).json_data as Array<{ insert: { D: string } }>).map((x) => x.insert.D);
    expect(order).toEqual([`-${NEXT}`, `-${LONG}`, BELOW, LONG, NEXT]);
    expect(nb.text.trim()).toBe(`{"sequence_number":0,"json_data":[{"insert":{"index":-1,"key":{"D":"${LONG}"}}},{"insert":{"index":0,"key":{"D":"${NEXT}"}}}]}`);
  });

  it('refuses a value beyond the precision, naming the field; a long number is not a row', async () => {
    const r = await ingest(svc, 'dec', 't', 'format=json', `{"insert":{"k":9,"d":12345678901234567890123456789.5}}\n{"insert":${LONG}}\n{"k":1}`);
    expect(r.status, r.text).toBe(400);
    expect(r.json.details.errors[0]).toMatchObject({ event_number: 1, field: 'D' });
    expect(r.json.details.errors[0].description).toBe(
      "failed to deserialize JSON record: error parsing field 'D': decimal number 12345678901234567890123456789.5 is outside the value range -9999999999999999999999999999.9999999999 to 9999999999999999999999999999.9999999999 (inclusive)",
    );
    expect(r.json.details.errors[1]).toMatchObject({ event_number: 2 });
    expect(r.json.details.errors[1].description).toContain('invalid type: number, expected a table row');
    const raw = await ingest(svc, 'dec', 't', 'format=json&update_format=raw', `${LONG}`);
    expect(raw.status, raw.text).toBe(400);
    expect(raw.json.details.errors[0].description).toContain('expected a table row');
  });

  it('output order: VARIANT numbers by value, long ones (JsonNumberText) among the others', () => {
    const cmp = rowComparator([{ name: 'V', caseSensitive: false, type: 'VARIANT', nullable: true }]);
    const vals = [new JsonNumberText('2.00000000000000000001'), 3, 'a', new JsonNumberText('-1.00000000000000000001'), 2, true, null];
    const sorted = vals
      .map((v) => ({ V: v }))
      .sort(cmp)
      .map((r) => r.V);
    expect(sorted).toEqual([null, true, new JsonNumberText('-1.00000000000000000001'), 2, new JsonNumberText('2.00000000000000000001'), 3, 'a']);
  });
});
