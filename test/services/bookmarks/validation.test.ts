import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

let f: Fixture;
let linkId: number;
beforeAll(async () => {
  f = await setup();
  linkId = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://taken.example' })).body.id;
});
afterAll(async () => {
  await f.close();
});

async function errors(method: string, url: string, body?: unknown) {
  const r = await f.req(f.A, method, url, body);
  expect(r.status).toBe(422);
  expect(typeof r.body.message).toBe('string');
  return r.body.errors as Record<string, string[]>;
}

describe('link validation', () => {
  test.each([
    [{}, 'url', 'The url field is required.'],
    [{ url: '' }, 'url', 'The url field is required.'],
    [{ url: '   ' }, 'url', 'The url field is required.'],
    [{ url: 42 }, 'url', 'The url must be a string.'],
    [{ url: 'not a url' }, 'url', 'The url must be a valid URL.'],
    [{ url: 'javascript:alert(1)' }, 'url', 'The url must be a valid URL.'],
    [{ url: 'http://' }, 'url', 'The url must be a valid URL.'],
    [{ url: `https://x.example/${'a'.repeat(2100)}` }, 'url', 'The url must not be greater than 2048 characters.'],
    [{ url: 'https://taken.example' }, 'url', 'The url has already been taken.'],
    [{ url: 'https://ok.example', title: 'x'.repeat(256) }, 'title', 'The title must not be greater than 255 characters.'],
    [{ url: 'https://ok.example', title: ['a'] }, 'title', 'The title must be a string.'],
    [{ url: 'https://ok.example', description: 5 }, 'description', 'The description must be a string.'],
    [{ url: 'https://ok.example', visibility: 4 }, 'visibility', 'The visibility must be either 1 (public), 2 (internal) or 3 (private).'],
    [{ url: 'https://ok.example', visibility: 'hello' }, 'visibility', 'The visibility must be either 1 (public), 2 (internal) or 3 (private).'],
    [{ url: 'https://ok.example', visibility: 0 }, 'visibility', 'The visibility must be either 1 (public), 2 (internal) or 3 (private).'],
    [{ url: 'https://ok.example', check_disabled: 'maybe' }, 'check_disabled', 'The check disabled field must be true or false.'],
    [{ url: 'https://ok.example', tags: { a: 1 } }, 'tags', 'The tags must be an array of ids or names.'],
    [{ url: 'https://ok.example', lists: [true] }, 'lists', 'The lists must be an array of ids or names.'],
    [{ url: 'https://ok.example', tags: [123456] }, 'tags', 'The selected tags are invalid: unknown tag id 123456.'],
    [{ url: 'https://ok.example', lists: ['77'] }, 'lists', 'The selected lists are invalid: unknown list id 77.'],
    [{ url: 'https://ok.example', icon: 'i'.repeat(300) }, 'icon', 'The icon must not be greater than 255 characters.'],
  ])('create %j -> 422 on %s', async (body, field, message) => {
    const e = await errors('POST', '/api/v2/links', body);
    expect(e).toEqual({ [field]: [message] });
  });

  test('several errors: each field named, message counts the others', async () => {
    const r = await f.req(f.A, 'POST', '/api/v2/links', { visibility: 9, check_disabled: 'x' });
    expect(r.body).toEqual({
      message: 'The url field is required. (and 2 more errors)',
      errors: {
        url: ['The url field is required.'],
        visibility: ['The visibility must be either 1 (public), 2 (internal) or 3 (private).'],
        check_disabled: ['The check disabled field must be true or false.'],
      },
    });
  });

  test('accepted forms: "2" visibility, "1"/"0" booleans, comma-separated tag names; strings are trimmed', async () => {
    const r = await f.req(f.A, 'POST', '/api/v2/links', { url: '  https://forms.example  ', visibility: '2', check_disabled: '1', tags: ' a , b ,' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ url: 'https://forms.example', visibility: 2, check_disabled: true });
    expect(r.body.tags.map((t: any) => t.name)).toEqual(['a', 'b']);
  });

  test('a JSON body that is not an object counts as empty', async () => {
    expect(await errors('POST', '/api/v2/links', [1, 2])).toHaveProperty('url');
  });

  test('update validation', async () => {
    expect(await errors('PATCH', `/api/v2/links/${linkId}`, { url: 'nope' })).toEqual({ url: ['The url must be a valid URL.'] });
    expect(await errors('PATCH', `/api/v2/links/${linkId}`, { url: null })).toEqual({ url: ['The url field is required.'] });
    expect(await errors('PATCH', `/api/v2/links/${linkId}`, { url: '' })).toEqual({ url: ['The url field is required.'] });
    expect(await errors('PATCH', `/api/v2/links/${linkId}`, { visibility: 'x', title: 7 })).toEqual({
      title: ['The title must be a string.'],
      visibility: ['The visibility must be either 1 (public), 2 (internal) or 3 (private).'],
    });
  });
});

