/**
 * A row that leaves a column out takes the column's DEFAULT (Feldera: DEFAULT column values apply to input
 * that does not give the column), on every JSON path: the byte-level fast path (one-line raw rows, arrays),
 * the general path (insert_delete, a line the fast path gives up on) and the engine's own row form; an
 * explicit null is NULL, a NOT NULL column without a DEFAULT still refuses the row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, startRunning, startSvc, type Svc } from './helpers.js';
import { compile } from '../../../src/engine/index.js';

const SQL = `CREATE TABLE t (
  id INT NOT NULL,
  n INT DEFAULT 42,
  s VARCHAR NOT NULL DEFAULT 'zz',
  d DECIMAL(6,2) DEFAULT 1.5 + 2,
  plain VARCHAR
) WITH ('materialized' = 'true');`;

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc({ outputCase: 'lower' });
  await createCompiled(svc, 'dflt', SQL);
  await startRunning(svc, 'dflt');
});
afterAll(async () => {
  await svc?.close();
});

async function rows(): Promise<Record<string, unknown>[]> {
  const r = await svc.call('GET', `/v0/pipelines/dflt/query?sql=${encodeURIComponent('SELECT * FROM t ORDER BY id')}&format=json`);
  expect(r.status, r.text).toBe(200);
  return r.text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe('ingress: a column left out takes its DEFAULT', () => {
  it('on the fast path, the array form, the general path and a line the fast path gives up on; an explicit null stays NULL', async () => {
    const sent = [
      ['format=json&update_format=raw', '{"id":1}'],
      ['format=json&update_format=raw&array=true', '[{"id":2,"plain":"p"},{"id":3,"n":null,"s":"given"}]'],
      ['format=json', '{"insert":{"id":4}}'],
      // non-ASCII text: the fast path hands the line to the general path
      ['format=json&update_format=raw', '{"id":5,"plain":"é"}'],
      ['format=json&update_format=raw', '{"id":6,"d":null,"n":7}'],
    ];
    for (const [q, body] of sent) {
      const r = await ingest(svc, 'dflt', 't', q!, body!);
      expect(r.status, `${q} ${body} ${r.text}`).toBe(200);
    }
    expect(await rows()).toEqual([
      { id: 1, n: 42, s: 'zz', d: '3.50', plain: null },
      { id: 2, n: 42, s: 'zz', d: '3.50', plain: 'p' },
      { id: 3, n: null, s: 'given', d: '3.50', plain: null },
      { id: 4, n: 42, s: 'zz', d: '3.50', plain: null },
      { id: 5, n: 42, s: 'zz', d: '3.50', plain: 'é' },
      { id: 6, n: 7, s: 'zz', d: null, plain: null },
    ]);
  });

  it('a NOT NULL column without a DEFAULT still refuses a row that leaves it out; an explicit null for a NOT NULL DEFAULT column is refused', async () => {
    const missingId = await ingest(svc, 'dflt', 't', 'format=json&update_format=raw', '{"n":1}');
    expect(missingId.status).toBe(400);
    expect(missingId.json.details.errors[0]).toMatchObject({ field: 'id', description: expect.stringContaining('missing field `id`') });
    const nullS = await ingest(svc, 'dflt', 't', 'format=json&update_format=raw', '{"id":9,"s":null}');
    expect(nullS.status).toBe(400);
    expect(nullS.json.details.errors[0].field).toBe('s');
    expect((await rows()).map((r) => r.id)).not.toContain(9);
  });

  it("the engine's codec says what a missing column takes: the DEFAULT in its JSON form, or nothing", () => {
    const r = compile(SQL, { outputCase: 'lower' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const cols = r.program.inputCodec('t')!.columns;
    expect(cols.map((c) => [c.name, c.missing])).toEqual([
      ['id', null],
      ['n', { value: 42 }],
      ['s', { value: 'zz' }],
      ['d', { value: '3.50' }],
      ['plain', null],
    ]);
    // a default read back by the column's own reader is the same value
    for (const c of cols) if (c.missing) expect(c.fromJson(c.missing.value)).toEqual(c.missing.value);
  });
});
