import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { setup, type Fixture } from './helpers.js';
import { openDb } from '../../../src/services/bookmarks/store/db.js';
import { removeUser, addUser } from '../../helpers/admin.js';

let f: Fixture;
beforeEach(async () => {
  f = await setup();
});
afterEach(async () => {
  await f.close();
});
const urls = async (q: string, token = f.A) => (await f.req(token, 'GET', `/api/v2/search/links?${q}&per_page=-1`)).body.data.map((l: any) => l.url).sort();

describe('the substring index behind search', () => {
  test('long and short queries, case, quotes and unicode all behave like LIKE substring matching', async () => {
    for (const [url, title] of [
      ['https://a.example/Über-Straße', 'He said "hello"'],
      ['https://b.example/x', 'AB testing'],
      ['https://c.example/path?q=1', 'Ünïcode ✓ title'],
    ])
      await f.req(f.A, 'POST', '/api/v2/links', { url, title });
    expect(await urls('query=ÜBER')).toEqual(['https://a.example/Über-Straße']); // trigram folds case beyond ASCII; LIKE re-check keeps it
    expect(await urls('query=b.e')).toEqual(['https://b.example/x']);
    expect(await urls('query=ab&search_title=1')).toEqual(['https://b.example/x']); // 2 characters: plain scan
    expect(await urls('query=%22hello%22&search_title=1')).toEqual(['https://a.example/Über-Straße']);
    expect(await urls('query=%22hello&search_title=1')).toEqual(['https://a.example/Über-Straße']);
    expect(await urls('query=code ✓&search_title=1')).toEqual(['https://c.example/path?q=1']);
    expect(await urls('query=?q=1')).toEqual(['https://c.example/path?q=1']);
    expect(await urls('query=/x')).toEqual(['https://b.example/x']);
    expect(await urls('query=x')).toHaveLength(3);
  });

  test('the index follows updates and deletions (trash clear, removal of a user)', async () => {
    const a = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://old-name.example', title: 'first' })).body.id;
    await f.req(f.A, 'PATCH', `/api/v2/links/${a}`, { url: 'https://new-name.example', title: 'second' });
    expect(await urls('query=old-name')).toEqual([]);
    expect(await urls('query=new-name')).toEqual(['https://new-name.example']);
    expect(await urls('query=second&search_title=1')).toEqual(['https://new-name.example']);
    expect(await urls('query=first&search_title=1')).toEqual([]);
    await f.req(f.A, 'DELETE', `/api/v2/links/${a}`);
    await f.req(f.A, 'DELETE', '/api/v2/trash/clear', { model: 'links' });
    expect(await urls('query=new-name')).toEqual([]);
    const { token } = addUser(f.sa.dataDir, { name: 'Z', email: 'z@example.com' });
    await f.req(token, 'POST', '/api/v2/links', { url: 'https://zed.example', visibility: 1 });
    expect(await urls('query=zed.example', token)).toEqual(['https://zed.example']);
    // search is own-only; v1's filtered listing reads the same index under the visibility rules
    const visible = async () => (await f.req(f.A, 'GET', '/api/v1/links?query=zed.example')).body.data.map((l: any) => l.url);
    expect(await visible()).toEqual(['https://zed.example']);
    removeUser(f.sa.dataDir, 'z@example.com');
    expect(await visible()).toEqual([]);
  });
});

describe('the cached list pages', () => {
  test('a page answered from the cache changes with every write, here or from another process', async () => {
    const list = async () => (await f.req(f.A, 'GET', '/api/v2/links?per_page=2')).body;
    const a = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://1.example', title: 'one' })).body.id;
    expect((await list()).data.map((l: any) => l.title)).toEqual(['one']);
    expect((await list()).data.map((l: any) => l.title)).toEqual(['one']);
    await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://2.example', title: 'two' });
    expect((await list()).meta.total).toBe(2);
    await f.req(f.A, 'PATCH', `/api/v2/links/${a}`, { title: 'uno' });
    expect((await list()).data.map((l: any) => l.title)).toEqual(['two', 'uno']);
    await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://3.example', title: 'three' });
    expect((await list()).meta).toMatchObject({ total: 3, last_page: 2 });
    // another connection (e.g. the CLI) changes the database
    const db = openDb(join(f.sa.dataDir, 'bookmarks'));
    db.prepare("UPDATE links SET title = 'changed elsewhere' WHERE url = 'https://3.example'").run();
    db.prepare("UPDATE links SET deleted_at = '2020-01-01T00:00:00.000000Z' WHERE url = 'https://2.example'").run();
    db.close();
    const after = await list();
    expect(after.data.map((l: any) => l.title)).toEqual(['changed elsewhere', 'uno']);
    expect(after.meta.total).toBe(2);
    await f.req(f.A, 'DELETE', `/api/v2/links/${a}`);
    expect((await list()).meta.total).toBe(1);
    await f.req(f.A, 'PATCH', '/api/v2/trash/restore', { model: 'link', id: a });
    expect((await list()).meta.total).toBe(2);
  });

  test('each caller gets their own page; the page URLs follow the request', async () => {
    await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://private.example', visibility: 3 });
    expect((await f.req(f.A, 'GET', '/api/v2/links')).body.meta.total).toBe(1);
    expect((await f.req(f.B, 'GET', '/api/v2/links')).body.meta.total).toBe(0);
    const other = await f.req(f.A, 'GET', '/api/v2/links', undefined, { host: 'bm.local:9999' });
    expect(other.body.links.first).toBe('http://bm.local:9999/api/v2/links?page=1');
  });
});
