/**
 * Attaching lists and tags follows LinkAce's update policy: your own and other users' that are not private.
 * User B tries to put a link into A's private list (or tag it with A's private tag) on create, update and bulk
 * edit, through v1 and v2: each is 422 naming the ids as unknown (their existence is not told), and A's list
 * and tag stay as they were. A's public list and tag attach.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

let f: Fixture;
let listA: number;
let tagA: number;
beforeEach(async () => {
  f = await setup();
  listA = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'A reads', visibility: 3 })).body.id;
  tagA = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 'a-tag', visibility: 3 })).body.id;
});
afterEach(async () => {
  await f.close();
});

const listMessage = (id: number) => `The selected lists are invalid: unknown list id ${id}.`;
const tagMessage = (id: number) => `The selected tags are invalid: unknown tag id ${id}.`;

async function expectAUnchanged() {
  const links = await f.req(f.A, 'GET', `/api/v2/lists/${listA}/links`);
  expect(links.status).toBe(200);
  expect(links.body.data).toEqual([]);
  expect((await f.req(f.A, 'GET', `/api/v2/tags/${tagA}/links`)).body.data).toEqual([]);
}

describe("attaching another user's private list or tag", () => {
  test('v2 create: 422 naming the ids, nothing created', async () => {
    const r = await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b.example', lists: [listA], tags: [tagA] });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ lists: [listMessage(listA)], tags: [tagMessage(tagA)] });
    expect(r.body.message).toBe(`${listMessage(listA)} (and 1 more error)`);
    expect((await f.req(f.B, 'GET', '/api/v2/links')).body.data).toEqual([]);
    await expectAUnchanged();
  });

  test('v1 create and v1/v2 update: 422', async () => {
    const v1 = await f.req(f.B, 'POST', '/api/v1/links', { url: 'https://b1.example', lists: [listA] });
    expect(v1.status).toBe(422);
    expect(v1.body.errors).toEqual({ lists: [listMessage(listA)] });
    const own = (await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b2.example' })).body.id;
    for (const [method, url] of [
      ['PATCH', `/api/v2/links/${own}`],
      ['PUT', `/api/v2/links/${own}`],
      ['PATCH', `/api/v1/links/${own}`],
      ['PUT', `/api/v1/links/${own}`],
    ] as const) {
      const r = await f.req(f.B, method, url, { url: 'https://b2.example', tags: [tagA], lists: `${listA}` });
      expect(r.status, `${method} ${url}`).toBe(422);
      expect(r.body.errors, `${method} ${url}`).toEqual({ lists: [listMessage(listA)], tags: [tagMessage(tagA)] });
    }
    await expectAUnchanged();
  });

  test('bulk create and bulk edit: 422', async () => {
    const r = await f.req(f.B, 'POST', '/api/v2/bulk/links', { models: [{ url: 'https://ok.example' }, { url: 'https://b3.example', lists: [listA] }] });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ 'models.1.lists': [listMessage(listA).replace('selected lists', 'selected models.1.lists')] });
    const own = (await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b4.example' })).body.id;
    const edit = await f.req(f.B, 'PATCH', '/api/v2/bulk/links', { models: [own], lists: [listA], lists_mode: 'append', tags: [tagA], tags_mode: 'replace' });
    expect(edit.status).toBe(422);
    expect(edit.body.errors).toEqual({ tags: [tagMessage(tagA)], lists: [listMessage(listA)] });
    await expectAUnchanged();
  });

  test("names create the caller's own tag and list, even when another user has one of that name", async () => {
    const r = await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b5.example', tags: ['a-tag'], lists: ['A reads'] });
    expect(r.status).toBe(200);
    expect(r.body.tags[0].id).not.toBe(tagA);
    expect(r.body.lists[0].id).not.toBe(listA);
    expect(r.body.tags[0].user_id).toBe(r.body.user_id);
    expect(r.body.lists[0].user_id).toBe(r.body.user_id);
    await expectAUnchanged();
  });

  test("another user's public and internal lists and tags attach by id, on create, update and bulk edit", async () => {
    const shared = [
      (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'A public', visibility: 1 })).body.id,
      (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'A internal', visibility: 2 })).body.id,
    ];
    const tag = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 'a-internal', visibility: 2 })).body.id;
    const c = await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b6.example', lists: shared, tags: [tag] });
    expect(c.status).toBe(200);
    expect([c.body.lists.map((l: any) => l.id).sort(), c.body.tags.map((t: any) => t.id)]).toEqual([[...shared].sort(), [tag]]);
    const v1 = await f.req(f.B, 'POST', '/api/v1/links', { url: 'https://b7.example', lists: `${shared[0]}` });
    expect([v1.status, v1.body.lists.map((l: any) => l.id)]).toEqual([201, [shared[0]]]);
    const own = (await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b8.example' })).body.id;
    expect((await f.req(f.B, 'PATCH', `/api/v2/links/${own}`, { tags: [tag] })).body.tags.map((t: any) => t.id)).toEqual([tag]);
    const bulk = await f.req(f.B, 'PATCH', '/api/v2/bulk/links', { models: [own], lists: [shared[1]], lists_mode: 'append' });
    expect(bulk.body[0].lists.map((l: any) => l.id)).toEqual([shared[1]]);
    // A sees B's links in A's lists only where B's links are visible to A (B's default is private)
    const inList = await f.req(f.A, 'GET', `/api/v2/lists/${shared[0]}/links`);
    expect(inList.body.data).toEqual([]);
    expect((await f.req(f.B, 'GET', `/api/v2/lists/${shared[0]}/links`)).body.data.map((l: any) => l.url).sort()).toEqual(['https://b6.example', 'https://b7.example']);
  });

  test('your own lists and tags still attach by id', async () => {
    const r = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example', lists: [listA], tags: [tagA] });
    expect(r.status).toBe(200);
    expect((await f.req(f.A, 'GET', `/api/v2/lists/${listA}/links`)).body.data.map((l: any) => l.url)).toEqual(['https://a.example']);
  });
});
