/**
 * Only your own lists and tags can be attached to your links: user B tries to put a link into A's
 * public list (or tag it with A's public tag) on create, update and bulk edit, through v1 and v2.
 * Each is 422 naming the ids, and A's list and tag stay as they were.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

let f: Fixture;
let listA: number;
let tagA: number;
beforeEach(async () => {
  f = await setup();
  listA = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'A reads', visibility: 1 })).body.id;
  tagA = (await f.req(f.A, 'POST', '/api/v2/tags', { name: 'a-tag', visibility: 1 })).body.id;
});
afterEach(async () => {
  await f.close();
});

const listMessage = (id: number) => `The selected lists are invalid: list id ${id} belongs to another user; only your own lists can be attached.`;
const tagMessage = (id: number) => `The selected tags are invalid: tag id ${id} belongs to another user; only your own tags can be attached.`;

async function expectAUnchanged() {
  const links = await f.req(f.A, 'GET', `/api/v2/lists/${listA}/links`);
  expect(links.status).toBe(200);
  expect(links.body.data).toEqual([]);
  const tagged = await f.req(null, 'GET', `/api/v2/tags/${tagA}/links`);
  expect(tagged.body?.data ?? []).toEqual([]);
  expect((await f.req(f.A, 'GET', `/api/v2/tags/${tagA}/links`)).body.data).toEqual([]);
}

describe("attaching another user's list or tag", () => {
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

  test('your own lists and tags still attach by id', async () => {
    const r = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a.example', lists: [listA], tags: [tagA] });
    expect(r.status).toBe(200);
    expect((await f.req(f.A, 'GET', `/api/v2/lists/${listA}/links`)).body.data.map((l: any) => l.url)).toEqual(['https://a.example']);
  });
});
