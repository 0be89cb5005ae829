import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

let f: Fixture;
beforeEach(async () => {
  f = await setup();
});
afterEach(async () => {
  await f.close();
});

describe('bulk', () => {
  test('bulk create links, lists and tags answers the created objects in order', async () => {
    const r = await f.req(f.A, 'POST', '/api/v2/bulk/links', {
      models: [
        { url: 'https://one.example', title: 'One', tags: ['x'], visibility: 1 },
        { url: 'https://two.example', lists: 'reading' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.map((l: any) => [l.url, l.title])).toEqual([
      ['https://one.example', 'One'],
      ['https://two.example', 'two.example'],
    ]);
    expect(r.body[0].tags[0].name).toBe('x');
    expect(r.body[1].lists[0].name).toBe('reading');
    const lists = await f.req(f.A, 'POST', '/api/v2/bulk/lists', {
      models: [
        { name: 'L1', description: 'd' },
        { name: 'L2', visibility: 1 },
      ],
    });
    expect(lists.body.map((l: any) => [l.name, l.description, l.visibility])).toEqual([
      ['L1', 'd', 3],
      ['L2', null, 1],
    ]);
    const tags = await f.req(f.A, 'POST', '/api/v2/bulk/tags', { models: [{ name: 'T1' }, { name: 'T2' }] });
    expect(tags.body.map((t: any) => t.name)).toEqual(['T1', 'T2']);
    expect(f.events.filter((e) => e.type === 'tag.created').map((e) => e.data.name)).toEqual(['x', 'T1', 'T2']);
    expect(f.events.filter((e) => e.type === 'link.created')).toHaveLength(2);
  });

  test('bulk create validates everything first: one bad model creates nothing', async () => {
    const r = await f.req(f.A, 'POST', '/api/v2/bulk/links', { models: [{ url: 'https://ok.example' }, { url: 'bad' }] });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ 'models.1.url': ['The models.1.url must be a valid URL.'] });
    expect((await f.req(f.A, 'GET', '/api/v2/links')).body.data).toEqual([]);
  });

  test('bulk edit links: append and replace tags/lists, visibility; missing ids omitted', async () => {
    const t1 = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 't1' })).body.id;
    const t2 = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 't2' })).body.id;
    const l1 = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'l1' })).body.id;
    const a = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example', tags: [t1], visibility: 2 })).body.id;
    const b = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://b.example', lists: [l1], visibility: 3 })).body.id;
    const r = await f.req(f.A, 'PATCH', '/api/v2/bulk/links', { models: [a, 999, b], tags: [t2], tags_mode: 'append', lists: [], lists_mode: 'replace', visibility: 1 });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(2);
    expect(r.body.map((l: any) => [l.id, l.visibility, l.tags.map((t: any) => t.name), l.lists.length])).toEqual([
      [a, 1, ['t1', 't2'], 0],
      [b, 1, ['t2'], 0],
    ]);
    const keep = await f.req(f.A, 'PATCH', '/api/v2/bulk/links', { models: [a], tags: ['new'], tags_mode: 'replace', visibility: null });
    expect(keep.body[0]).toMatchObject({ visibility: 1, tags: [{ name: 'new' }] });
  });

  test('bulk edit lists/tags visibility and bulk delete with partial permission', async () => {
    const mine = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 'mine', visibility: 3 })).body.id;
    const theirs = (await f.req(f.B, 'POST', '/api/v2/tags', { name: 'theirs', visibility: 1 })).body.id;
    const hidden = (await f.req(f.B, 'POST', '/api/v2/tags', { name: 'hidden', visibility: 3 })).body.id;
    // LinkAce's policies: another user's shared tag may be updated, not a private one; only the owner deletes
    const r = await f.req(f.A, 'PATCH', '/api/v2/bulk/tags', { models: [mine, theirs, hidden], visibility: 2 });
    expect(r.body.map((t: any) => t && [t.id, t.visibility])).toEqual([[mine, 2], [theirs, 2], null]);
    const list = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'list' })).body.id;
    expect((await f.req(f.A, 'PATCH', '/api/v2/bulk/lists', { models: [list], visibility: 1 })).body[0].visibility).toBe(1);
    const d = await f.req(f.A, 'DELETE', '/api/v2/bulk/delete', { type: 'tags', models: [mine, theirs, 4242] });
    expect(d.body).toEqual({ [mine]: true, [theirs]: false });
    expect((await f.req(f.A, 'GET', '/api/v2/trash/tags')).body.map((t: any) => t.id)).toEqual([mine]);
    expect((await f.req(f.B, 'GET', `/api/v2/tags/${theirs}`)).status).toBe(200);
  });
});

