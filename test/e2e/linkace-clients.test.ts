/**
 * Two LinkAce clients' call sequences against `ops serve` over HTTP (issue 15), written from their documented
 * behaviour: linkace-cli (Python, LinkAce 1.x API: v1 routes, follows `next_page_url`, validates a list's `links`
 * as a string, searches with `search_title=<query>`) and the official Zapier app (v2: auth check with a GET
 * carrying a `{}` body, creates with templated string values, polling triggers whose first poll sends `page=0`,
 * a search action that takes the first result).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { isolatedEnv, ops, startServe, type ServeHandle } from '../helpers/cli.js';

let serve: ServeHandle;
let token: string;
let other: string;

interface Answer {
  status: number;
  body: any;
  text: string;
}

/** One HTTP call with the headers a client sends; `body` is sent as JSON, also on a GET (Zapier does). */
function call(method: string, url: string, tok: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(url, { method, headers: { authorization: `Bearer ${tok}`, ...headers, ...(payload ? { 'content-length': String(Buffer.byteLength(payload)) } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, text });
      });
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** linkace-cli: a requests session with Accept, a Bearer token and its user agent; paths joined to the v1 base. */
const cli = {
  headers: { accept: 'application/json', 'user-agent': 'Linkace-CLI' },
  url(path: string, params?: Record<string, string | undefined>): string {
    const u = new URL(path, `${serve.url}/api/v1/`);
    for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined) u.searchParams.set(k, v);
    return u.toString();
  },
  async get(path: string, params?: Record<string, string | undefined>, tok = token) {
    const r = await call('GET', cli.url(path, params), tok, cli.headers);
    expect([path, r.status]).toEqual([path, 200]);
    return r.body;
  },
  async send(method: string, path: string, body: unknown, tok = token) {
    return call(method, cli.url(path), tok, { ...cli.headers, 'content-type': 'application/json' }, body);
  },
  /** Its page loop: the first page, then next_page_url until null; the fields its schema reads. */
  async all(path: string, params?: Record<string, string | undefined>) {
    let page = await cli.get(path, params);
    const items = [...page.data];
    let guard = 0;
    while (page.next_page_url) {
      expect(page.next_page_url.startsWith(serve.url)).toBe(true);
      expect(typeof page.per_page).toBe('string');
      expect([typeof page.total, typeof page.current_page, typeof page.last_page]).toEqual(['number', 'number', 'number']);
      page = await cli.get(page.next_page_url);
      items.push(...page.data);
      expect(++guard).toBeLessThan(100);
    }
    return items;
  },
};

/** The Zapier app: Accept and Content-Type JSON on every call. */
const zap = {
  headers: { accept: 'application/json', 'content-type': 'application/json' },
  url(path: string, params: Record<string, string | number | undefined> = {}): string {
    const u = new URL(`${serve.url}${path}`);
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') u.searchParams.set(k, String(v));
    return u.toString();
  },
};

beforeAll(async () => {
  const env = isolatedEnv();
  serve = await startServe(['--no-link-check', '--no-metadata', '--rate-limit', '10000'], env);
  token = (await ops(['config', 'get', 'bm.token', '--show-secret'], { env })).stdout.trim();
  const added = await ops(['--json', 'serve', 'user', 'add', '--name', 'Other', '--email', 'other@example.com', '--data-dir', serve.dataDir], { env });
  expect(added.exitCode, added.stderr).toBe(0);
  other = JSON.parse(added.stdout).token;
}, 60_000);
afterAll(async () => {
  await serve?.stop('SIGTERM');
});

