/**
 * Other people's LinkAce clients against our server, in-process (issue 15): for each point, the exact request a
 * named client sends and the fields it reads. The requests are written from the clients' documented behaviour
 * (linkace-cli, the official Zapier app, magic-drop, the browser extensions), not from their code.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { setup, type Fixture, type Res } from './helpers.js';

let f: Fixture;
beforeEach(async () => {
  f = await setup();
});
afterEach(async () => {
  await f.close();
});

/** A path (with query) from an absolute page URL the server handed out. */
const pathOf = (u: string) => {
  const url = new URL(u);
  return url.pathname + url.search;
};

/** linkace-cli's page loop: load the first page, then follow next_page_url until it is null. */
async function cliAllPages(token: string, first: string): Promise<{ pages: Res[]; items: any[] }> {
  const pages: Res[] = [];
  let r = await f.req(token, 'GET', first);
  pages.push(r);
  while (r.body.next_page_url) {
    r = await f.req(token, 'GET', pathOf(r.body.next_page_url));
    pages.push(r);
    expect(pages.length).toBeLessThan(50);
  }
  return { pages, items: pages.flatMap((p) => p.body.data) };
}

/** The fields linkace-cli's pagination schema reads, with the types it checks (per_page a string). */
function expectCliPage(r: Res, path: string) {
  expect(r.status).toBe(200);
  const b = r.body;
  expect(typeof b.current_page).toBe('number');
  expect(Array.isArray(b.data)).toBe(true);
  expect(b.first_page_url.startsWith(`http://localhost:80${path}?`)).toBe(true);
  expect(b.first_page_url).toContain('page=1');
  expect(typeof b.last_page).toBe('number');
  expect(b.last_page_url).toContain(`page=${b.last_page}`);
  expect(b.path).toBe(`http://localhost:80${path}`);
  expect(typeof b.per_page).toBe('string');
  expect(typeof b.total).toBe('number');
  expect(b).toHaveProperty('next_page_url');
  expect(b).toHaveProperty('prev_page_url');
  if (b.data.length) expect([typeof b.from, typeof b.to]).toEqual(['number', 'number']);
  // the description's objects stay beside them
  expect(b.meta).toMatchObject({ current_page: b.current_page, last_page: b.last_page, total: b.total, per_page: Number(b.per_page) });
  expect(b.links).toMatchObject({ next: b.next_page_url, prev: b.prev_page_url });
}

async function seedLinks(token: string, n: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) {
    const r = await f.req(token, 'POST', '/api/v2/links', { url: `https://site.example/${i}`, title: `Site ${i}`, ...extra(i) });
    expect(r.status).toBe(200);
    ids.push(r.body.id);
  }
  return ids;
}

describe('1. v1 pages carry the flat paginator fields (linkace-cli reads next_page_url)', () => {
  test('linkace-cli `link get`: every page of /api/v1/links, following next_page_url', async () => {
    const ids = await seedLinks(f.A, 30);
    const { pages, items } = await cliAllPages(f.A, '/api/v1/links');
    expect(pages).toHaveLength(2);
    for (const p of pages) expectCliPage(p, '/api/v1/links');
    expect(pages[0]!.body).toMatchObject({ current_page: 1, per_page: '25', from: 1, to: 25, last_page: 2, total: 30, prev_page_url: null });
    expect(pages[1]!.body).toMatchObject({ current_page: 2, from: 26, to: 30, next_page_url: null });
    expect(items.map((l) => l.id).sort((a, b) => a - b)).toEqual(ids);
    expect(items[0]).toHaveProperty('is_private');
  });

  test('linkace-cli with order_by/order_dir, and every other v1 list: tags, lists, search, links of a list/tag, notes', async () => {
    const tag = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 'cli' })).body.id;
    const list = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'cli list' })).body.id;
    const ids = await seedLinks(f.A, 27, () => ({ tags: [tag], lists: [list] }));
    for (let i = 0; i < 27; i++) await f.req(f.A, 'POST', '/api/v2/notes', { link_id: ids[0], note: `note ${i}` });
    for (let i = 0; i < 26; i++) await f.req(f.A, 'POST', '/api/v2/tags', { name: `t${i}` });
    for (let i = 0; i < 26; i++) await f.req(f.A, 'POST', '/api/v2/lists', { name: `l${i}` });
    const cases: [string, string, number][] = [
      ['/api/v1/links?order_by=title&order_dir=asc', '/api/v1/links', 27],
      ['/api/v1/tags', '/api/v1/tags', 27],
      ['/api/v1/lists?order_by=name&order_dir=desc', '/api/v1/lists', 27],
      ['/api/v1/search/links?query=site&search_title=site', '/api/v1/search/links', 27],
      [`/api/v1/lists/${list}/links`, `/api/v1/lists/${list}/links`, 27],
      [`/api/v1/tags/${tag}/links`, `/api/v1/tags/${tag}/links`, 27],
      [`/api/v1/links/${ids[0]}/notes`, `/api/v1/links/${ids[0]}/notes`, 27],
    ];
    for (const [first, path, total] of cases) {
      const { pages, items } = await cliAllPages(f.A, first);
      expect([first, pages.length, items.length]).toEqual([first, 2, total]);
      for (const p of pages) expectCliPage(p, path);
      expect(new Set(items.map((x) => x.id)).size).toBe(total);
    }
    const titles = (await cliAllPages(f.A, '/api/v1/links?order_by=title&order_dir=asc')).items.map((l) => l.title);
    expect(titles).toEqual([...titles].sort());
  });
});

