/**
 * ROW types end to end in a running pipeline: a CREATE TYPE and anonymous ROW columns (nested in ARRAY and
 * MAP) in program_info as Feldera's STRUCT columntype; JSON and CSV ingress through the engine codec; the
 * values out on a watch stream, in a snapshot and from an ad-hoc query; bad values as ParseErrors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, snapshot, startRunning, startSvc, WatchReader, type Svc } from './helpers.js';

const SQL = `CREATE TYPE address AS (street VARCHAR, zip INT NOT NULL);
CREATE TABLE people (id INT NOT NULL PRIMARY KEY, home address, past address ARRAY, tags MAP<VARCHAR, ROW(n INT, "Note" VARCHAR)>) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW by_zip AS SELECT home.zip AS zip, COUNT(*) AS n FROM people GROUP BY home.zip;
CREATE MATERIALIZED VIEW homes AS SELECT id, home FROM people;`;

let svc: Svc;
let info: any;
beforeAll(async () => {
  svc = await startSvc();
  info = (await createCompiled(svc, 'rows', SQL)).program_info;
  await startRunning(svc, 'rows');
});
afterAll(async () => {
  await svc?.close();
});

describe('ROW types in a pipeline', () => {
  it('program_info describes the ROW columns as STRUCTs with their fields, nested in ARRAY and MAP', () => {
    const fields = info.schema.inputs[0].fields;
    const address = {
      type: 'STRUCT',
      nullable: true,
      fields: [
        { name: 'STREET', case_sensitive: false, columntype: { type: 'VARCHAR', nullable: true } },
        { name: 'ZIP', case_sensitive: false, columntype: { type: 'INTEGER', nullable: false } },
      ],
    };
    expect(fields[1]).toEqual({ name: 'HOME', case_sensitive: false, columntype: address });
    expect(fields[2].columntype).toEqual({ type: 'ARRAY', nullable: true, component: address });
    expect(fields[3].columntype.value).toEqual({
      type: 'STRUCT',
      nullable: true,
      fields: [
        { name: 'N', case_sensitive: false, columntype: { type: 'INTEGER', nullable: true } },
        { name: 'Note', case_sensitive: true, columntype: { type: 'VARCHAR', nullable: true } },
      ],
    });
  });

  it('JSON and CSV in; watch, snapshot and ad-hoc query out; bad values are ParseErrors naming the field', async () => {
    const watch = await WatchReader.open(svc, 'rows', 'homes', 'format=json');
    const json = [
      { insert: { id: 1, home: { street: 'Main', zip: 10 }, past: [{ street: 'Old', zip: 9 }], tags: { a: { n: 1, Note: 'x' } } } },
      { insert: { id: 2, home: null } },
      { insert: { id: 3, home: { zip: 10 } } },
    ];
    const r = await ingest(svc, 'rows', 'people', 'format=json', json.map((e) => JSON.stringify(e)).join('\n'));
    expect(r.status, r.text).toBe(200);
    const csv = await ingest(svc, 'rows', 'people', 'format=csv', '4,"{""street"":""Elm"",""zip"":20}",,\n');
    expect(csv.status, csv.text).toBe(200);
    await watch.until((w) => w.items().length === 4, 'the two steps on the watch stream');
    expect(watch.items()).toEqual([
      { insert: { ID: 1, HOME: { STREET: 'Main', ZIP: 10 } } },
      { insert: { ID: 2, HOME: null } },
      { insert: { ID: 3, HOME: { STREET: null, ZIP: 10 } } },
      { insert: { ID: 4, HOME: { STREET: 'Elm', ZIP: 20 } } },
    ]);
    watch.close();
    const people = (await snapshot(svc, 'rows', 'people')).json_data.map((d: { insert: unknown }) => d.insert);
    expect(people[0]).toEqual({ ID: 1, HOME: { STREET: 'Main', ZIP: 10 }, PAST: [{ STREET: 'Old', ZIP: 9 }], TAGS: { a: { N: 1, Note: 'x' } } });
    expect((await snapshot(svc, 'rows', 'by_zip')).json_data.map((d: { insert: unknown }) => d.insert)).toEqual([
      { ZIP: null, N: 1 },
      { ZIP: 10, N: 2 },
      { ZIP: 20, N: 1 },
    ]);
    const q = await svc.call('GET', `/v0/pipelines/rows/query?sql=${encodeURIComponent('SELECT id, home.street AS s FROM people WHERE home.zip = 10 ORDER BY id')}&format=json`);
    expect(q.status, q.text).toBe(200);
    expect(q.text).toBe('{"ID":1,"S":"Main"}\n{"ID":3,"S":null}\n');

    const bad = await ingest(svc, 'rows', 'people', 'format=json', '{"insert": {"id": 5, "home": {"street": "x"}}}\n{"insert": {"id": 6, "home": "Main St"}}');
    expect(bad.status, bad.text).toBe(400);
    expect(bad.json.details.errors.map((e: { field: string; description: string }) => [e.field, e.description])).toEqual([
      ['HOME', "failed to deserialize JSON record: error parsing field 'HOME': invalid type: null, expected i32 for the NOT NULL field `ZIP`"],
      ['HOME', 'failed to deserialize JSON record: error parsing field \'HOME\': invalid type: string "Main St", expected a row (an object of its fields)'],
    ]);
  });
});
