/**
 * The worked examples of reference/pipeline-workloads.md (W2-W5), with today's lower-case output names
 * (program_config.output_case = "lower"), over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bag, createCompiled, ingest, shutdown, snapshot, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
});
afterAll(async () => {
  await svc.close();
});

const LOWER = { program_config: { output_case: 'lower' } };

async function rows(name: string, rel: string): Promise<any[]> {
  const s = await snapshot(svc, name, rel);
  return s.json_data.map((x: any) => x.insert);
}

describe('W2 hello world: join two CSV inputs', () => {
  it('CSV output is exactly "Hello world!,1"', async () => {
    await createCompiled(
      svc,
      'w2',
      `CREATE TABLE messages (id INTEGER, message STRING);
CREATE TABLE records (id INTEGER, message STRING);

CREATE VIEW matches AS
SELECT messages.message || ' ' || records.message AS combined
FROM messages
JOIN records
    ON messages.id = records.id;`,
      LOWER,
    );
    await startRunning(svc, 'w2');
    const csvWatch = await WatchReader.open(svc, 'w2', 'matches', 'format=csv');
    const jsonWatch = await WatchReader.open(svc, 'w2', 'matches', 'format=json');
    expect((await ingest(svc, 'w2', 'messages', 'format=csv', '1,"a"\n2,"b"\n3,"c"\n4,"Hello"\n5,"d"\n')).status).toBe(200);
    expect((await ingest(svc, 'w2', 'records', 'format=csv', '8,"x"\n4,"world!"\n')).status).toBe(200);
    await csvWatch.until((w) => w.chunks.some((c) => c.text_data), 'csv data');
    expect(csvWatch.chunks.filter((c) => c.text_data).map((c) => c.text_data)).toEqual(['Hello world!,1\n']);
    await jsonWatch.until((w) => w.items().length > 0, 'json data');
    expect(jsonWatch.items()).toEqual([{ insert: { combined: 'Hello world!' } }]);
    expect((await snapshot(svc, 'w2', 'matches', 'csv')).text_data).toBe('Hello world!,1\n');
    await shutdown(svc, 'w2');
  });
});

describe('W3 ingress formats and parse errors', () => {
  it('W3a: CSV with mixed line endings; same snapshot paused and running', async () => {
    await createCompiled(svc, 'w3a', "CREATE TABLE t1(c1 INTEGER) WITH ('materialized' = 'true');\nCREATE VIEW v1 AS SELECT * FROM t1;", LOWER);
    await startRunning(svc, 'w3a');
    expect((await ingest(svc, 'w3a', 't1', '', '1\n2\n3\n')).status).toBe(200);
    await svc.call('POST', '/v0/pipelines/w3a/pause');
    expect((await ingest(svc, 'w3a', 't1', 'force=true', '4\r\n5\r\n6')).status).toBe(200);
    expect((await snapshot(svc, 'w3a', 't1', 'csv')).text_data).toBe('1,1\n2,1\n3,1\n4,1\n5,1\n6,1\n');
    await startRunning(svc, 'w3a');
    expect((await snapshot(svc, 'w3a', 't1', 'csv')).text_data).toBe('1,1\n2,1\n3,1\n4,1\n5,1\n6,1\n');
    await shutdown(svc, 'w3a');
  });

  it('W3b: JSON formats step by step; a bad request applies nothing', async () => {
    await createCompiled(svc, 'w3b', "create table t1(c1 integer, c2 bool, c3 varchar) with ('materialized' = 'true');\ncreate materialized view v1 as select * from t1;", LOWER);
    await startRunning(svc, 'w3b');
    // step 1: raw, upper-case table name
    expect((await ingest(svc, 'w3b', 'T1', 'format=json&update_format=raw', '{"c1": 10, "c2": true}\n{"c1": 20, "c3": "foo"}')).status).toBe(200);
    expect(await rows('w3b', 't1')).toEqual([
      { c1: 10, c2: true, c3: null },
      { c1: 20, c2: null, c3: 'foo' },
    ]);
    const nb = await svc.call('POST', '/v0/pipelines/w3b/egress/T1?query=neighborhood&mode=snapshot&format=json', {
      before: 10,
      after: 10,
      anchor: { c1: 10, c2: true, c3: null },
    });
    expect(nb.json.json_data).toEqual([{ insert: { index: 0, key: { c1: 10, c2: true, c3: null } } }, { insert: { index: 1, key: { c1: 20, c2: null, c3: 'foo' } } }]);
    // step 2: insert_delete; delete with c3 omitted matches the NULL
    expect((await ingest(svc, 'w3b', 't1', 'format=json&update_format=insert_delete', '{"delete": {"c1": 10, "c2": true}}\n{"insert": {"c1": 30, "c3": "bar"}}')).status).toBe(200);
    // step 3 and 4: rows as arrays
    expect((await ingest(svc, 'w3b', 'T1', 'format=json&update_format=insert_delete', '{"insert": [40, true, "buzz"]}')).status).toBe(200);
    expect((await ingest(svc, 'w3b', 't1', 'format=json&update_format=insert_delete&array=true', '[{"delete": [40, true, "buzz"]}, {"insert": [50, true, ""]}]')).status).toBe(200);
    const after4 = [
      { c1: 20, c2: null, c3: 'foo' },
      { c1: 30, c2: null, c3: 'bar' },
      { c1: 50, c2: true, c3: '' },
    ];
    expect(await rows('w3b', 't1')).toEqual(after4);
    expect(await rows('w3b', 'v1')).toEqual(after4);
    // step 5: bad elements in an array: 400, nothing applied
    const bad = await ingest(svc, 'w3b', 'T1', 'format=json&update_format=insert_delete&array=true', '[{"insert": [35, true, ""]}, {"delete": [40, "foo", "buzz"]}, {"insert": [true, true, ""]}]');
    expect(bad.status).toBe(400);
    expect(bad.json.error_code).toBe('ParseErrors');
    expect(bad.json.message).toContain('Errors parsing input data (2 errors)');
    expect(bad.json.details.num_errors).toBe(2);
    expect(bad.json.details.errors.map((e: any) => [e.event_number, e.field])).toEqual([
      [2, 'c2'],
      [3, 'c1'],
    ]);
    expect(await rows('w3b', 't1')).toEqual(after4);
    // step 6: the same events without array: also all-or-nothing here (one request = one step)
    const bad6 = await ingest(svc, 'w3b', 't1', 'format=json&update_format=insert_delete', '{"insert": [25, true, ""]}{"delete": [40, "foo", "buzz"]}{"insert": [true, true, ""]}');
    expect(bad6.status).toBe(400);
    expect(bad6.json.message).toContain('Errors parsing input data (2 errors)');
    expect(await rows('w3b', 't1')).toEqual(after4);
    // step 7: debezium update
    expect((await ingest(svc, 'w3b', 'T1', 'format=json&update_format=debezium', '{"payload": {"op": "u", "before": [50, true, ""], "after": [60, true, "hello"]}}')).status).toBe(200);
    expect((await snapshot(svc, 'w3b', 't1', 'csv')).text_data).toBe('20,,foo,1\n30,,bar,1\n60,true,hello,1\n');
    // step 8: CSV with a bad row names line 2; nothing applied
    const badCsv = await ingest(svc, 'w3b', 't1', 'format=csv', '15,true,foo\nnot_a_number,true,ΑαΒβΓγΔδ\n16,false,unicode🚲');
    expect(badCsv.status).toBe(400);
    expect(badCsv.json.details.errors[0]).toMatchObject({
      description: "failed to deserialize CSV record: error parsing field 'c1': field 0: invalid digit found in string",
      event_number: 2,
      line: 2,
      field: 'c1',
      invalid_text: 'not_a_number,true,ΑαΒβΓγΔδ\n',
    });
    expect(badCsv.json.message).toContain('line 2');
    expect((await snapshot(svc, 'w3b', 't1', 'csv')).text_data).toBe('20,,foo,1\n30,,bar,1\n60,true,hello,1\n');
    expect((await ingest(svc, 'w3b', 't1', 'format=csv', '15,true,foo\n16,false,unicode🚲')).status).toBe(200);
    expect((await rows('w3b', 't1')).map((r: any) => r.c1)).toEqual([15, 16, 20, 30, 60]);
    // stats count only applied records
    const st = (await svc.call('GET', '/v0/pipelines/w3b/stats')).json;
    expect(st.global_metrics.total_input_records).toBe(2 + 2 + 1 + 2 + 1 + 2);
    expect(st.global_metrics.total_processed_records).toBe(st.global_metrics.total_input_records);
    expect(st.inputs.find((i: any) => i.endpoint_name === 'api-ingress-t1').metrics.num_parse_errors).toBeGreaterThan(0);
    await shutdown(svc, 'w3b');
  });

  it('W3d: date and time values are trimmed', async () => {
    await createCompiled(svc, 'w3d', "create table t1(t TIME, ts TIMESTAMP, d DATE) with ('materialized' = 'true');", LOWER);
    await startRunning(svc, 'w3d');
    expect(
      (
        await ingest(
          svc,
          'w3d',
          't1',
          'format=json&update_format=raw',
          '{"t":"13:22:00","ts": "2021-05-20 12:12:33","d": "2021-05-20"}\n{"t":" 11:12:33.483221092 ","ts": " 2024-02-25 12:12:33 ","d": " 2024-02-25 "}',
        )
      ).status,
    ).toBe(200);
    expect(bag(await rows('w3d', 't1'))).toEqual(
      bag([
        { t: '11:12:33.483221092', ts: '2024-02-25 12:12:33', d: '2024-02-25' },
        { t: '13:22:00', ts: '2021-05-20 12:12:33', d: '2021-05-20' },
      ]),
    );
    await shutdown(svc, 'w3d');
  });

  it('W3c: MAP columns come out with sorted keys (or, while the engine lacks MAP, a clear SqlError)', async () => {
    const sql = "create table t1(c1 integer, c2 bool, c3 MAP<varchar, varchar>) with ('materialized' = 'true');";
    await svc.call('PUT', '/v0/pipelines/w3c', { name: 'w3c', description: '', runtime_config: {}, program_code: sql, ...LOWER });
    const p = await waitFor(async () => {
      const r = (await svc.call('GET', '/v0/pipelines/w3c')).json;
      return r.program_status === 'Success' || typeof r.program_status === 'object' ? r : undefined;
    }, 'compilation');
    if (p.program_status !== 'Success') {
      const [m] = p.program_status.SqlError;
      expect(m.start_line_number).toBe(1);
      return;
    }
    await startRunning(svc, 'w3c');
    expect((await ingest(svc, 'w3c', 'T1', 'format=json&update_format=raw', '{"c1": 10, "c2": true, "c3": {"foo": "1", "bar": "2"}}\n{"c1": 20}')).status).toBe(200);
    const t1 = await rows('w3c', 't1');
    expect(t1).toEqual([
      { c1: 10, c2: true, c3: { bar: '2', foo: '1' } },
      { c1: 20, c2: null, c3: null },
    ]);
    expect(JSON.stringify(t1[0].c3)).toBe('{"bar":"2","foo":"1"}');
    await shutdown(svc, 'w3c');
  });

  it('W3e/W3f: quoted and unquoted names; case-sensitive relations in URLs', async () => {
    await createCompiled(
      svc,
      'w3f',
      `create table "TaBle1"(id bigint not null);
create table table1(id bigint);
create materialized view "V1" as select * from "TaBle1";
create materialized view "v1" as select * from table1;
create table q("c1" integer not null, "C2" bool not null, ΔΘ boolean not null) with ('materialized' = 'true');`,
      LOWER,
    );
    await startRunning(svc, 'w3f');
    const wUpper = await WatchReader.open(svc, 'w3f', '%22V1%22', 'format=json');
    const wLower = await WatchReader.open(svc, 'w3f', '%22v1%22', 'format=json');
    expect(wUpper.status).toBe(200);
    expect((await ingest(svc, 'w3f', '%22TaBle1%22', 'format=json&update_format=insert_delete', '{"insert":{"id":1}}')).status).toBe(200);
    expect((await ingest(svc, 'w3f', 'table1', 'format=json&update_format=insert_delete', '{"insert":{"id":2}}')).status).toBe(200);
    await wUpper.until((w) => w.items().length > 0, 'V1 change');
    await wLower.until((w) => w.items().length > 0, 'v1 change');
    expect(wUpper.items()).toEqual([{ insert: { id: 1 } }]);
    expect(wLower.items()).toEqual([{ insert: { id: 2 } }]);
    expect(await rows('w3f', '%22V1%22')).toEqual([{ id: 1 }]);
    expect(await rows('w3f', 'v1')).toEqual([{ id: 2 }]);
    expect((await ingest(svc, 'w3f', 'Q', 'format=json&update_format=raw', '{"c1": 10, "C2": true, "δθ": false}')).status).toBe(200);
    expect(await rows('w3f', 'q')).toEqual([{ c1: 10, C2: true, δθ: false }]);
    // error routes
    const unknownTable = await ingest(svc, 'w3f', 'nosuch', 'format=json', '{}');
    expect(unknownTable.status).toBe(404);
    expect(unknownTable.json.error_code).toBe('UnknownInputStream');
    expect(unknownTable.json.message).toMatch(/^Input endpoint 'api-ingress-nosuch-[0-9a-f-]+' specifies unknown table 'nosuch'$/);
    const unknownView = await svc.call('POST', '/v0/pipelines/w3f/egress/nosuch?format=json');
    expect(unknownView.status).toBe(404);
    expect(unknownView.json.error_code).toBe('UnknownOutputStream');
    const badFormat = await ingest(svc, 'w3f', 'table1', 'format=avro', '');
    expect(badFormat.status).toBe(400);
    expect(badFormat.json.error_code).toBe('UnknownInputFormat');
    await shutdown(svc, 'w3f');
    const notRunning = await ingest(svc, 'w3f', 'table1', 'format=json', '{"insert":{"id":3}}');
    expect(notRunning.status).toBe(400);
    expect(notRunning.json.error_code).toBe('PipelineNotRunningOrPaused');
  });
});

describe('W4 primary keys', () => {
  it('W4a: insert overwrites, update patches, delete by key; neighborhood', async () => {
    await createCompiled(svc, 'w4a', "create table t1(id bigint not null, s varchar not null, primary key (id)) with ('materialized' = 'true')", LOWER);
    await startRunning(svc, 'w4a');
    const q = 'format=json&update_format=insert_delete';
    expect((await ingest(svc, 'w4a', 'T1', q, '{"insert":{"id":1, "s": "1"}}\n{"insert":{"id":2, "s": "2"}}')).status).toBe(200);
    expect(await rows('w4a', 't1')).toEqual([
      { id: 1, s: '1' },
      { id: 2, s: '2' },
    ]);
    const nb = await svc.call('POST', '/v0/pipelines/w4a/egress/T1?query=neighborhood&mode=snapshot&format=json', { before: 10, after: 10, anchor: { id: 2, s: '1' } });
    expect(nb.json.json_data).toEqual([{ insert: { index: -1, key: { id: 1, s: '1' } } }, { insert: { index: 0, key: { id: 2, s: '2' } } }]);
    expect((await ingest(svc, 'w4a', 'T1', q, '{"insert":{"id":1, "s": "1-modified"}}\n{"update":{"id":2, "s": "2-modified"}}')).status).toBe(200);
    expect(await rows('w4a', 't1')).toEqual([
      { id: 1, s: '1-modified' },
      { id: 2, s: '2-modified' },
    ]);
    expect((await ingest(svc, 'w4a', 'T1', q, '{"delete":{"id":2}}')).status).toBe(200);
    expect(await rows('w4a', 't1')).toEqual([{ id: 1, s: '1-modified' }]);
    await shutdown(svc, 'w4a');
  });

  it('W4b: upsert deltas on a watched table', async () => {
    await createCompiled(
      svc,
      'w4b',
      `create table t1(
    id1 bigint not null, id2 bigint not null,
    str1 varchar not null, str2 varchar,
    int1 bigint not null, int2 bigint,
    primary key(id1, id2));`,
      LOWER,
    );
    await startRunning(svc, 'w4b');
    const w = await WatchReader.open(svc, 'w4b', 'T1', 'format=json');
    const q = 'format=json&update_format=insert_delete&array=true';
    const row = (id1: number, str1: string, str2: string | null, int1: number, int2: number | null) => ({ id1, id2: 1, str1, str2, int1, int2 });
    const deltas: any[][] = [];
    const step = async (body: string) => {
      const before = w.chunks.filter((c) => c.json_data).length;
      expect((await ingest(svc, 'w4b', 'T1', q, body)).status).toBe(200);
      await w.until((r) => r.chunks.filter((c) => c.json_data).length > before, 'delta');
      deltas.push(
        w.chunks
          .filter((c) => c.json_data)
          .slice(before)
          .flatMap((c) => c.json_data!),
      );
    };
    await step('[{"insert":{"id1":1,"id2":1,"str1":"1","int1":1}},{"insert":{"id1":2,"id2":1,"str1":"1","int1":1}},{"insert":{"id1":3,"id2":1,"str1":"1","int1":1}}]');
    expect(bag(deltas[0]!)).toEqual(bag([1, 2, 3].map((i) => ({ insert: row(i, '1', null, 1, null) }))));
    await step('[{"update":{"id1":1,"id2":1,"str1":"2"}},{"update":{"id1":2,"id2":1,"str2":"foo"}},{"insert":{"id1":3,"id2":1,"str1":"1","str2":"2","int1":3,"int2":33}}]');
    expect(bag(deltas[1]!)).toEqual(
      bag([...[1, 2, 3].map((i) => ({ delete: row(i, '1', null, 1, null) })), { insert: row(1, '2', null, 1, null) }, { insert: row(2, '1', 'foo', 1, null) }, { insert: row(3, '1', '2', 3, 33) }]),
    );
    await step('[{"update":{"id1":1,"id2":1}},{"update":{"id1":2,"id2":1,"str2":null}},{"delete":{"id1":3,"id2":1}},{"delete":{"id1":4,"id2":1}},{"update":{"id1":4,"id2":1,"int1":0,"str1":""}}]');
    expect(bag(deltas[2]!)).toEqual(bag([{ delete: row(2, '1', 'foo', 1, null) }, { delete: row(3, '1', '2', 3, 33) }, { insert: row(2, '1', null, 1, null) }]));
    await shutdown(svc, 'w4b');
  });
});

describe('W5 multiset outputs', () => {
  it('duplicates in a view come out as extra inserts and one delete per removed copy', async () => {
    await createCompiled(svc, 'w5', 'create table t1(id bigint not null, s varchar not null);\ncreate view v1 as select s from t1;', LOWER);
    await startRunning(svc, 'w5');
    const w = await WatchReader.open(svc, 'w5', 'V1', 'format=json');
    const q = 'format=json&update_format=insert_delete';
    const step = async (body: string) => {
      const before = w.items().length;
      expect((await ingest(svc, 'w5', 'T1', q, body)).status).toBe(200);
      await w.until((r) => r.items().length > before, 'delta');
      return w.items().slice(before);
    };
    expect(bag(await step('{"insert":{"id":1,"s":"1"}}\n{"insert":{"id":2,"s":"2"}}'))).toEqual([{ insert: { s: '1' } }, { insert: { s: '2' } }]);
    expect(bag(await step('{"insert":{"id":3,"s":"3"}}\n{"insert":{"id":4,"s":"4"}}'))).toEqual([{ insert: { s: '3' } }, { insert: { s: '4' } }]);
    expect(bag(await step('{"insert":{"id":5,"s":"1"}}\n{"insert":{"id":6,"s":"2"}}'))).toEqual([{ insert: { s: '1' } }, { insert: { s: '2' } }]);
    expect(await step('{"delete":{"id":5,"s":"1"}}')).toEqual([{ delete: { s: '1' } }]);
    await shutdown(svc, 'w5');
  });
});