describe('2. v1 endpoints that were missing', () => {
  test('extensions: tag and list type-ahead through /api/v1/search/tags and /search/lists', async () => {
    const t1 = (await f.req(f.A, 'POST', '/api/v1/tags', { name: 'programming' })).body.id;
    const t2 = (await f.req(f.A, 'POST', '/api/v1/tags', { name: 'Programming-Books' })).body.id;
    const l1 = (await f.req(f.A, 'POST', '/api/v1/lists', { name: 'Reading later' })).body.id;
    await f.req(f.B, 'POST', '/api/v1/tags', { name: 'programs of B', is_private: false });
    expect((await f.req(f.A, 'GET', '/api/v1/search/tags?query=prog')).body).toEqual({ [t1]: 'programming', [t2]: 'Programming-Books' });
    expect((await f.req(f.A, 'GET', '/api/v1/search/lists?query=read')).body).toEqual({ [l1]: 'Reading later' });
    for (const q of ['query=zzz', 'query=', '']) {
      const r = await f.req(f.A, 'GET', `/api/v1/search/tags?${q}`);
      expect([q, r.status, r.body]).toEqual([q, 200, []]);
      expect((await f.req(f.A, 'GET', `/api/v1/search/lists?${q}`)).body).toEqual([]);
    }
  });

  test('notes: links/{id}/notes, POST notes (201), PATCH and DELETE notes/{id} (204), in v1 shapes', async () => {
    const link = (await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://noted.example' })).body.id;
    const c = await f.req(f.A, 'POST', '/api/v1/notes', { link_id: link, note: 'first', is_private: true });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ link_id: link, note: 'first', is_private: true });
    expect(c.body).not.toHaveProperty('visibility');
    const open = await f.req(f.A, 'POST', '/api/v1/notes', { link_id: link, note: 'second', is_private: false });
    const list = await f.req(f.A, 'GET', `/api/v1/links/${link}/notes`);
    expect(list.body.data.map((n: any) => [n.note, n.is_private])).toEqual([
      ['first', true],
      ['second', false],
    ]);
    expect(list.body).toMatchObject({ total: 2, per_page: '25', next_page_url: null });
    // B sees A's internal note on A's link only when B may see the link; here the link is private
    expect((await f.req(f.B, 'GET', `/api/v1/links/${link}/notes`)).status).toBe(403);
    const p = await f.req(f.A, 'PATCH', `/api/v1/notes/${c.body.id}`, { note: 'edited', is_private: false });
    expect([p.status, p.body.note, p.body.is_private]).toEqual([200, 'edited', false]);
    expect((await f.req(f.B, 'PATCH', `/api/v1/notes/${open.body.id}`, { note: 'x' })).status).toBe(403);
    expect((await f.req(f.A, 'PATCH', `/api/v1/notes/${c.body.id}`, { is_private: 'maybe' })).body.errors).toHaveProperty('is_private');
    const bad = await f.req(f.A, 'POST', '/api/v1/notes', { link_id: link });
    expect([bad.status, Object.keys(bad.body.errors)]).toEqual([422, ['note']]);
    const d = await f.req(f.A, 'DELETE', `/api/v1/notes/${c.body.id}`);
    expect([d.status, d.text]).toEqual([204, '']);
    expect((await f.req(f.A, 'DELETE', `/api/v1/notes/${c.body.id}`)).status).toBe(404);
  });

  test('trash: list each type in v1 shapes, restore (200 {}), clear (204)', async () => {
    const link = (await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://trashed.example', is_private: true })).body.id;
    const tag = (await f.req(f.A, 'POST', '/api/v1/tags', { name: 'gone' })).body.id;
    const list = (await f.req(f.A, 'POST', '/api/v1/lists', { name: 'gone list' })).body.id;
    const other = (await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://keep.example' })).body.id;
    const note = (await f.req(f.A, 'POST', '/api/v1/notes', { link_id: other, note: 'n' })).body.id;
    for (const path of [`links/${link}`, `tags/${tag}`, `lists/${list}`, `notes/${note}`]) expect((await f.req(f.A, 'DELETE', `/api/v1/${path}`)).status).toBe(204);
    for (const [type, id] of [
      ['links', link],
      ['tags', tag],
      ['lists', list],
      ['notes', note],
    ] as const) {
      const r = await f.req(f.A, 'GET', `/api/v1/trash/${type}`);
      expect([type, r.status, r.body.map((x: any) => x.id)]).toEqual([type, 200, [id]]);
      expect(r.body[0].deleted_at).toBeTruthy();
      expect(r.body[0]).toHaveProperty('is_private');
      expect(r.body[0]).not.toHaveProperty('visibility');
      expect((await f.req(f.B, 'GET', `/api/v1/trash/${type}`)).body).toEqual([]);
    }
    const restored = await f.req(f.A, 'PATCH', '/api/v1/trash/restore', { model: 'link', id: link });
    expect([restored.status, restored.body]).toEqual([200, {}]);
    expect((await f.req(f.A, 'GET', `/api/v1/links/${link}`)).body.is_private).toBe(true);
    expect((await f.req(f.B, 'PATCH', '/api/v1/trash/restore', { model: 'tag', id: tag })).status).toBe(404);
    const cleared = await f.req(f.A, 'DELETE', '/api/v1/trash/clear', { model: 'tags' });
    expect([cleared.status, cleared.text]).toEqual([204, '']);
    expect((await f.req(f.A, 'GET', '/api/v1/trash/tags')).body).toEqual([]);
    expect((await f.req(f.A, 'PATCH', '/api/v1/trash/restore', { model: 'tag', id: tag })).status).toBe(404);
    const bad = await f.req(f.A, 'DELETE', '/api/v1/trash/clear', { model: 'shoes' });
    expect([bad.status, bad.body.errors.model]).toEqual([422, ['The selected model is invalid.']]);
    expect((await f.req(f.A, 'GET', '/api/v1/trash/lists')).body.map((x: any) => x.id)).toEqual([list]);
  });
});

describe('3. v1 search parameters and order_by as the reference', () => {
  test('order_by=title:asc style, private_only, only_lists/only_tags (ids or own names), empty_*, broken_only', async () => {
    const tag = (await f.req(f.A, 'POST', '/api/v1/tags', { name: 'news' })).body.id;
    const list = (await f.req(f.A, 'POST', '/api/v1/lists', { name: 'later' })).body.id;
    const a = (await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://a.example', title: 'Charlie', is_private: true, tags: [tag] })).body.id;
    const b = (await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://b.example', title: 'Alpha', is_private: false, lists: [list] })).body.id;
    const c = (await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://c.example', title: 'Bravo', is_private: false })).body.id;
    // the link checker is off here: mark one link broken in the database, as the checker would
    const { openDb } = await import('../../../src/services/bookmarks/store/db.js');
    const { join } = await import('node:path');
    const db = openDb(join(f.sa.dataDir, 'bookmarks'));
    db.prepare('UPDATE links SET status = 3 WHERE id = ?').run(c);
    db.close();
    const ids = async (q: string) => {
      const r = await f.req(f.A, 'GET', `/api/v1/search/links?${q}`);
      expect([q, r.status]).toEqual([q, 200]);
      return r.body.data.map((l: any) => l.id);
    };
    expect(await ids('query=example')).toEqual([b, c, a]); // default title:asc
    expect(await ids('query=example&order_by=title:desc')).toEqual([a, c, b]);
    expect(await ids('query=example&order_by=url:desc')).toEqual([c, b, a]);
    expect(await ids('query=example&order_by=created_at:asc')).toEqual([a, b, c]);
    expect((await ids('query=example&order_by=random')).sort()).toEqual([a, b, c].sort());
    expect(await ids('query=example&order_by=id&order_dir=desc')).toEqual([c, b, a]); // today's form
    expect(await ids('query=example&private_only=1')).toEqual([a]);
    expect(await ids(`only_tags=${tag}`)).toEqual([a]);
    expect(await ids('only_tags=news')).toEqual([a]); // a name, as LinkAce 1.x matches form requests
    expect(await ids('only_tags=nope')).toEqual([]);
    expect(await ids(`only_lists=${list}`)).toEqual([b]);
    expect(await ids('only_lists=later')).toEqual([b]);
    expect(await ids('empty_tags=1')).toEqual([b, c]);
    expect(await ids('empty_lists=1&order_by=title:asc')).toEqual([c, a]);
    expect(await ids('broken_only=1')).toEqual([c]);
    expect(await ids(`tags=${tag}`)).toEqual([a]); // today's parameters still work
    expect(await ids(`lists[]=${list}`)).toEqual([b]);
    expect(await ids('query=example&is_private=0')).toEqual([b, c]);
    const bad = await f.req(f.A, 'GET', '/api/v1/search/links?query=x&order_by=shoe:asc');
    expect([bad.status, Object.keys(bad.body.errors)]).toEqual([422, ['order_by']]);
  });

  test('linkace-cli order_by values on /links, /lists and /tags (is_private, status, check_disabled, updated_at ...)', async () => {
    const a = (await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://a.example', title: 'A', is_private: true, check_disabled: true })).body.id;
    const b = (await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://b.example', title: 'B', is_private: false, description: 'zzz' })).body.id;
    await new Promise((r) => setTimeout(r, 5)); // a later updated_at, whatever the clock's resolution
    await f.req(f.A, 'PATCH', `/api/v1/links/${a}`, { title: 'A2' });
    const order = async (path: string) => (await f.req(f.A, 'GET', path)).body.data.map((x: any) => x.id);
    expect(await order('/api/v1/links?order_by=is_private&order_dir=asc')).toEqual([b, a]);
    expect(await order('/api/v1/links?order_by=check_disabled&order_dir=desc')).toEqual([a, b]);
    expect(await order('/api/v1/links?order_by=updated_at&order_dir=desc')).toEqual([a, b]);
    expect(await order('/api/v1/links?order_by=description&order_dir=desc')).toEqual([b, a]);
    for (const by of ['id', 'url', 'title', 'description', 'is_private', 'status', 'check_disabled', 'created_at', 'updated_at'])
      for (const dir of ['asc', 'desc']) expect([by, (await f.req(f.A, 'GET', `/api/v1/links?order_by=${by}&order_dir=${dir}`)).status]).toEqual([by, 200]);
    const l1 = (await f.req(f.A, 'POST', '/api/v1/lists', { name: 'x', description: 'b', is_private: false })).body.id;
    const l2 = (await f.req(f.A, 'POST', '/api/v1/lists', { name: 'y', description: 'a', is_private: true })).body.id;
    expect(await order('/api/v1/lists?order_by=description&order_dir=asc')).toEqual([l2, l1]);
    expect(await order('/api/v1/lists?order_by=is_private&order_dir=desc')).toEqual([l2, l1]);
    expect(await order('/api/v1/lists?order_by=id&order_dir=asc')).toEqual([l1, l2]);
    const t1 = (await f.req(f.A, 'POST', '/api/v1/tags', { name: 'b', is_private: true })).body.id;
    const t2 = (await f.req(f.A, 'POST', '/api/v1/tags', { name: 'a', is_private: false })).body.id;
    expect(await order('/api/v1/tags?order_by=is_private&order_dir=asc')).toEqual([t2, t1]);
    await new Promise((r) => setTimeout(r, 5));
    await f.req(f.A, 'PATCH', `/api/v1/tags/${t1}`, { name: 'b2' });
    expect(await order('/api/v1/tags?order_by=updated_at&order_dir=desc')).toEqual([t1, t2]);
    expect((await f.req(f.A, 'GET', '/api/v1/tags?order_by=description')).status).toBe(422);
  });
});

describe('4. v1 GET /lists/{id}: links is the URL of its links', () => {
  test('linkace-cli `list get --id` validates links as a string, then loads the links from it', async () => {
    const list = (await f.req(f.A, 'POST', '/api/v1/lists', { name: 'Reading' })).body.id;
    const ids = await seedLinks(f.A, 3, () => ({ lists: [list] }));
    const r = await f.req(f.A, 'GET', `/api/v1/lists/${list}`);
    expect(typeof r.body.links).toBe('string');
    expect(r.body.links).toBe(`http://localhost:80/api/v1/lists/${list}/links`);
    const { items } = await cliAllPages(f.A, pathOf(r.body.links));
    expect(items.map((l) => l.id).sort((a, b) => a - b)).toEqual(ids);
  });
});

describe('5. page below 1 or not a number is page 1', () => {
  test("the Zapier app's New Link and New List triggers: first poll with page=0 (v2)", async () => {
    await seedLinks(f.A, 3);
    await f.req(f.A, 'POST', '/api/v2/lists', { name: 'zap' });
    const headers = { 'content-type': 'application/json' };
    for (const path of ['/api/v2/links?page=0', '/api/v2/lists?page=0']) {
      const r = await f.req(f.A, 'GET', path, undefined, headers);
      expect([path, r.status]).toEqual([path, 200]);
      expect(r.body.data.length).toBeGreaterThan(0);
      expect(r.body.meta.current_page).toBe(1);
    }
    // the trigger reads data; newest first, as Zapier's dedupe expects
    const links = (await f.req(f.A, 'GET', '/api/v2/links?page=0')).body.data;
    expect(links.map((l: any) => l.url)).toEqual(['https://site.example/3', 'https://site.example/2', 'https://site.example/1']);
  });

  test('v1 likewise: page=0, page=-1, page=abc are page 1', async () => {
    await seedLinks(f.A, 3);
    for (const p of ['0', '-1', 'abc', '']) {
      const r = await f.req(f.A, 'GET', `/api/v1/links?page=${p}`);
      expect([p, r.status, r.body.current_page, r.body.data.length]).toEqual([p, 200, 1, 3]);
    }
  });
});

describe('6. v1 per_page above 100 is capped at 100, not refused', () => {
  test('magic-drop: lists with per_page=200, tags with per_page=500', async () => {
    const { openDb } = await import('../../../src/services/bookmarks/store/db.js');
    const { insertCollection } = await import('../../../src/services/bookmarks/store/collections.js');
    const { join } = await import('node:path');
    const userId = (await f.req(f.A, 'POST', '/api/v1/tags', { name: 'probe' })).body.user_id;
    const db = openDb(join(f.sa.dataDir, 'bookmarks'));
    for (let i = 0; i < 130; i++) {
      insertCollection(db, 'lists', { user_id: userId, name: `list ${i}`, description: null, visibility: 3 });
      insertCollection(db, 'tags', { user_id: userId, name: `tag ${i}`, description: null, visibility: 3 });
    }
    db.close();
    for (const [path, total] of [
      ['/api/v1/lists?per_page=200', 130],
      ['/api/v1/tags?per_page=500', 131],
    ] as const) {
      const r = await f.req(f.A, 'GET', path);
      expect([path, r.status, r.body.data.length, r.body.per_page, r.body.meta.per_page, r.body.total]).toEqual([path, 200, 100, '100', 100, total]);
      const all = await cliAllPages(f.A, path);
      expect(all.items).toHaveLength(total);
    }
    for (const pp of ['0', '-1']) {
      const r = await f.req(f.A, 'GET', `/api/v1/tags?per_page=${pp}`);
      expect([pp, r.status, r.body.data.length, r.body.per_page]).toEqual([pp, 200, 100, '100']);
    }
    expect((await f.req(f.A, 'GET', '/api/v1/tags?per_page=7')).body.data).toHaveLength(7);
    expect((await f.req(f.A, 'GET', '/api/v1/tags')).body.per_page).toBe('25');
  });
});

describe('7. boolean query flags read as PHP (bool)', () => {
  test('linkace-cli `search by-query` sends search_title=<the query text> and gets the title matches', async () => {
    await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://rust-lang.org', title: 'Rust Programming Language', description: 'A language empowering everyone' });
    await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://go.dev', title: 'The Go Programming Language' });
    const { items } = await cliAllPages(f.A, `/api/v1/search/links?${new URLSearchParams({ query: 'programming', search_title: 'programming' })}`);
    expect(items.map((l) => l.url).sort()).toEqual(['https://go.dev', 'https://rust-lang.org']);
  });

  test('any non-empty value but "0" is on (v1 and v2); "0" and empty are off', async () => {
    await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://x.example', title: 'Needle', description: 'haystack' });
    for (const v of ['1', 'true', 'on', 'yes', 'false', 'off', 'anything']) {
      for (const base of ['/api/v1/search/links', '/api/v2/search/links']) {
        const t = await f.req(f.A, 'GET', `${base}?query=needle&search_title=${v}`);
        expect([base, v, t.body.data.length]).toEqual([base, v, 1]);
        const d = await f.req(f.A, 'GET', `${base}?query=haystack&search_description=${v}`);
        expect([base, v, d.body.data.length]).toEqual([base, v, 1]);
      }
    }
    for (const v of ['0', '']) {
      for (const base of ['/api/v1/search/links', '/api/v2/search/links']) {
        const t = await f.req(f.A, 'GET', `${base}?query=needle&search_title=${v}`);
        expect([base, v, t.body.data.length]).toEqual([base, v, 0]);
      }
    }
    // broken_only=0 is off: with nothing else given, the search asks for a criterion
    expect((await f.req(f.A, 'GET', '/api/v1/search/links?broken_only=0')).status).toBe(422);
    expect((await f.req(f.A, 'GET', '/api/v2/search/links?broken_only=false')).status).toBe(200);
  });
});

describe("8. search finds only the caller's own items", () => {
  test("extensions' \"is this tab saved?\": B's internal link is not found as A's; A's own is, and its PATCH works", async () => {
    const tab = 'https://shared-tab.example/article';
    const theirs = await f.req(f.B, 'POST', '/api/v1/links', { url: tab, is_private: false });
    expect((await f.req(f.A, 'GET', `/api/v2/links/${theirs.body.id}`)).status).toBe(200); // visible to A (internal) ...
    for (const base of ['/api/v1/search/links', '/api/v2/search/links']) {
      const r = await f.req(f.A, 'GET', `${base}?${new URLSearchParams({ query: tab })}`);
      expect([base, r.body.data]).toEqual([base, []]); // ... but not A's: the tab is not saved
    }
    const mine = await f.req(f.A, 'POST', '/api/v1/links', { url: tab, title: 'Mine' });
    for (const base of ['/api/v1/search/links', '/api/v2/search/links']) {
      const r = await f.req(f.A, 'GET', `${base}?${new URLSearchParams({ query: tab })}`);
      const saved = r.body.data.find((l: any) => l.url === tab);
      expect([base, saved?.id, saved?.user_id]).toEqual([base, mine.body.id, mine.body.user_id]);
      expect((await f.req(f.A, 'PATCH', `/api/v1/links/${saved.id}`, { title: 'Edited' })).status).toBe(200);
    }
  });

  test("v1 links/check?url= looks at the caller's own links only (LinkAce 1.x)", async () => {
    const url = 'https://checked.example/page';
    await f.req(f.B, 'POST', '/api/v1/links', { url, is_private: false });
    expect((await f.req(f.A, 'GET', `/api/v1/links/check?${new URLSearchParams({ url })}`)).body).toEqual({ linksFound: false });
    expect((await f.req(f.B, 'GET', `/api/v1/links/check?${new URLSearchParams({ url: ` ${url} ` })}`)).body).toEqual({ linksFound: true });
    expect((await f.req(f.B, 'GET', '/api/v1/links/check')).body).toEqual({ linksFound: false });
    expect((await f.req(f.B, 'GET', `/api/v1/links/check?url=${encodeURIComponent(url + '/')}`)).body).toEqual({ linksFound: false });
  });

  test('tags and lists of others are never suggested; system tokens own nothing; other routes keep visibility rules', async () => {
    await f.req(f.B, 'POST', '/api/v2/tags', { name: 'shared-tag', visibility: 1 });
    await f.req(f.B, 'POST', '/api/v2/lists', { name: 'shared-list', visibility: 1 });
    for (const v of ['v1', 'v2']) {
      expect((await f.req(f.A, 'GET', `/api/${v}/search/tags?query=shared`)).body).toEqual([]);
      expect((await f.req(f.A, 'GET', `/api/${v}/search/lists?query=shared`)).body).toEqual([]);
      expect((await f.req(f.SP, 'GET', `/api/${v}/search/tags?query=shared`)).body).toEqual([]);
    }
    expect(Object.values((await f.req(f.B, 'GET', '/api/v2/search/tags?query=shared')).body)).toEqual(['shared-tag']);
    // listing routes are not search: A still sees B's public tag there
    expect((await f.req(f.A, 'GET', '/api/v2/tags?per_page=-1')).body.data.map((t: any) => t.name)).toContain('shared-tag');
    expect((await f.req(f.A, 'GET', '/api/v1/tags')).body.data.map((t: any) => t.name)).toContain('shared-tag');
  });
});

describe('every operation of the v1 reference (LinkAce-API.v1.yaml)', () => {
  test('each of the 31 operations answers 2xx in the order a script would run them', async () => {
    const got: string[] = [];
    const run = async (method: string, path: string, body?: unknown) => {
      const r = await f.req(f.A, method, path, body);
      got.push(`${method} ${path.split('?')[0]!.replace(/\d+/g, '{id}')} ${r.status}`);
      expect([method, path, r.status >= 200 && r.status < 300, r.body?.message]).toEqual([method, path, true, undefined]);
      return r.body;
    };
    await run('GET', '/api/version');
    const list = await run('POST', '/api/v1/lists', { name: 'Ref list', description: 'd', is_private: false });
    const tag = await run('POST', '/api/v1/tags', { name: 'ref-tag', is_private: false });
    const link = await run('POST', '/api/v1/links', { url: 'https://ref.example', title: 'Ref', description: 'x', lists: [list.id], tags: 'ref-tag,second', is_private: false, check_disabled: false });
    const note = await run('POST', '/api/v1/notes', { link_id: link.id, note: 'a note', is_private: false });
    await run('GET', '/api/v1/links?per_page=10&order_by=title&order_dir=asc');
    await run('GET', `/api/v1/links/${link.id}`);
    await run('PATCH', `/api/v1/links/${link.id}`, { url: 'https://ref.example', title: 'Ref 2', tags: [tag.id] });
    await run('GET', `/api/v1/links/${link.id}/notes?per_page=10`);
    await run('GET', '/api/v1/search/links?query=ref&search_title=1&search_description=1&private_only=0&order_by=title:asc&per_page=10');
    await run('GET', '/api/v1/lists?per_page=10&order_by=name&order_dir=asc');
    await run('GET', `/api/v1/lists/${list.id}`);
    await run('PATCH', `/api/v1/lists/${list.id}`, { name: 'Ref list 2', is_private: true });
    await run('GET', `/api/v1/lists/${list.id}/links?per_page=10`);
    await run('GET', '/api/v1/search/lists?query=ref&per_page=10');
    await run('GET', '/api/v1/tags?per_page=10&order_by=name&order_dir=asc');
    await run('GET', `/api/v1/tags/${tag.id}`);
    await run('PATCH', `/api/v1/tags/${tag.id}`, { name: 'ref-tag-2', is_private: true });
    await run('GET', `/api/v1/tags/${tag.id}/links?per_page=10`);
    await run('GET', '/api/v1/search/tags?query=ref');
    await run('PATCH', `/api/v1/notes/${note.id}`, { note: 'edited', is_private: true });
    await run('DELETE', `/api/v1/notes/${note.id}`);
    await run('DELETE', `/api/v1/links/${link.id}`);
    await run('DELETE', `/api/v1/lists/${list.id}`);
    await run('DELETE', `/api/v1/tags/${tag.id}`);
    for (const type of ['links', 'lists', 'tags', 'notes']) expect((await run('GET', `/api/v1/trash/${type}`)).length).toBe(1);
    await run('PATCH', '/api/v1/trash/restore', { model: 'link', id: link.id });
    await run('DELETE', '/api/v1/trash/clear', { model: 'notes' });
    const ops = new Set(got.map((g) => g.split(' ').slice(0, 2).join(' ')));
    expect(ops.size).toBe(31);
  });
});
