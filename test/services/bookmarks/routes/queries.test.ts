/**
 * bookmarks/routes/queries.ts: the paged lists' declared queries read page and per_page as LinkAce does, and the
 * same declarations are the routes' parameters in openapi.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type Fixture } from '../helpers.js';

let f: Fixture;
let listId: number;
beforeAll(async () => {
  f = await setup();
  listId = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'reading' })).body.id;
  for (let i = 0; i < 3; i++) await f.req(f.A, 'POST', '/api/v2/links', { url: `https://q${i}.example`, lists: [listId] });
});
afterAll(async () => {
  await f.close();
});

describe('paged list queries', () => {
  it('v1 links of a list: per_page capped at 100 and never refused, a bad page is page 1', async () => {
    const big = await f.req(f.A, 'GET', `/api/v1/lists/${listId}/links?per_page=500&page=abc`);
    expect(big.status).toBe(200);
    expect([big.body.per_page, big.body.current_page, big.body.data.length]).toEqual(['100', 1, 3]);
    const two = await f.req(f.A, 'GET', `/api/v1/lists/${listId}/links?per_page=2&page=2`);
    expect([two.body.per_page, two.body.current_page, two.body.data.length]).toEqual(['2', 2, 1]);
  });

  it('v2: per_page -1 is every row, order_by/order_dir sort', async () => {
    const all = await f.req(f.A, 'GET', `/api/v2/lists/${listId}/links?per_page=-1&order_by=url&order_dir=asc`);
    expect(all.body.data.map((l: { url: string }) => l.url)).toEqual(['https://q0.example', 'https://q1.example', 'https://q2.example']);
    expect(all.body.last_page).toBe(1);
  });

  it('openapi.json lists each declared parameter with what its check enforces', async () => {
    const doc = (await f.req(f.A, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: Record<string, unknown> }[] }>> };
    const params = Object.fromEntries(doc.paths['/api/v2/links/{id}/notes']!.get!.parameters!.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
    expect(Object.keys(params)).toEqual(['page', 'per_page', 'order_by', 'order_dir']);
    expect(params.order_by).toMatchObject({ enum: ['id', 'note', 'visibility', 'created_at', 'updated_at'], default: 'created_at' });
    expect(params.order_dir).toMatchObject({ enum: ['asc', 'desc'], default: 'desc' });
    expect(params.per_page).toMatchObject({ type: 'integer', default: 25 });
  });
});
