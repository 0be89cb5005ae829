/**
 * Values the engine cannot hold (BIGINT beyond -2^63..2^63-1, impossible dates and clock times, DECIMAL
 * overflowing its precision) are ParseErrors like any other bad value: every bad event is listed with
 * its field, and nothing of the request is applied.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, snapshot, startRunning, startSvc, type Svc } from './helpers.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'vals', `create table v(a int, big bigint, d decimal(5,2), dt date, t time, ts timestamp) with ('materialized' = 'true');`);
  await startRunning(svc, 'vals');
  await createCompiled(svc, 'strs', `create table s(id int not null, s varchar, v variant, n int) with ('materialized' = 'true');`);
  await startRunning(svc, 'strs');
  await createCompiled(svc, 'maps', `create table m(id int, mi map<int, varchar>) with ('materialized' = 'true');`);
  await startRunning(svc, 'maps');
});
afterAll(async () => {
  await svc?.close();
});

describe('ingress value checks', () => {
  it('JSON: a BIGINT beyond 64 bits, a 30th of February, hour 25 and a bad event are all reported, each with its field', async () => {
    const body = [
      '{"insert":{"a":1,"big":9223372036854775808}}',
      '{"insert":{"a":2,"dt":"2021-02-30"}}',
      '{"insert":{"a":3,"t":"25:00:00"}}',
      '{"insert":{"a":4,"ts":"2021-13-01 10:00:00"}}',
      '{"insert":{"a":"x"}}',
      '{"insert":{"a":6,"big":9007199254740991,"dt":"2024-02-29","t":"23:59:59","ts":"2024-02-29 23:59:59"}}',
    ].join('\n');
    const r = await ingest(svc, 'vals', 'v', 'format=json', body);
    expect(r.status, r.text).toBe(400);
    expect(r.json.error_code).toBe('ParseErrors');
    const errs = r.json.details.errors as { event_number: number; field: string | null; line: number; description: string }[];
    expect(errs.map((e) => [e.event_number, e.field, e.line])).toEqual([
      [1, 'BIG', 1],
      [2, 'DT', 2],
      [3, 'T', 3],
      [4, 'TS', 4],
      [5, 'A', 5],
    ]);
    expect(errs[0]!.description).toMatch(/^failed to deserialize JSON record: error parsing field 'BIG': invalid value: integer `9223372036854775808`, expected i64/);
    expect(errs[1]!.description).toContain('"2021-02-30"');
    expect((await snapshot(svc, 'vals', 'v')).json_data).toEqual([]);
  });

  it('CSV: a BIGINT beyond 64 bits and an impossible date are reported with their field; the exact digits are quoted', async () => {
    const r = await ingest(svc, 'vals', 'v', 'format=csv', '1,-9223372036854775809,,,,\n2,,,2023-02-29,,\n');
    expect(r.status, r.text).toBe(400);
    const errs = r.json.details.errors as { event_number: number; field: string | null; description: string }[];
    expect(errs.map((e) => [e.event_number, e.field])).toEqual([
      [1, 'BIG'],
      [2, 'DT'],
    ]);
    expect(errs[0]!.description).toContain('too large');
    expect((await snapshot(svc, 'vals', 'v')).json_data).toEqual([]);
  });

  it('a DECIMAL beyond its precision is listed with the other bad events, with its field', async () => {
    const r = await ingest(svc, 'vals', 'v', 'format=json', '{"insert":{"a":7,"d":1234.5}}\n{"insert":{"a":8,"d":"-01000.1"}}\n{"insert":{"a":true}}');
    expect(r.status, r.text).toBe(400);
    expect(r.json.details.errors.map((e: { event_number: number; field: string }) => [e.event_number, e.field])).toEqual([
      [1, 'D'],
      [2, 'D'],
      [3, 'A'],
    ]);
    expect(r.json.details.errors[0].description).toBe("failed to deserialize JSON record: error parsing field 'D': decimal number 1234.5 is outside the value range -999.99 to 999.99 (inclusive)");
    expect(r.json.details.errors[1].description).toContain('decimal number -1000.1 is outside');
  });

  it('digits beyond a DECIMAL scale are dropped toward zero (as Feldera): 999.999 is 999.99 in a DECIMAL(5, 2)', async () => {
    const r = await ingest(svc, 'vals', 'v', 'format=json', '{"insert":{"a":9,"d":999.999}}\n{"insert":{"a":10,"d":"-0.019"}}');
    expect(r.status, r.text).toBe(200);
    const rows = (await snapshot(svc, 'vals', 'v')).json_data.map((x: { insert: { A: number; D: string } }) => [x.insert.A, x.insert.D]);
    expect(rows).toEqual(
      expect.arrayContaining([
        [9, '999.99'],
        [10, '-0.01'],
      ]),
    );
    const gone = await ingest(svc, 'vals', 'v', 'format=json', '{"delete":{"a":9,"d":"999.99"}}\n{"delete":{"a":10,"d":-0.01}}');
    expect(gone.status, gone.text).toBe(200);
  });

  it('CSV through the engine codec: a quoted empty field is an empty string, an unquoted one NULL; a VARIANT field is JSON (null is NULL)', async () => {
    const r = await ingest(svc, 'strs', 's', 'format=csv', '1,"",null,""\n2,,"{""b"":1,""a"":[true]}",\n3,x,"""null""",7\n');
    expect(r.status, r.text).toBe(200);
    const rows = (await snapshot(svc, 'strs', 's')).json_data.map((d: { insert: { ID: number } }) => d.insert);
    expect(rows.sort((a: { ID: number }, b: { ID: number }) => a.ID - b.ID)).toEqual([
      { ID: 1, S: '', V: null, N: null },
      { ID: 2, S: null, V: { a: [true], b: 1 }, N: null },
      { ID: 3, S: 'x', V: 'null', N: 7 },
    ]);
    const bad = await ingest(svc, 'strs', 's', 'format=csv', ',x,1,1\n4,x,{bad,1\n');
    expect(bad.status, bad.text).toBe(400);
    expect(bad.json.details.errors.map((e: { field: string; description: string }) => [e.field, e.description])).toEqual([
      ['ID', "failed to deserialize CSV record: error parsing field 'ID': field 0: empty field for a NOT NULL column, expected i32"],
      ['V', "failed to deserialize CSV record: error parsing field 'V': field 2: expected a JSON value written as JSON"],
    ]);
  });

  it('good values at the edges are accepted', async () => {
    const r = await ingest(svc, 'vals', 'v', 'format=json', '{"insert":{"a":8,"big":-9007199254740991,"d":"999.99","dt":"2024-02-29","t":"00:00:00","ts":"2000-02-29 23:59:59"}}');
    expect(r.status, r.text).toBe(200);
    expect((await snapshot(svc, 'vals', 'v')).json_data).toEqual([{ insert: { A: 8, BIG: -9007199254740991, D: '999.99', DT: '2024-02-29', T: '00:00:00', TS: '2000-02-29 23:59:59' } }]);
  });

  it('JSON: a MAP<INT, VARCHAR> from an object whose keys are the integers as text (as Feldera reads it); a key that is no INT is a ParseError', async () => {
    expect((await ingest(svc, 'maps', 'm', 'format=json', '{"insert":{"id":1,"mi":{"2":"b","1":"a"}}}')).status).toBe(200);
    const q = await svc.call('GET', `/v0/pipelines/maps/query?sql=${encodeURIComponent('SELECT mi[1] AS one, mi[2] AS two FROM m')}&format=json`);
    expect(q.text.trim()).toBe('{"ONE":"a","TWO":"b"}');
    const bad = await ingest(svc, 'maps', 'm', 'format=json', '{"insert":{"id":2,"mi":{"x":"b"}}}');
    expect(bad.status).toBe(400);
    expect(bad.json.error_code).toBe('ParseErrors');
  });
});