describe('trash', () => {
  test('lists trashed links, lists, tags and notes; restore brings them back; clear deletes for good', async () => {
    const tag = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 'Examples' })).body.id;
    const list = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'A Tests List' })).body.id;
    const link = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://example.com', tags: [tag], lists: [list] })).body.id;
    const note = (await f.req(f.A, 'POST', '/api/v2/notes', { link_id: link, note: 'Quisque placerat' })).body.id;
    for (const [kind, id] of [
      ['notes', note],
      ['links', link],
      ['lists', list],
      ['tags', tag],
    ] as const)
      expect((await f.req(f.A, 'DELETE', `/api/v2/${kind}/${id}`)).body).toEqual([]);
    for (const [kind, id] of [
      ['notes', note],
      ['links', link],
      ['lists', list],
      ['tags', tag],
    ] as const) {
      const t = await f.req(f.A, 'GET', `/api/v2/trash/${kind}`);
      expect(t.body.map((x: any) => x.id)).toEqual([id]);
      expect(t.body[0].deleted_at).not.toBeNull();
    }
    expect((await f.req(f.A, 'GET', `/api/v2/tags/${tag}`)).status).toBe(404);
    // restore (singular model names), "1" accepted as id; restoring an active item is a no-op
    expect((await f.req(f.A, 'PATCH', '/api/v2/trash/restore', { model: 'link', id: String(link) })).body).toEqual([]);
    expect((await f.req(f.A, 'PATCH', '/api/v2/trash/restore', { model: 'link', id: link })).status).toBe(200);
    expect((await f.req(f.A, 'PATCH', '/api/v2/trash/restore', { model: 'tag', id: tag })).status).toBe(200);
    const back = await f.req(f.A, 'GET', `/api/v2/links/${link}`);
    expect(back.status).toBe(200);
    expect(back.body.tags.map((t: any) => t.name)).toEqual(['Examples']);
    expect(back.body.lists).toEqual([]); // the list is still in the trash
    expect((await f.req(f.A, 'PATCH', '/api/v2/trash/restore', { model: 'note', id: 4242 })).status).toBe(404);
    // clear: permanent
    expect((await f.req(f.A, 'DELETE', '/api/v2/trash/clear', { model: 'lists' })).body).toEqual([]);
    expect((await f.req(f.A, 'GET', '/api/v2/trash/lists')).body).toEqual([]);
    expect((await f.req(f.A, 'PATCH', '/api/v2/trash/restore', { model: 'list', id: list })).status).toBe(404);
    expect((await f.req(f.A, 'GET', '/api/v2/trash/notes')).body).toHaveLength(1);
    await f.req(f.A, 'DELETE', '/api/v2/links/' + link);
    await f.req(f.A, 'DELETE', '/api/v2/trash/clear', { model: 'links' });
    // a cleared link takes its notes with it and frees its URL
    expect((await f.req(f.A, 'GET', '/api/v2/trash/notes')).body).toEqual([]);
    expect((await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://example.com' })).status).toBe(200);
  });

  test('trashed links disappear from lists, tags, search and counts', async () => {
    const tag = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 't' })).body.id;
    const a = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example', tags: [tag] })).body.id;
    await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://b.example', tags: [tag] });
    expect((await f.req(f.A, 'GET', '/api/v2/links?per_page=1')).body.meta.total).toBe(2);
    await f.req(f.A, 'DELETE', `/api/v2/links/${a}`);
    expect((await f.req(f.A, 'GET', '/api/v2/links?per_page=1')).body.meta.total).toBe(1);
    expect((await f.req(f.A, 'GET', `/api/v2/tags/${tag}/links`)).body.meta.total).toBe(1);
    expect((await f.req(f.A, 'GET', '/api/v2/search/links?query=a.example')).body.data).toEqual([]);
  });
});

