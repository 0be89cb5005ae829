/**
 * Feldera's aggregates, functions and MAP/VARIANT/VARBINARY columns through `ops serve`'s pipeline API
 * (in-process): program_info describes the new types in Feldera's shape, JSON and CSV ingress accept them, and
 * views with the new aggregates answer snapshots and follow deletes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bag, createCompiled, ingest, snapshot, startRunning, startSvc, type Svc } from './helpers.js';

let svc: Svc;
let info: any;
beforeAll(async () => {
  svc = await startSvc();
  const p = await createCompiled(
    svc,
    'fsql',
    `create table t(id int not null primary key, g int, v int, s varchar, m map<varchar, int>, j variant, b varbinary) with ('materialized' = 'true');
     create materialized view aggs as select g, arg_max(s, v) as am, array_agg(v order by v desc) as av, stddev_pop(v) as sp,
       mode(s) as mo, bit_or(v) as bo, countif(v > 1) as ci from t group by g;
     create materialized view rolled as select g, count(*) as c, grouping(g) as gg from t group by rollup(g);
     create materialized view fns as select id, map_keys(m) as mk, m['x'] as mx, typeof(j) as tj, to_json(j['k']) as jk, to_hex(b) as hb,
       len(s) as l, concat_ws('-', s, 'z') as cw, timestampdiff(day, date '2024-01-01', date '2024-03-01') as td from t;`,
  );
  info = p.program_info;
  await startRunning(svc, 'fsql');
});
afterAll(async () => {
  await svc?.close();
});

describe('Feldera SQL through the pipeline service', () => {
  it('program_info describes MAP, VARIANT and VARBINARY columns', () => {
    const cols = (info.schema.inputs as any[]).find((r) => r.name.toLowerCase() === 't').fields as any[];
    const by = (n: string): any => cols.find((c) => c.name.toLowerCase() === n).columntype;
    expect(by('m')).toMatchObject({ type: 'MAP', key: { type: 'VARCHAR' }, value: { type: 'INTEGER' } });
    expect(by('j')).toMatchObject({ type: 'VARIANT' });
    expect(by('b')).toMatchObject({ type: 'VARBINARY' });
  });

  it('ingests JSON and CSV rows with the new types and answers the views; deletes retract', async () => {
    const json = ['{"insert":{"id":1,"g":1,"v":3,"s":"a","m":{"x":1,"y":2},"j":{"k":[1,2]},"b":[1,2]}}', '{"insert":{"id":2,"g":1,"v":5,"s":"b","m":{},"j":"str","b":"ff00"}}'].join('\n');
    const r1 = await ingest(svc, 'fsql', 't', 'format=json', json);
    expect(r1.status, r1.text).toBe(200);
    const r2 = await ingest(svc, 'fsql', 't', 'format=csv', '3,2,2,a,"{""x"": 7}",,\n');
    expect(r2.status, r2.text).toBe(200);
    const rows = async (rel: string): Promise<any[]> => bag(((await snapshot(svc, 'fsql', rel)).json_data ?? []).map((x: any) => x.insert ?? x));
    const upper = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toUpperCase(), v]));
    await expect
      .poll(async () => (await rows('aggs')).map(upper))
      .toEqual(
        bag([
          { G: 1, AM: 'b', AV: [5, 3], SP: 1, MO: 'a', BO: 7, CI: 2 },
          { G: 2, AM: 'a', AV: [2], SP: 0, MO: 'a', BO: 2, CI: 1 },
        ]),
      );
    expect((await rows('rolled')).map(upper)).toEqual(
      bag([
        { G: 1, C: 2, GG: 0 },
        { G: 2, C: 1, GG: 0 },
        { G: null, C: 3, GG: 1 },
      ]),
    );
    const fns = (await rows('fns')).map(upper).sort((a, b) => (a.ID as number) - (b.ID as number));
    expect(fns[0]).toEqual({ ID: 1, MK: ['x', 'y'], MX: 1, TJ: 'MAP', JK: '[1,2]', HB: '0102', L: 1, CW: 'a-z', TD: 60 });
    expect(fns[1]).toMatchObject({ ID: 2, MK: [], MX: null, TJ: 'VARCHAR', JK: null, HB: 'ff00' });
    expect(fns[2]).toMatchObject({ ID: 3, MK: ['x'], MX: 7, TJ: 'NULL', HB: null }); // TYPEOF of a SQL NULL is 'NULL', as Feldera's
    const del = await ingest(svc, 'fsql', 't', 'format=json', '{"delete":{"id":2}}');
    expect(del.status, del.text).toBe(200);
    await expect.poll(async () => (await rows('aggs')).map(upper).find((x) => x.G === 1)).toEqual({ G: 1, AM: 'a', AV: [3], SP: 0, MO: 'a', BO: 3, CI: 1 });
  });

  it('a value that does not fit a MAP column is a ParseError with its field', async () => {
    const r = await ingest(svc, 'fsql', 't', 'format=json', '{"insert":{"id":9,"m":[1]}}');
    expect(r.status, r.text).toBe(400);
    expect(JSON.stringify(r.json)).toMatch(/expected a map/);
  });
});
