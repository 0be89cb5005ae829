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

  it('the routes that read their own query before (issue 35 item 2) list every parameter their declaration checks', async () => {
    const doc = (await f.req(f.A, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: Record<string, unknown> }[] }>> };
    const query = (path: string, method = 'get') => Object.fromEntries(doc.paths[path]![method]!.parameters!.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
    const names = (path: string, method?: string) => Object.keys(query(path, method)).sort();
    expect(names('/api/v2/search/links')).toEqual(
      ['page', 'per_page', 'query', 'search_title', 'search_description', 'visibility', 'broken_only', 'empty_lists', 'only_lists', 'empty_tags', 'only_tags', 'order_by'].sort(),
    );
    expect(names('/api/v1/links')).toEqual(['page', 'per_page', 'query', 'tags', 'only_tags', 'lists', 'only_lists', 'is_private', 'order_by', 'order_dir'].sort());
    expect(names('/api/v1/search/links')).toEqual(
      [
        'page',
        'per_page',
        'query',
        'search_title',
        'search_description',
        'private_only',
        'broken_only',
        'empty_lists',
        'empty_tags',
        'only_lists',
        'only_tags',
        'tags',
        'lists',
        'is_private',
        'order_by',
        'order_dir',
      ].sort(),
    );
    expect(names('/api/v1/lists')).toEqual(['order_by', 'order_dir', 'page', 'per_page']);
    expect(names('/api/v1/links/{id}/notes')).toEqual(['page', 'per_page']);
    expect(names('/api/v1/export')).toEqual(['format']);
    expect(names('/api/v1/import', 'post')).toEqual(['dry_run']);
    expect(names('/api/v2/links/check')).toEqual(['id', 'url']);
    expect(names('/api/v1/links/check')).toEqual(['url']);
    expect(names('/api/v2/search/tags')).toEqual(['query']);
    // what the checks enforce
    expect(query('/api/v2/search/links').query).toMatchObject({ type: 'string', maxLength: 2048 });
    expect(query('/api/v2/search/links').broken_only).toMatchObject({ type: 'boolean', default: false });
    expect(query('/api/v2/links/check').id).toMatchObject({ type: 'integer', minimum: 1 });
    expect(query('/api/v1/tags').order_by).toMatchObject({ enum: ['id', 'name', 'is_private', 'created_at', 'updated_at'], default: 'created_at' });
    expect(query('/api/v1/search/links').order_by).toMatchObject({ enum: expect.arrayContaining(['title:asc', 'random', 'is_private']) });
    expect(query('/api/v1/export').format).toMatchObject({ enum: ['html', 'json'], default: 'html' });
  });
});
