import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, type Fixture } from './helpers.js';
import { parseNetscape } from '../../../src/services/bookmarks/netscape.js';

let f: Fixture;
beforeEach(async () => {
  f = await setup();
});
afterEach(async () => {
  await f.close();
});

async function multipart(token: string | null, url: string, field: string, content: Buffer | string, fx?: Fixture) {
  const filename = 'bookmarks.html';
  const form = new FormData();
  form.append(field, new Blob([content], { type: 'text/html' }), filename);
  const res = new Response(form);
  const payload = Buffer.from(await res.arrayBuffer());
  const headers: Record<string, string> = { 'content-type': res.headers.get('content-type')!, accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await (fx ?? f).sa.app.inject({ method: 'POST', url, payload, headers });
  return { status: r.statusCode, body: JSON.parse(r.body) };
}

describe('v1 links', () => {
  test('create 201 with is_private; get; patch; delete 204', async () => {
    const c = await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://v1.example', title: 'V1', is_private: true, tags: ['a'] });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ url: 'https://v1.example', title: 'V1', is_private: true, status: 1, check_disabled: false });
    expect(c.body.visibility).toBeUndefined();
    expect(c.body.tags[0]).toMatchObject({ name: 'a', is_private: true });
    const g = await f.req(f.A, 'GET', `/api/v1/links/${c.body.id}`);
    expect(g.body).toMatchObject({ id: c.body.id, is_private: true });
    const p = await f.req(f.A, 'PATCH', `/api/v1/links/${c.body.id}`, { is_private: false, description: 'd' });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ is_private: false, description: 'd' });
    // is_private false is internal (2) without guest access
    expect((await f.req(f.A, 'GET', `/api/v2/links/${c.body.id}`)).body.visibility).toBe(2);
    const d = await f.req(f.A, 'DELETE', `/api/v1/links/${c.body.id}`);
    expect(d.status).toBe(204);
    expect(d.text).toBe('');
    expect((await f.req(f.A, 'GET', '/api/v2/trash/links')).body).toHaveLength(1);
  });

  test('is_private false means public (1) when guests are allowed', async () => {
    const g = await setup({ guestAccess: true });
    try {
      const c = await g.req(g.A, 'POST', '/api/v1/links', { url: 'https://pub.example', is_private: false });
      expect((await g.req(g.A, 'GET', `/api/v2/links/${c.body.id}`)).body.visibility).toBe(1);
    } finally {
      await g.close();
    }
  });

  test('validation is 422 with {message, errors}', async () => {
    const r = await f.req(f.A, 'POST', '/api/v1/links', { url: 'nope', is_private: 'maybe' });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ url: ['The url must be a valid URL.'], is_private: ['The is private field must be true or false.'] });
  });

  test("list: v1 envelope, per_page capped at 100, the reference's order_by values, query/tags/lists/is_private filters", async () => {
    const t = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 'tagged' })).body.id;
    const l = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'listed' })).body.id;
    await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://b.example', title: 'Bravo', is_private: true, tags: [t] });
    await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://a.example', title: 'Alpha', description: 'needle', is_private: false, lists: [l] });
    await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://c.example', title: 'Charlie', is_private: false });
    const r = await f.req(f.A, 'GET', '/api/v1/links?per_page=2');
    expect(r.status).toBe(200);
    expect(r.body.meta).toMatchObject({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    expect(r.body.links.prev).toBeNull();
    expect(r.body.links.next).toContain('page=2');
    expect(r.body).toMatchObject({ current_page: 1, per_page: '2', total: 3, last_page: 2, from: 1, to: 2, next_page_url: r.body.links.next, prev_page_url: null });
    expect(r.body.data[0]).toHaveProperty('is_private');
    expect((await f.req(f.A, 'GET', '/api/v1/links?per_page=101')).body.per_page).toBe('100');
    expect((await f.req(f.A, 'GET', '/api/v1/links?order_by=status')).status).toBe(200);
    expect((await f.req(f.A, 'GET', '/api/v1/links?order_by=visibility')).status).toBe(422);
    const titles = async (q: string) => (await f.req(f.A, 'GET', `/api/v1/links?${q}`)).body.data.map((x: any) => x.title);
    expect(await titles('order_by=title&order_dir=asc')).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(await titles('order_by=url&order_dir=desc')).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect(await titles('order_by=created_at&order_dir=asc')).toEqual(['Bravo', 'Alpha', 'Charlie']);
    expect(await titles('query=needle')).toEqual(['Alpha']);
    expect(await titles(`tags[]=${t}`)).toEqual(['Bravo']);
    expect(await titles(`lists=${l}`)).toEqual(['Alpha']);
    expect(await titles('is_private=1')).toEqual(['Bravo']);
    expect(await titles('is_private=0&order_by=title&order_dir=asc')).toEqual(['Alpha', 'Charlie']);
    expect(await titles('order_by=is_private&order_dir=desc')).toEqual(['Bravo', 'Charlie', 'Alpha']);
    expect(await titles('order_by=description&order_dir=desc')).toEqual(['Alpha', 'Charlie', 'Bravo']);
  });

  test('advanced search: /api/v1/search/links with search_title/search_description', async () => {
    await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://x.example', title: 'Findme', description: 'deep text' });
    const s = async (q: string) => (await f.req(f.A, 'GET', `/api/v1/search/links?${q}`)).body.data?.map((x: any) => x.url);
    expect(await s('query=findme')).toEqual([]);
    expect(await s('query=findme&search_title=1')).toEqual(['https://x.example']);
    expect(await s('query=deep&search_description=true')).toEqual(['https://x.example']);
    expect(await s('query=x.example')).toEqual(['https://x.example']);
    const none = await f.req(f.A, 'GET', '/api/v1/search/links');
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.errors)).toEqual(['query', 'only_lists', 'only_tags', 'broken_only']);
  });
});

