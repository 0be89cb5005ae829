/**
 * The SQL surface of issue 31 item 3 through `ops serve`'s pipeline API (in-process): UNSIGNED columns named as
 * Feldera's program_info names them (UTINYINT ... UBIGINT), JSON ingress over the whole u64 range and its refusal
 * text, exact egress (the snapshot's text keeps every digit), MAP<INT, VARCHAR> read from JSON objects, and an
 * interval text computed by `(a - b) UNIT` answered by an ad-hoc query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, startRunning, startSvc, type Svc } from './helpers.js';

let svc: Svc;
let info: any;
beforeAll(async () => {
  svc = await startSvc();
  const p = await createCompiled(
    svc,
    'usql',
    `create table t(id int not null primary key, a tinyint unsigned, d bigint unsigned, m map<int, varchar>, c1 timestamp, c2 timestamp) with ('materialized' = 'true');
     create local view diffs as select id, (c1 - c2) day to minute as dtm from t;
     create materialized view v as select id, a + a as aa, d, m[10] as ten, cast(dtm as varchar) as dtm from t join diffs using (id);`,
  );
  info = p.program_info;
  await startRunning(svc, 'usql');
});
afterAll(async () => {
  await svc?.close();
});

describe('UNSIGNED types, integer MAP keys and interval texts through the pipeline service', () => {
  it('program_info names the unsigned column types as Feldera does', () => {
    const cols = (info.schema.inputs as any[]).find((r) => r.name.toLowerCase() === 't').fields as any[];
    const by = (n: string): any => cols.find((c) => c.name.toLowerCase() === n).columntype;
    expect(by('a')).toMatchObject({ type: 'UTINYINT' });
    expect(by('d')).toMatchObject({ type: 'UBIGINT' });
    expect(by('m')).toMatchObject({ type: 'MAP', key: { type: 'INTEGER' }, value: { type: 'VARCHAR' } });
  });

  it('ingests the whole u64 range exactly, refuses what does not fit, and answers the view', async () => {
    const r1 = await ingest(svc, 'usql', 't', 'format=json', '{"insert":{"id":1,"a":100,"d":18446744073709551615,"m":{"10":"ten","-3":"x"},"c1":"2019-12-05 08:27:00","c2":"2014-11-05 12:45:00"}}');
    expect(r1.status, r1.text).toBe(200);
    const bad = await ingest(svc, 'usql', 't', 'format=json', '{"insert":{"id":2,"a":256}}');
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/expected u8/);
    const query = async (): Promise<string> => (await svc.call('GET', `/v0/pipelines/usql/query?sql=${encodeURIComponent('SELECT * FROM v')}&format=json`)).text;
    await expect.poll(query).toMatch(/"d":18446744073709551615/i);
    const text = await query();
    expect(text).toMatch(/"aa":200/i);
    expect(text).toMatch(/"ten":"ten"/i);
    expect(text).toMatch(/"dtm":"\+1855 19:42"/i);
  });
});