describe('list, tag and note validation', () => {
  test('lists', async () => {
    expect(await errors('POST', '/api/v2/lists', {})).toEqual({ name: ['The name field is required.'] });
    expect(await errors('POST', '/api/v2/lists', { name: ',,' })).toEqual({ name: ['The name field is required.'] });
    expect(await errors('POST', '/api/v2/lists', { name: 'n'.repeat(256) })).toEqual({ name: ['The name must not be greater than 255 characters.'] });
    expect(await errors('POST', '/api/v2/lists', { name: 'ok', description: ['bla'] })).toEqual({ description: ['The description must be a string.'] });
    expect(await errors('POST', '/api/v2/lists', { name: 'ok', visibility: 7 })).toHaveProperty('visibility');
    const a = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'one' })).body;
    // one list per name per user (issue 33; LinkAce itself checks only on rename)
    expect(await errors('POST', '/api/v2/lists', { name: 'one' })).toEqual({ name: ['The name has already been taken.'] });
    await f.req(f.A, 'POST', '/api/v2/lists', { name: 'two' });
    expect(await errors('PATCH', `/api/v2/lists/${a.id}`, { name: 'two' })).toEqual({ name: ['The name has already been taken.'] });
    expect((await f.req(f.A, 'PATCH', `/api/v2/lists/${a.id}`, { name: 'one' })).status).toBe(200);
  });

  test('tags: name required and unique per user (trash included); commas stripped', async () => {
    expect(await errors('POST', '/api/v2/tags', { visibility: 1 })).toEqual({ name: ['The name field is required.'] });
    const t = await f.req(f.A, 'POST', '/api/v2/tags', { name: 'un,ique' });
    expect(t.body.name).toBe('unique');
    expect(await errors('POST', '/api/v2/tags', { name: 'unique' })).toEqual({ name: ['The name has already been taken.'] });
    expect((await f.req(f.B, 'POST', '/api/v2/tags', { name: 'unique' })).status).toBe(200);
    await f.req(f.A, 'DELETE', `/api/v2/tags/${t.body.id}`);
    expect(await errors('POST', '/api/v2/tags', { name: 'unique' })).toEqual({ name: ['The name has already been taken.'] });
  });

  test('notes: authorized first, as LinkAce (a missing, null, unknown or hidden link is 403 before validation); then note required', async () => {
    const forbidden = { message: 'This action is unauthorized.' };
    const b = await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b-private.example', visibility: 3 });
    for (const body of [{}, { link_id: null, note: null }, { link_id: 'x', note: 'n' }, { link_id: 9999, note: 'n' }, { link_id: b.body.id, note: 'hi' }]) {
      for (const v of ['v1', 'v2']) {
        const r = await f.req(f.A, 'POST', `/api/${v}/notes`, body);
        expect([v, body, r.status, r.body]).toEqual([v, body, 403, forbidden]);
      }
    }
    expect(await errors('POST', '/api/v2/notes', { link_id: linkId })).toEqual({ note: ['The note field is required.'] });
    expect(await errors('POST', '/api/v2/notes', { link_id: `${linkId}`, note: null })).toEqual({ note: ['The note field is required.'] });
    expect(await errors('POST', '/api/v2/notes', { link_id: linkId, note: 'n'.repeat(20001) })).toHaveProperty('note');
    const n = await f.req(f.A, 'POST', '/api/v2/notes', { link_id: linkId, note: 'hello' });
    expect(await errors('PATCH', `/api/v2/notes/${n.body.id}`, { visibility: 5 })).toHaveProperty('visibility');
    expect(await errors('PATCH', `/api/v2/notes/${n.body.id}`, { note: null })).toEqual({ note: ['The note field is required.'] });
    expect(await errors('PATCH', `/api/v1/notes/${n.body.id}`, { note: null })).toEqual({ note: ['The note field is required.'] });
    expect((await f.req(f.A, 'PATCH', `/api/v2/notes/${n.body.id}`, {})).body.note).toBe('hello');
  });

  test('lists and tags: a name may be left out of an update but not cleared (LinkAce: 422, nothing changed)', async () => {
    for (const kind of ['lists', 'tags']) {
      const c = await f.req(f.A, 'POST', `/api/v2/${kind}`, { name: `keep ${kind}`, visibility: 2 });
      for (const v of ['v1', 'v2']) {
        for (const method of ['PATCH', 'PUT']) {
          expect(await errors(method, `/api/${v}/${kind}/${c.body.id}`, { name: null })).toEqual({ name: ['The name field is required.'] });
          expect(await errors(method, `/api/${v}/${kind}/${c.body.id}`, { name: '  ' })).toEqual({ name: ['The name field is required.'] });
        }
      }
      const now = await f.req(f.A, 'GET', `/api/v2/${kind}/${c.body.id}`);
      expect(now.body).toMatchObject({ name: `keep ${kind}`, visibility: 2 });
      expect((await f.req(f.A, 'PATCH', `/api/v2/${kind}/${c.body.id}`, { visibility: 1 })).body).toMatchObject({ name: `keep ${kind}`, visibility: 1 });
    }
  });

  test("LinkAce's own update checks: its messages, but 'must be either' where LinkAce writes 'must bei either'", async () => {
    const list = await f.req(f.A, 'POST', '/api/v2/lists', { name: 'messages' });
    expect(await errors('PATCH', `/api/v2/lists/${list.body.id}`, { name: null, description: ['bla'], visibility: 'hello' })).toEqual({
      name: ['The name field is required.'],
      description: ['The description must be a string.'],
      visibility: ['The visibility must be either 1 (public), 2 (internal) or 3 (private).'],
    });
  });

  test('trash bodies', async () => {
    expect(await errors('DELETE', '/api/v2/trash/clear', {})).toEqual({ model: ['The model field is required.'] });
    expect(await errors('DELETE', '/api/v2/trash/clear', { model: 'shoes' })).toEqual({ model: ['The selected model is invalid.'] });
    expect(await errors('PATCH', '/api/v2/trash/restore', { model: 'links' })).toEqual({
      model: ['The selected model is invalid.'],
      id: ['The id field is required.'],
    });
  });

  test('bulk bodies', async () => {
    expect(await errors('POST', '/api/v2/bulk/links', {})).toEqual({ models: ['The models field is required.'] });
    expect(await errors('POST', '/api/v2/bulk/links', { models: 'x' })).toEqual({ models: ['The models must be an array.'] });
    expect(await errors('POST', '/api/v2/bulk/links', { models: [{ url: 'https://n1.example' }, {}, 5] })).toEqual({
      'models.1.url': ['The models.1.url field is required.'],
      'models.2': ['The models.2 must be an object.'],
    });
    expect(await errors('POST', '/api/v2/bulk/tags', { models: [{ name: 'dup' }, { name: 'dup' }] })).toEqual({
      'models.1.name': ['The models.1.name has already been taken.'],
    });
    expect(await errors('PATCH', '/api/v2/bulk/links', { models: [1], tags: [1] })).toEqual({ tags_mode: ['The tags mode field is required.'] });
    expect(await errors('PATCH', '/api/v2/bulk/links', { models: ['a'] })).toEqual({ models: ['The models must be an array of ids.'] });
    expect(await errors('DELETE', '/api/v2/bulk/delete', { type: 'notes', models: [1] })).toEqual({ type: ['The selected type is invalid.'] });
  });

  test('search parameters', async () => {
    const e = await errors('GET', '/api/v2/search/links');
    expect(Object.keys(e)).toEqual(['query', 'only_lists', 'only_tags', 'broken_only']);
    expect(e.query).toEqual(['You must either enter a search query, or select a list, a tag or enable searching for broken links.']);
    expect(await errors('GET', '/api/v2/search/links?query=a&order_by=size:asc')).toEqual({ order_by: ['The selected order by is invalid.'] });
    expect(await errors('GET', '/api/v2/search/links?query=a&visibility=5')).toHaveProperty('visibility');
    expect(await errors('GET', '/api/v2/search/links?only_lists=a,b')).toHaveProperty('only_lists');
  });
});