describe('linkace-cli against ops serve', () => {
  it('runs its commands: tags, lists, links (create, get, get --id, update, delete) and the three searches', async () => {
    // tag create / get / get --id / update
    const tag = await cli.send('POST', 'tags', { name: 'cli-tag', is_private: false });
    expect(tag.status).toBe(201);
    for (let i = 0; i < 30; i++) expect((await cli.send('POST', 'tags', { name: `filler-${i}` })).status).toBe(201);
    const tags = await cli.all('tags', { order_by: 'name', order_dir: 'asc' });
    expect(tags).toHaveLength(31);
    expect(tags.map((t: any) => t.name)).toEqual([...tags.map((t: any) => t.name)].sort());
    expect((await cli.get(`tags/${tag.body.id}`)).name).toBe('cli-tag');
    expect((await cli.send('PATCH', `tags/${tag.body.id}`, { name: 'cli-tag', is_private: true })).body.is_private).toBe(true);

    // list create / get --id (links is a string: the URL of its links)
    const list = await cli.send('POST', 'lists', { name: 'cli-list', description: 'from the cli', is_private: false });
    expect(list.status).toBe(201);
    const shown = await cli.get(`lists/${list.body.id}`);
    expect(typeof shown.links).toBe('string');
    expect(shown.links).toBe(`${serve.url}/api/v1/lists/${list.body.id}/links`);

    // link create (a page and a half of them) / get (all pages) / get --id / update
    const created: number[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await cli.send('POST', 'links', {
        url: `https://cli.example/${i}`,
        title: i % 2 ? `Programming note ${i}` : `Other ${i}`,
        description: null,
        is_private: false,
        check_disabled: true,
        tags: i < 30 ? [tag.body.id] : [],
        lists: i < 27 ? [list.body.id] : [],
      });
      expect(r.status).toBe(201);
      created.push(r.body.id);
    }
    const links = await cli.all('links', { order_by: 'created_at', order_dir: 'asc' });
    expect(links.map((l: any) => l.id)).toEqual(created);
    expect(links[0]).toMatchObject({ is_private: false, check_disabled: true, status: 1 });
    const one = await cli.get(`links/${created[0]}`);
    expect(one.tags.map((t: any) => t.id)).toEqual([tag.body.id]);
    expect(one.lists.map((l: any) => l.id)).toEqual([list.body.id]);
    const upd = await cli.send('PATCH', `links/${created[0]}`, { title: 'Programming edited', is_private: true });
    expect([upd.status, upd.body.title, upd.body.is_private]).toEqual([200, 'Programming edited', true]);

    // the list's links, from the URL it answered
    expect(await cli.all(shown.links)).toHaveLength(27);

    // search by-query: query and search_title both carry the query text
    const byQuery = await cli.all('search/links', { query: 'programming', search_title: 'programming' });
    expect(byQuery.map((l: any) => l.id).sort((a: number, b: number) => a - b)).toEqual(created.filter((_, i) => i % 2 || i === 0));

    // search by-tag: search/tags -> ids -> tags/{id}/links (all pages), deduplicated by id
    const tagIds = await cli.get('search/tags', { query: 'cli-' });
    expect(Object.values(tagIds)).toEqual(['cli-tag']);
    const byTag = new Map<number, unknown>();
    for (const id of Object.keys(tagIds)) for (const l of await cli.all(`tags/${id}/links`)) byTag.set(l.id, l);
    expect(byTag.size).toBe(30);

    // search by-list: search/lists -> ids -> lists/{id}/links
    const listIds = await cli.get('search/lists', { query: 'cli' });
    const byList = new Map<number, unknown>();
    for (const id of Object.keys(listIds)) for (const l of await cli.all(`lists/${id}/links`)) byList.set(l.id, l);
    expect(byList.size).toBe(27);
    expect(await cli.get('search/tags', { query: 'no-such-tag' })).toEqual([]);

    // another user's searches find none of these, though the links are internal (visible to them)
    expect((await cli.get('search/links', { query: 'cli.example' }, other)).data).toEqual([]);
    expect((await cli.get('links', {}, other)).total).toBe(39);

    // deletes: 204 with no body (LinkAce 1.x answers 200; see docs/bookmarks.md, differences from LinkAce)
    for (const path of [`links/${created[1]}`, `lists/${list.body.id}`, `tags/${tag.body.id}`]) {
      const d = await cli.send('DELETE', path, undefined);
      expect([path, d.status, d.text]).toEqual([path, 204, '']);
    }
    expect((await cli.get('trash/links')).map((l: any) => l.id)).toEqual([created[1]]);
  });
});

describe('the Zapier app against ops serve', () => {
  it('authenticates, creates, polls its triggers from page=0 and searches', async () => {
    // authentication test: GET /api/v2/links with Content-Type JSON and a {} body
    const auth = await call('GET', zap.url('/api/v2/links'), token, zap.headers, {});
    expect(auth.status).toBe(200);
    expect((await call('GET', zap.url('/api/v2/links'), 'wrong', zap.headers, {})).status).toBe(401);

    // actions: templated values arrive as strings; missing ones are left out
    const tag = await call('POST', zap.url('/api/v2/tags'), token, zap.headers, { name: 'zap-tag', visibility: '2' });
    expect([tag.status, tag.body.name, tag.body.visibility]).toEqual([200, 'zap-tag', 2]);
    const list = await call('POST', zap.url('/api/v2/lists'), token, zap.headers, { name: 'zap-list', description: 'made by a zap', visibility: '1' });
    expect([list.status, list.body.visibility]).toEqual([200, 1]);
    const link = await call('POST', zap.url('/api/v2/links'), token, zap.headers, {
      url: 'https://zapier.example/article',
      title: 'Zapped article',
      lists: 'zap-list',
      tags: 'zap-tag,zap-new',
      visibility: '1',
      check_disabled: 'true',
    });
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ url: 'https://zapier.example/article', visibility: 1, check_disabled: true });
    expect(link.body.tags.map((t: any) => t.name).sort()).toEqual(['zap-new', 'zap-tag']);
    expect(link.body.lists.map((l: any) => l.id)).toEqual([list.body.id]);

    // triggers: New Link and New List poll with page=0 first (then 1, 2, ...); they read data, newest first
    const newLinks = await call('GET', zap.url('/api/v2/links', { page: 0 }), token, zap.headers);
    expect(newLinks.status).toBe(200);
    expect(newLinks.body.data[0]).toMatchObject({ id: link.body.id, url: 'https://zapier.example/article' });
    const newLists = await call('GET', zap.url('/api/v2/lists', { page: 0 }), token, zap.headers);
    expect([newLists.status, newLists.body.data[0].id]).toEqual([200, list.body.id]);
    expect((await call('GET', zap.url('/api/v2/links', { page: 1 }), token, zap.headers)).body.data[0].id).toBe(link.body.id);
    // New Tag: extra api_token and base_url parameters and an X-BASE-URL header
    const newTags = await call('GET', zap.url('/api/v2/tags', { api_token: token, base_url: serve.url }), token, { accept: 'application/json', 'x-base-url': serve.url });
    expect(newTags.status).toBe(200);
    expect(newTags.body.data.map((t: any) => t.name)).toEqual(expect.arrayContaining(['zap-tag', 'zap-new']));

    // search action: the first result only; boolean fields arrive as "true"
    const found = await call(
      'GET',
      zap.url('/api/v2/search/links', { query: 'zapped', order_by: 'title:asc', search_title: 'true', search_description: undefined, visibility: 1 }),
      token,
      zap.headers,
    );
    expect(found.status).toBe(200);
    expect(found.body.data[0]).toMatchObject({ id: link.body.id, title: 'Zapped article' });
    // another user's zap does not find it, although the link is public
    const theirs = await call('GET', zap.url('/api/v2/search/links', { query: 'zapped', search_title: 'true' }), other, zap.headers);
    expect(theirs.body.data).toEqual([]);
  });
});
