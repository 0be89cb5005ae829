/**
 * CSV rows whose field count is not the table's, as Feldera's CSV parser takes them: fields beyond the
 * columns are ignored; a row with fewer fields is refused (400 ParseErrors naming its event, line and
 * "invalid length K, expected N columns"), on tables with and without DEFAULTs alike (a DEFAULT fills a
 * column left out of a JSON object, never a CSV field), and nothing of the request is applied.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, startRunning, startSvc, type Svc } from './helpers.js';

const SQL = `CREATE TABLE plain (id INT NOT NULL, name VARCHAR, qty INT) WITH ('materialized' = 'true');
CREATE TABLE dflt (id INT NOT NULL, name VARCHAR DEFAULT 'none', qty INT NOT NULL DEFAULT 7) WITH ('materialized' = 'true');`;

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc({ outputCase: 'lower' });
  await createCompiled(svc, 'csvf', SQL);
  await startRunning(svc, 'csvf');
});
afterAll(async () => {
  await svc?.close();
});

async function rows(table: string): Promise<Record<string, unknown>[]> {
  const r = await svc.call('GET', `/v0/pipelines/csvf/query?sql=${encodeURIComponent(`SELECT * FROM ${table} ORDER BY id`)}&format=json`);
  expect(r.status, r.text).toBe(200);
  return r.text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe('CSV rows with too many or too few fields', () => {
  for (const table of ['plain', 'dflt']) {
    it(`${table}: fields beyond the columns are ignored`, async () => {
      const r = await ingest(svc, 'csvf', table, 'format=csv', '1,a,10,extra\n2,b,20,"x,y",\n3,,30,\n');
      expect(r.status, r.text).toBe(200);
      expect(await rows(table)).toEqual([
        { id: 1, name: 'a', qty: 10 },
        { id: 2, name: 'b', qty: 20 },
        { id: 3, name: null, qty: 30 },
      ]);
    });

    it(`${table}: a row with fewer fields is refused with Feldera's message, nothing of the request applied`, async () => {
      const r = await ingest(svc, 'csvf', table, 'format=csv', '4,d,40\n5,e\n6,f,60\n7\n');
      expect(r.status).toBe(400);
      expect(r.json.error_code).toBe('ParseErrors');
      expect(r.json.details.num_errors).toBe(2);
      expect(r.json.details.errors).toEqual([
        {
          description: 'failed to deserialize CSV record: invalid length 2, expected 3 columns',
          event_number: 2,
          line: 2,
          field: null,
          invalid_bytes: null,
          invalid_text: '5,e\n',
          suggestion: null,
        },
        {
          description: 'failed to deserialize CSV record: invalid length 1, expected 3 columns',
          event_number: 4,
          line: 4,
          field: null,
          invalid_bytes: null,
          invalid_text: '7\n',
          suggestion: null,
        },
      ]);
      expect(r.json.message).toContain('invalid length 2, expected 3 columns');
      // the good rows of the request were not applied either
      expect((await rows(table)).map((row) => row.id)).toEqual([1, 2, 3]);
    });
  }

  it('the DEFAULTs fill columns a JSON object leaves out, not CSV fields: an empty field is NULL, a missing one refused', async () => {
    const json = await ingest(svc, 'csvf', 'dflt', 'format=json&update_format=raw', '{"id": 8}');
    expect(json.status, json.text).toBe(200);
    // an empty field in a column with a DEFAULT: NULL, as in any other column
    const empty = await ingest(svc, 'csvf', 'dflt', 'format=csv', '9,,11\n');
    expect(empty.status, empty.text).toBe(200);
    const short = await ingest(svc, 'csvf', 'dflt', 'format=csv', '10\n');
    expect(short.status).toBe(400);
    expect(short.json.details.errors[0].description).toBe('failed to deserialize CSV record: invalid length 1, expected 3 columns');
    expect((await rows('dflt')).filter((row) => (row.id as number) >= 8)).toEqual([
      { id: 8, name: 'none', qty: 7 },
      { id: 9, name: null, qty: 11 },
    ]);
    const stats = (await svc.call('GET', '/v0/pipelines/csvf/stats')).json;
    expect(stats.inputs.find((i: any) => i.endpoint_name === 'api-ingress-dflt').metrics.num_parse_errors).toBe(3);
  });
});

describe('JSON rows given as arrays read as Feldera reads a row from a sequence', () => {
  it('elements past the last column are ignored; a shorter array is refused (no DEFAULT fills it), nothing applied', async () => {
    const ok = await ingest(svc, 'csvf', 'dflt', 'format=json&update_format=raw', '[100, "p", 1, "extra", 9]\n[101, null, 2]\n');
    expect(ok.status, ok.text).toBe(200);
    const bad = await ingest(svc, 'csvf', 'dflt', 'format=json&update_format=raw', '[102, "q", 3]\n[103, "r"]\n');
    expect(bad.status).toBe(400);
    expect(bad.json.details.num_errors).toBe(1);
    expect(bad.json.details.errors[0]).toMatchObject({ event_number: 2, line: 2 });
    expect(bad.json.details.errors[0].description).toContain('invalid length 2, expected 3 columns');
    const got = (await rows('dflt')).filter((r) => (r.id as number) >= 100);
    expect(got).toEqual([
      { id: 100, name: 'p', qty: 1 },
      { id: 101, name: null, qty: 2 },
    ]);
  });
});