describe('lists, tags and notes CRUD', () => {
  test('notes of a link: every order_by value, and 422 for others', async () => {
    const l = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://order.example' })).body.id;
    for (const [text, vis] of [
      ['b note', 2],
      ['a note', 3],
      ['c note', 1],
    ] as const)
      await f.req(f.A, 'POST', '/api/v2/notes', { link_id: l, note: text, visibility: vis });
    const notes = async (q: string) => (await f.req(f.A, 'GET', `/api/v2/links/${l}/notes?${q}`)).body.data.map((n: any) => n.note);
    expect(await notes('order_by=note&order_dir=asc')).toEqual(['a note', 'b note', 'c note']);
    expect(await notes('order_by=visibility&order_dir=desc')).toEqual(['a note', 'b note', 'c note']);
    expect(await notes('order_by=id&order_dir=asc')).toEqual(['b note', 'a note', 'c note']);
    expect(await notes('order_by=created_at&order_dir=desc')).toEqual(['c note', 'a note', 'b note']);
    expect(await notes('order_by=updated_at&order_dir=asc')).toEqual(['b note', 'a note', 'c note']);
    expect((await f.req(f.A, 'GET', `/api/v2/links/${l}/notes?order_by=link_id`)).status).toBe(422);
  });

  test('list: create, get with its links URL, update, delete', async () => {
    const c = await f.req(f.A, 'POST', '/api/v2/lists', { name: 'Reading', description: 'Later', visibility: 2 });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ name: 'Reading', description: 'Later', visibility: 2, user_id: 1, deleted_at: null });
    const g = await f.req(f.A, 'GET', `/api/v2/lists/${c.body.id}`);
    expect(g.body.links).toBe(`http://localhost:80/api/v2/lists/${c.body.id}/links`);
    const u = await f.req(f.A, 'PATCH', `/api/v2/lists/${c.body.id}`, { description: null });
    expect(u.body).toMatchObject({ name: 'Reading', description: null, visibility: 2 });
    expect((await f.req(f.B, 'PATCH', `/api/v2/lists/${c.body.id}`, { description: 'shared' })).body).toMatchObject({ name: 'Reading', description: 'shared', user_id: 1 });
    expect((await f.req(f.B, 'DELETE', `/api/v2/lists/${c.body.id}`)).status).toBe(403);
    expect((await f.req(f.A, 'DELETE', `/api/v2/lists/${c.body.id}`)).status).toBe(200);
    expect((await f.req(f.A, 'GET', `/api/v2/lists/${c.body.id}`)).status).toBe(404);
    expect((await f.req(f.A, 'GET', '/api/v2/lists/123')).body.message).toContain('LinkList');
  });

  test('tag: create, update, links of a tag with pivot', async () => {
    const t = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 'news', visibility: 1 })).body;
    expect(t).toMatchObject({ name: 'news', visibility: 1 });
    expect(t.description).toBeUndefined();
    const l = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://n.example', tags: [t.id] })).body;
    const r = await f.req(f.A, 'GET', `/api/v2/tags/${t.id}/links`);
    expect(r.body.data[0]).toMatchObject({ id: l.id, pivot: { tag_id: t.id, link_id: l.id } });
    expect((await f.req(f.A, 'PUT', `/api/v2/tags/${t.id}`, { name: 'headlines' })).body.name).toBe('headlines');
  });

  test('notes: create, list per link (paginated), update, delete; GET /notes/{id} is not a route', async () => {
    const l = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://n.example', visibility: 1 })).body.id;
    const n = await f.req(f.A, 'POST', '/api/v2/notes', { link_id: l, note: '**markdown** kept raw', visibility: 1 });
    expect(n.body).toMatchObject({ link_id: l, note: '**markdown** kept raw', visibility: 1, user_id: 1 });
    const other = await f.req(f.B, 'POST', '/api/v2/notes', { link_id: l, note: 'from B', visibility: 2 });
    expect(other.status).toBe(200);
    const list = await f.req(f.A, 'GET', `/api/v2/links/${l}/notes`);
    expect(list.body.data.map((x: any) => x.note)).toEqual(['from B', '**markdown** kept raw']);
    expect(list.body.meta.total).toBe(2);
    expect((await f.req(f.A, 'PATCH', `/api/v2/notes/${n.body.id}`, { note: 'edited' })).body.note).toBe('edited');
    // B's internal note: A may update it (LinkAce's NotePolicy), not delete it
    expect((await f.req(f.A, 'PATCH', `/api/v2/notes/${other.body.id}`, { note: 'x' })).body).toMatchObject({ note: 'x', user_id: other.body.user_id });
    expect((await f.req(f.A, 'DELETE', `/api/v2/notes/${other.body.id}`)).status).toBe(403);
    expect((await f.req(f.A, 'DELETE', `/api/v2/notes/${n.body.id}`)).body).toEqual([]);
    expect((await f.req(f.A, 'GET', `/api/v2/notes/${n.body.id}`)).status).toBe(405);
    expect((await f.req(f.A, 'GET', '/api/v2/links/999/notes')).status).toBe(404);
  });
});