describe('v1 lists and tags', () => {
  test('tags: create 201, list ordered by name, update, delete 204', async () => {
    const a = await f.req(f.A, 'POST', '/api/v1/tags', { name: 'zeta', is_private: false });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name: 'zeta', is_private: false });
    await f.req(f.A, 'POST', '/api/v1/tags', { name: 'alpha', is_private: true });
    const l = await f.req(f.A, 'GET', '/api/v1/tags?order_by=name&order_dir=asc');
    expect(l.body.data.map((t: any) => t.name)).toEqual(['alpha', 'zeta']);
    expect((await f.req(f.A, 'PATCH', `/api/v1/tags/${a.body.id}`, { is_private: true })).body.is_private).toBe(true);
    expect((await f.req(f.A, 'DELETE', `/api/v1/tags/${a.body.id}`)).status).toBe(204);
    expect((await f.req(f.A, 'GET', `/api/v1/tags/${a.body.id}`)).status).toBe(404);
  });

  test('a list answers links as the URL of its links (LinkAce 1.x); the links come from that URL', async () => {
    const list = await f.req(f.A, 'POST', '/api/v1/lists', { name: 'Reading', description: 'later', is_private: false });
    expect(list.status).toBe(201);
    await f.req(f.A, 'POST', '/api/v1/links', { url: 'https://in-list.example', lists: [list.body.id] });
    const g = await f.req(f.A, 'GET', `/api/v1/lists/${list.body.id}`);
    expect(g.body).toMatchObject({ name: 'Reading', description: 'later', is_private: false });
    expect(g.body.links).toBe(`http://localhost:80/api/v1/lists/${list.body.id}/links`);
    const ll = await f.req(f.A, 'GET', new URL(g.body.links).pathname);
    expect(ll.body.meta.total).toBe(1);
    expect(ll.body.data.map((x: any) => x.url)).toEqual(['https://in-list.example']);
    expect(ll.body.data[0]).toHaveProperty('is_private');
    const asB = await f.req(f.B, 'GET', `/api/v1/lists/${list.body.id}/links`);
    expect([asB.body.total, asB.body.data]).toEqual([0, []]);
  });
});

