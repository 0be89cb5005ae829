import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

let f: Fixture;
const id: Record<string, number> = {};
beforeAll(async () => {
  f = await setup();
  const list = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'reading' })).body.id;
  const list2 = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'later' })).body.id;
  const tag = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 'programming' })).body.id;
  const tag2 = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 'programming-books' })).body.id;
  Object.assign(id, { list, list2, tag, tag2 });
  const mk = async (k: string, body: object) => (id[k] = (await f.req(f.A, 'POST', '/api/v2/links', body)).body.id);
  await mk('rust', { url: 'https://rust-lang.org', title: 'Rust Language', description: 'Systems programming', tags: [tag], lists: [list] });
  await mk('node', { url: 'https://nodejs.org', title: 'Node 100%_done', description: 'JavaScript runtime', tags: [tag2], visibility: 1 });
  await mk('news', { url: 'https://news.example', title: 'Daily News', description: null, lists: [list2], visibility: 2 });
  await mk('plain', { url: 'https://plain.example/RUST', title: 'Plain' });
  const { openDb } = await import('../../../src/services/bookmarks/store/db.js');
  const db = openDb(f.sa.dataDir + '/bookmarks');
  db.prepare('UPDATE links SET status = 3 WHERE id = ?').run(id.news);
  db.prepare('UPDATE links SET status = 2 WHERE id = ?').run(id.plain);
  db.close();
});
afterAll(async () => {
  await f.close();
});

const ids = (r: any) => r.body.data.map((l: any) => l.id);

describe('search/links', () => {
  test('query matches the URL, case-insensitively; title and description only when asked', async () => {
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?query=rust'))).toEqual([id.rust, id.plain]);
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?query=language'))).toEqual([]);
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?query=language&search_title=1'))).toEqual([id.rust]);
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?query=runtime&search_title=true'))).toEqual([]);
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?query=runtime&search_description=1'))).toEqual([id.node]);
  });

  test('% and _ in the query are literal', async () => {
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?query=100%25_&search_title=1'))).toEqual([id.node]);
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?query=%25&search_title=0'))).toEqual([]);
  });

  test('result items carry their tags', async () => {
    const r = await f.req(f.A, 'GET', '/api/v2/search/links?query=rust-lang');
    expect(r.body.data[0].tags.map((t: any) => t.name)).toEqual(['programming']);
    expect(r.body.data[0].lists).toBeUndefined();
  });

  test('filters: visibility, broken_only, only_lists/only_tags (any of), empty_lists/empty_tags', async () => {
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?query=.&visibility=1'))).toEqual([id.node]);
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?broken_only=1'))).toEqual([id.news, id.plain]);
    expect(ids(await f.req(f.A, 'GET', `/api/v2/search/links?only_lists=${id.list},${id.list2}`))).toEqual([id.rust, id.news]);
    expect(ids(await f.req(f.A, 'GET', `/api/v2/search/links?only_tags=${id.tag2}`))).toEqual([id.node]);
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?empty_lists=1'))).toEqual([id.node, id.plain]);
    expect(ids(await f.req(f.A, 'GET', `/api/v2/search/links?empty_lists=1&only_lists=${id.list}`))).toEqual([id.node, id.plain]);
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?empty_tags=1'))).toEqual([id.news, id.plain]);
    expect(ids(await f.req(f.A, 'GET', `/api/v2/search/links?query=nodejs&only_tags=${id.tag}`))).toEqual([]);
  });

  test('order_by values', async () => {
    const q = '/api/v2/search/links?query=.&order_by=';
    expect(ids(await f.req(f.A, 'GET', q + 'title:asc'))).toEqual([id.news, id.node, id.plain, id.rust]);
    expect(ids(await f.req(f.A, 'GET', q + 'title:desc'))).toEqual([id.rust, id.plain, id.node, id.news]);
    expect(ids(await f.req(f.A, 'GET', q + 'url:asc'))).toEqual([id.news, id.node, id.plain, id.rust]);
    expect(ids(await f.req(f.A, 'GET', q + 'url:desc'))).toEqual([id.rust, id.plain, id.node, id.news]);
    expect(ids(await f.req(f.A, 'GET', q + 'created_at:asc'))).toEqual([id.rust, id.node, id.news, id.plain]);
    expect(ids(await f.req(f.A, 'GET', q + 'created_at:desc'))).toEqual([id.plain, id.news, id.node, id.rust]);
    expect(ids(await f.req(f.A, 'GET', q + 'random')).sort()).toEqual([id.rust, id.node, id.news, id.plain].sort());
    expect(ids(await f.req(f.A, 'GET', '/api/v2/search/links?query=.'))).toEqual([id.rust, id.node, id.news, id.plain]);
  });

  test('paginated like every list', async () => {
    const r = await f.req(f.A, 'GET', '/api/v2/search/links?query=.&per_page=3&page=2&order_by=url:asc');
    expect(ids(r)).toEqual([id.rust]);
    expect(r.body.meta).toMatchObject({ total: 4, current_page: 2, last_page: 2, from: 4, to: 4 });
    expect(r.body.links.prev).toContain('order_by=url%3Aasc');
    const past = await f.req(f.A, 'GET', '/api/v2/search/links?query=.&per_page=3&page=5');
    expect(past.body.meta.total).toBe(4);
  });
});

describe('search/tags and search/lists', () => {
  test('an {id: name} map by name, [] without a query or a match', async () => {
    expect((await f.req(f.A, 'GET', '/api/v2/search/tags?query=program')).body).toEqual({ [id.tag!]: 'programming', [id.tag2!]: 'programming-books' });
    expect((await f.req(f.A, 'GET', '/api/v2/search/tags?query=books')).body).toEqual({ [id.tag2!]: 'programming-books' });
    expect((await f.req(f.A, 'GET', '/api/v2/search/tags')).body).toEqual([]);
    expect((await f.req(f.A, 'GET', '/api/v2/search/tags?query=zzz')).body).toEqual([]);
    expect((await f.req(f.A, 'GET', '/api/v2/search/lists?query=EAD')).body).toEqual({ [id.list!]: 'reading' });
  });
});
