import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

const DT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
let f: Fixture;
beforeEach(async () => {
  f = await setup();
});
afterEach(async () => {
  await f.close();
});

describe('v2 links', () => {
  test('create answers 200 with the full link, its lists and tags; defaults are private, status ok, icon link', async () => {
    const list = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'Reading', visibility: 1 })).body;
    const r = await f.req(f.A, 'POST', '/api/v2/links', {
      url: 'https://example.com/page',
      title: 'Example',
      description: 'An example',
      lists: [list.id],
      tags: ['news', 'tech'],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: 1,
      user_id: 1,
      url: 'https://example.com/page',
      title: 'Example',
      description: 'An example',
      icon: 'link',
      visibility: 3,
      status: 1,
      check_disabled: false,
      last_checked_at: null,
      thumbnail: null,
      deleted_at: null,
    });
    expect(r.body.created_at).toMatch(DT);
    expect(r.body.updated_at).toMatch(DT);
    expect(r.body.lists.map((l: any) => l.name)).toEqual(['Reading']);
    expect(r.body.lists[0].pivot).toEqual({ link_id: 1, list_id: list.id });
    expect(r.body.tags.map((t: any) => t.name)).toEqual(['news', 'tech']);
    expect(r.body.tags[0].pivot).toEqual({ link_id: 1, tag_id: r.body.tags[0].id });
  });

  test('title falls back to the host and description to null when metadata fetching is off', async () => {
    const r = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://docs.example.org/a/b?c=1' });
    expect(r.body.title).toBe('docs.example.org');
    expect(r.body.description).toBeNull();
  });

  test('get answers the link with lists and tags ordered by name; unknown id 404, non-numeric 404', async () => {
    const c = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example', tags: 'zeta, alpha', visibility: 1 });
    const r = await f.req(f.A, 'GET', `/api/v2/links/${c.body.id}`);
    expect(r.status).toBe(200);
    expect(r.body.tags.map((t: any) => t.name)).toEqual(['alpha', 'zeta']);
    expect(r.body.lists).toEqual([]);
    expect((await f.req(f.A, 'GET', '/api/v2/links/999')).status).toBe(404);
    const nn = await f.req(f.A, 'GET', '/api/v2/links/abc');
    expect(nn.status).toBe(404);
    expect(nn.body.message).toBeTypeOf('string');
  });

  test('PATCH takes any subset; omitted tags and lists stay; PUT works the same', async () => {
    const c = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example', title: 'A', tags: ['t1'], visibility: 2 });
    const r = await f.req(f.A, 'PATCH', `/api/v2/links/${c.body.id}`, { title: 'New title' });
    expect(r.status).toBe(200);
    expect(r.body.title).toBe('New title');
    expect(r.body.url).toBe('https://a.example');
    expect(r.body.visibility).toBe(2);
    expect(r.body.tags.map((t: any) => t.name)).toEqual(['t1']);
    const p = await f.req(f.A, 'PUT', `/api/v2/links/${c.body.id}`, { visibility: 1, tags: [], check_disabled: true });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ visibility: 1, check_disabled: true, tags: [] });
    const d = await f.req(f.A, 'PATCH', `/api/v2/links/${c.body.id}`, { description: 'x' });
    expect(d.body.description).toBe('x');
    const cleared = await f.req(f.A, 'PATCH', `/api/v2/links/${c.body.id}`, { description: null });
    expect(cleared.body.description).toBeNull();
  });

  test('changing the URL resets the status; the URL must stay unique per user', async () => {
    const a = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example' });
    await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://b.example' });
    const dup = await f.req(f.A, 'PATCH', `/api/v2/links/${a.body.id}`, { url: 'https://b.example' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.url).toEqual(['The url has already been taken.']);
    const same = await f.req(f.A, 'PATCH', `/api/v2/links/${a.body.id}`, { url: 'https://a.example' });
    expect(same.status).toBe(200);
    const moved = await f.req(f.A, 'PATCH', `/api/v2/links/${a.body.id}`, { url: 'https://c.example' });
    expect(moved.body).toMatchObject({ url: 'https://c.example', status: 1, last_checked_at: null });
  });

  test('a URL is unique per user (trash included) but two users may save the same URL', async () => {
    const a = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://same.example' });
    expect((await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://same.example' })).status).toBe(422);
    expect((await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://same.example' })).status).toBe(200);
    await f.req(f.A, 'DELETE', `/api/v2/links/${a.body.id}`);
    const again = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://same.example' });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ message: 'The url has already been taken.', errors: { url: ['The url has already been taken.'] } });
  });

  test('delete answers 200 [] and moves the link to the trash; then 404', async () => {
    const a = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example' });
    const d = await f.req(f.A, 'DELETE', `/api/v2/links/${a.body.id}`, undefined, { 'content-type': 'application/json' });
    expect(d.status).toBe(200);
    expect(d.body).toEqual([]);
    expect((await f.req(f.A, 'GET', `/api/v2/links/${a.body.id}`)).status).toBe(404);
    expect((await f.req(f.A, 'DELETE', `/api/v2/links/${a.body.id}`)).status).toBe(404);
    const t = await f.req(f.A, 'GET', '/api/v2/trash/links');
    expect(t.body.map((l: any) => l.id)).toEqual([a.body.id]);
    expect(t.body[0].deleted_at).toMatch(DT);
  });

  test('others may update a shared link but only the owner may delete it (403); system tokens cannot write', async () => {
    const a = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example', visibility: 1 });
    expect((await f.req(f.B, 'PATCH', `/api/v2/links/${a.body.id}`, { title: 'shared edit' })).status).toBe(200);
    expect((await f.req(f.B, 'DELETE', `/api/v2/links/${a.body.id}`)).body).toEqual({ message: 'This action is unauthorized.' });
    expect((await f.req(f.SP, 'PATCH', `/api/v2/links/${a.body.id}`, { title: 'x' })).status).toBe(403);
    expect((await f.req(f.S, 'POST', '/api/v2/links', { url: 'https://s.example' })).status).toBe(403);
    expect((await f.req(f.A, 'GET', `/api/v2/links/${a.body.id}`)).body).toMatchObject({ title: 'shared edit', user_id: 1 });
  });

  test('PATCH of a missing link is 404 before validation; a foreign private link is 403 before validation', async () => {
    expect((await f.req(f.A, 'PATCH', '/api/v2/links/77', { url: 'not a url' })).status).toBe(404);
    const b = await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b.example', visibility: 3 });
    expect((await f.req(f.A, 'PATCH', `/api/v2/links/${b.body.id}`, { url: 'not a url' })).status).toBe(403);
  });

  test('tags and lists by id or name: names are found or created for the owner, ids must exist', async () => {
    const t = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 'existing' })).body;
    const r = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example', tags: [t.id, 'existing', 'fresh', String(t.id)] });
    expect(r.body.tags.map((x: any) => x.name)).toEqual(['existing', 'fresh']);
    const tags = await f.req(f.A, 'GET', '/api/v2/tags');
    expect(tags.body.data.map((x: any) => x.name).sort()).toEqual(['existing', 'fresh']);
    const bad = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://b.example', tags: [9999], lists: [8888] });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['lists', 'tags']);
  });

  test("another user's private tag cannot be attached by id", async () => {
    const t = (await f.req(f.B, 'POST', '/api/v2/tags', { name: 'secret', visibility: 3 })).body;
    const r = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example', tags: [t.id] });
    expect(r.status).toBe(422);
    expect(r.body.errors.tags[0]).toContain(String(t.id));
  });

  test('check: linksFound for an exact URL visible to the caller', async () => {
    await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example/x', visibility: 2 });
    await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example/private', visibility: 3 });
    expect((await f.req(f.A, 'GET', '/api/v2/links/check?url=https://a.example/x')).body).toEqual({ linksFound: true });
    expect((await f.req(f.A, 'GET', '/api/v2/links/check?url=https://a.example/x/')).body).toEqual({ linksFound: false });
    expect((await f.req(f.B, 'GET', '/api/v2/links/check?url=https://a.example/x')).body).toEqual({ linksFound: true });
    expect((await f.req(f.B, 'GET', '/api/v2/links/check?url=https://a.example/private')).body).toEqual({ linksFound: false });
  });

  test('check: an empty url parameter is a duplicate check answering false, not a health check', async () => {
    await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example/x' });
    for (const q of ['url=', 'url=%20%20', 'url']) {
      const r = await f.req(f.A, 'GET', `/api/v2/links/check?${q}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ linksFound: false });
    }
  });

  test('events: link.created, link.updated and tag.created carry the API objects', async () => {
    const r = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example', tags: ['new-tag'] });
    await f.req(f.A, 'PATCH', `/api/v2/links/${r.body.id}`, { title: 'T' });
    await f.req(f.A, 'POST', '/api/v2/tags', { name: 'solo' });
    const types = f.events.map((e) => e.type).filter((t) => !t.startsWith('user.'));
    expect(types).toEqual(['tag.created', 'link.created', 'link.updated', 'tag.created']);
    const created = f.events.find((e) => e.type === 'link.created')!;
    expect(created.data).toMatchObject({ id: r.body.id, url: 'https://a.example', tags: [{ name: 'new-tag' }] });
    expect(created.userId).toBe(1);
    expect(f.events.find((e) => e.type === 'link.updated')!.data).toMatchObject({ title: 'T' });
    expect(f.events.filter((e) => e.type === 'tag.created')[1]!.data).toMatchObject({ name: 'solo', user_id: 1 });
  });
});

describe('concurrent creates (group commit)', () => {
  test('creates arriving together all land; a duplicate among them fails alone', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => ({ url: `https://batch${i % 11}.example`, tags: [`t${i % 3}`] }));
    const results = await Promise.all(bodies.map((b) => f.req(f.A, 'POST', '/api/v2/links', b)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(11);
    const failed = results.filter((r) => r.status !== 200);
    expect(failed.map((r) => [r.status, r.body.errors])).toEqual([[422, { url: ['The url has already been taken.'] }]]);
    const list = await f.req(f.A, 'GET', '/api/v2/links?per_page=-1');
    expect(list.body.meta.total).toBe(11);
    expect(new Set(results.filter((r) => r.status === 200).map((r) => r.body.id)).size).toBe(11);
    expect((await f.req(f.A, 'GET', '/api/v2/tags')).body.data.map((t: any) => t.name).sort()).toEqual(['t0', 't1', 't2']);
  });

  test('the batcher isolates failures in savepoints and settles after the commit', async () => {
    const { WriteBatcher } = await import('../../../src/services/bookmarks/store/batch.js');
    const { openDb } = await import('../../../src/services/bookmarks/store/db.js');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'ops-bm-batch-'));
    const db = openDb(dir);
    db.exec('CREATE TABLE t (v INTEGER UNIQUE)');
    const b = new WriteBatcher(db);
    const ins = (v: number) => b.run(() => db.prepare('INSERT INTO t (v) VALUES (?)').run(v).changes);
    const outcomes = await Promise.allSettled([ins(1), ins(2), ins(1), ins(3)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const other = openDb(dir); // another connection sees the committed rows
    expect(other.prepare('SELECT v FROM t ORDER BY v').pluck().all()).toEqual([1, 2, 3]);
    other.close();
    db.close();
  });
});