describe('import and export', () => {
  const firefox = readFileSync(join(import.meta.dirname, 'fixtures', 'firefox.html'));

  test('import a real-world file: folders to tags, dates, private flags; existing URLs skipped', async () => {
    const r = await multipart(f.A, '/api/v1/import', 'file', firefox);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ total: 8, imported: 7, skipped: 0, existing: 0, duplicates: 0, invalid: 1, tags_created: 5, lists_created: 0, dry_run: false });
    const links = (await f.req(f.A, 'GET', '/api/v2/links?per_page=-1&order_by=id&order_dir=asc')).body.data;
    expect(links.map((l: any) => l.url)).toContain('https://www.typescriptlang.org/');
    const ts = links.find((l: any) => l.url === 'https://www.typescriptlang.org/');
    expect(ts).toMatchObject({ title: 'TypeScript — Typed JavaScript', description: 'Ünïcödé description ✓', visibility: 3, created_at: '2020-09-13T12:26:42.000000Z' });
    const full = await f.req(f.A, 'GET', `/api/v2/links/${ts.id}`);
    expect(full.body.tags.map((t: any) => t.name)).toEqual(['Dev Tools', 'JavaScript TypeScript']);
    const node = links.find((l: any) => l.url === 'https://nodejs.org/');
    expect(node.visibility).toBe(2);
    expect(links.find((l: any) => l.url === 'https://no-title.example/path').title).toBe('no-title.example');
    const again = await multipart(f.A, '/api/v1/import', 'file', firefox);
    expect(again.body).toEqual({ total: 8, imported: 0, skipped: 7, existing: 7, duplicates: 0, invalid: 1, tags_created: 0, lists_created: 0, dry_run: false });
  });

  test('export then re-import into a fresh store gives the same set', async () => {
    await multipart(f.A, '/api/v1/import', 'file', firefox);
    await multipart(f.A, '/api/v1/import', 'file', readFileSync(join(import.meta.dirname, 'fixtures', 'windows1252.html')));
    const exp = await f.sa.app.inject({ method: 'GET', url: '/api/v1/export?format=html', headers: { authorization: `Bearer ${f.A}` } });
    expect(exp.statusCode).toBe(200);
    expect(exp.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(exp.headers['content-disposition']).toContain('attachment');
    expect(exp.body.startsWith('<!DOCTYPE NETSCAPE-Bookmark-file-1>')).toBe(true);
    const g = await setup();
    try {
      const r = await multipart(g.A, '/api/v1/import', 'file', exp.body, g);
      expect(r.body).toMatchObject({ imported: 8, skipped: 0, invalid: 0 });
      const snapshot = async (h: typeof f) => {
        const ids = (await h.req(h.A, 'GET', '/api/v2/links?per_page=-1')).body.data.map((l: any) => l.id);
        const out = [];
        for (const id of ids) {
          const l = (await h.req(h.A, 'GET', `/api/v2/links/${id}`)).body;
          out.push({ url: l.url, title: l.title, description: l.description, private: l.visibility === 3, created_at: l.created_at.slice(0, 19), tags: l.tags.map((t: any) => t.name) });
        }
        return out.sort((a, b) => a.url.localeCompare(b.url));
      };
      expect(await snapshot(g)).toEqual(await snapshot(f));
      // and the export parses to the same bookmarks
      const second = await g.sa.app.inject({ method: 'GET', url: '/api/v1/export', headers: { authorization: `Bearer ${g.A}` } });
      expect(parseNetscape(second.body)).toEqual(parseNetscape(exp.body));
    } finally {
      await g.close();
    }
  });

  test('export holds only what the caller may see', async () => {
    await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b-public.example', visibility: 1 });
    await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b-private.example', visibility: 3 });
    const urls = async (t: string) => parseNetscape((await f.sa.app.inject({ method: 'GET', url: '/api/v1/export', headers: { authorization: `Bearer ${t}` } })).body).map((b) => b.url);
    expect(await urls(f.A)).toEqual(['https://b-public.example']);
    expect((await urls(f.B)).sort()).toEqual(['https://b-private.example', 'https://b-public.example']);
    expect(await urls(f.S)).toEqual(['https://b-public.example']);
    expect((await urls(f.SP)).sort()).toEqual(['https://b-private.example', 'https://b-public.example']);
    expect((await f.req(f.A, 'GET', '/api/v1/export?format=csv')).status).toBe(422);
  });

  test('import errors: no file, wrong field, not multipart, system token, guest', async () => {
    expect((await multipart(f.A, '/api/v1/import', 'other', firefox)).status).toBe(422);
    expect((await multipart(f.A, '/api/v1/import', 'file', '')).status).toBe(422);
    const json = await f.req(f.A, 'POST', '/api/v1/import', { file: 'x' });
    expect(json.status).toBe(422);
    expect(json.body.errors.file[0]).toContain('multipart');
    expect((await multipart(f.S, '/api/v1/import', 'file', firefox)).status).toBe(403);
    expect((await multipart(null, '/api/v1/import', 'file', firefox)).status).toBe(401);
    expect((await multipart(f.A, '/api/v1/import', 'import-file', firefox)).body.imported).toBe(7);
  });

  test('a file that is not a bookmark file is 422 (as the mimes:html rule of LinkAce); an empty bookmark file imports nothing', async () => {
    for (const junk of [Buffer.from([0, 159, 146, 150, 255]), 'just some text\n', '{"links": []}']) {
      const r = await multipart(f.A, '/api/v1/import', 'file', junk);
      expect(r.status).toBe(422);
      expect(r.body.errors.file[0]).toContain('Netscape bookmark file');
    }
    const empty = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<DL><p>\n</DL><p>\n';
    expect((await multipart(f.A, '/api/v1/import', 'file', empty)).body).toMatchObject({ total: 0, imported: 0, skipped: 0, invalid: 0, tags_created: 0 });
    const utf16 = Buffer.from('\ufeff<DL><p>\n</DL>\n', 'utf16le');
    expect((await multipart(f.A, '/api/v1/import', 'file', utf16)).status).toBe(200);
  });
});
