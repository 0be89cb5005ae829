/**
 * Feldera's FROM-clause and predicate constructs through `ops serve`'s pipeline API (in-process, the SQL
 * compiled in the compiler worker, the pipeline run in its worker): UNNEST WITH ORDINALITY, LATERAL, PIVOT,
 * SESSION, BETWEEN SYMMETRIC, a period predicate, XXHASH and a CONNECTOR_METADATA default, answered by
 * snapshots, the ad-hoc query endpoint, and following deletes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bag, createCompiled, ingest, snapshot, startRunning, startSvc, type Svc } from './helpers.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc({ outputCase: 'lower' });
  await createCompiled(
    svc,
    'surface',
    `create table orders(id int not null primary key, product varchar, at timestamp, tags varchar array,
       src varchar default cast(connector_metadata()['topic'] as varchar)) with ('materialized' = 'true');
     create materialized view tags as select o.id, tag, n from orders as o, unnest(o.tags) with ordinality as u (tag, n);
     create materialized view same_product as select o.id, q.other from orders as o,
       lateral (select p.id as other from orders as p where p.product = o.product and p.id <> o.id) as q;
     create materialized view pivoted as select * from (select id, product from orders) pivot (count(*) as n for product in ('a' as a, 'b' as b));
     create materialized view sessions as select id, window_start, window_end from table(session(table orders, descriptor(at), interval '10' minute));
     create materialized view preds as select id, id between symmetric 3 and 1 as low,
       (at, interval '1' hour) contains timestamp '2024-05-01 10:30:00' as morning, xxhash(product, 2) as h, cast(xxhash(product, 2) as varchar) as hs, src from orders;`,
  );
  await startRunning(svc, 'surface');
}, 120_000);
afterAll(async () => {
  await svc?.close();
});

const rows = async (rel: string): Promise<Array<Record<string, unknown>>> => bag(((await snapshot(svc, 'surface', rel)).json_data ?? []).map((x: any) => x.insert ?? x));
const lower = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toLowerCase(), v]));

describe('FROM-clause and predicate constructs through the pipeline service', () => {
  it('answers snapshots and follows deletes', async () => {
    const body = [
      { id: 1, product: 'a', at: '2024-05-01 10:00:00', tags: ['x', 'y'] },
      { id: 2, product: 'a', at: '2024-05-01 10:05:00', tags: null },
      { id: 3, product: 'b', at: '2024-05-01 10:30:00', tags: ['z'] },
    ]
      .map((r) => JSON.stringify({ insert: r }))
      .join('\n');
    const r = await ingest(svc, 'surface', 'orders', 'format=json', body);
    expect(r.status, r.text).toBe(200);
    await expect
      .poll(async () => (await rows('tags')).map(lower))
      .toEqual(
        bag([
          { id: 1, tag: 'x', n: 1 },
          { id: 1, tag: 'y', n: 2 },
          { id: 3, tag: 'z', n: 1 },
        ]),
      );
    expect((await rows('same_product')).map(lower)).toEqual(
      bag([
        { id: 1, other: 2 },
        { id: 2, other: 1 },
      ]),
    );
    expect((await rows('pivoted')).map(lower)).toEqual(
      bag([
        { id: 1, a_n: 1, b_n: 0 },
        { id: 2, a_n: 1, b_n: 0 },
        { id: 3, a_n: 0, b_n: 1 },
      ]),
    );
    expect((await rows('sessions')).map(lower)).toEqual(
      bag([
        { id: 1, window_start: '2024-05-01 10:00:00', window_end: '2024-05-01 10:15:00' },
        { id: 2, window_start: '2024-05-01 10:00:00', window_end: '2024-05-01 10:15:00' },
        { id: 3, window_start: '2024-05-01 10:30:00', window_end: '2024-05-01 10:40:00' },
      ]),
    );
    const preds = (await rows('preds')).map(lower).sort((a, b) => (a.id as number) - (b.id as number));
    expect(preds.map((p) => [p.id, p.low, p.morning, p.src])).toEqual([
      [1, true, true, null],
      [2, true, true, null],
      [3, true, true, null],
    ]);
    // XXHASH's BIGINT values are mostly beyond 2^53: exact 64-bit integers in the engine, digit-exact in JSON
    expect(preds[0]!.hs).toMatch(/^-?\d+$/);
    expect(preds[0]!.hs).toBe(preds[1]!.hs);
    expect(preds[0]!.hs).not.toBe(preds[2]!.hs);
    const snap = await svc.call('GET', `/v0/pipelines/surface/query?sql=${encodeURIComponent('SELECT h, hs FROM preds WHERE id = 1')}&format=json`);
    expect(snap.status, snap.text).toBe(200);
    expect(snap.text).toMatch(new RegExp(`"h":${preds[0]!.hs},`, 'i'));
    // the ad-hoc query endpoint speaks the same SQL, over the current contents
    const adhoc = await svc.call(
      'GET',
      `/v0/pipelines/surface/query?sql=${encodeURIComponent("SELECT o.id, tag FROM orders AS o CROSS JOIN UNNEST(o.tags) AS tag WHERE tag BETWEEN SYMMETRIC 'y' AND 'x'")}&format=json`,
    );
    expect(adhoc.status, adhoc.text).toBe(200);
    expect(
      bag(
        adhoc.text
          .trim()
          .split('\n')
          .map((l) => lower(JSON.parse(l))),
      ),
    ).toEqual(
      bag([
        { id: 1, tag: 'x' },
        { id: 1, tag: 'y' },
      ]),
    );
    const del = await ingest(svc, 'surface', 'orders', 'format=json', JSON.stringify({ delete: { id: 2 } }));
    expect(del.status, del.text).toBe(200);
    await expect.poll(async () => (await rows('same_product')).map(lower)).toEqual([]);
    expect((await rows('sessions')).map(lower)).toContainEqual({ id: 1, window_start: '2024-05-01 10:00:00', window_end: '2024-05-01 10:10:00' });
  });
});
