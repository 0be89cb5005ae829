/**
 * The bookmark API's 4xx bodies, to the byte: recorded before its errors and checks moved onto the shared kit
 * (services/kit) and kept since. LinkAce clients read `message` and `errors` (Laravel's 422 shape).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type Fixture } from './helpers.js';

let f: Fixture;
let linkId: number;
beforeAll(async () => {
  f = await setup();
  linkId = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://taken.example' })).body.id;
  await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://other.example' });
  await f.req(f.A, 'POST', '/api/v2/lists', { name: 'dup' });
  await f.req(f.A, 'POST', '/api/v2/tags', { name: 'duptag' });
});
afterAll(async () => {
  await f.close();
});

type Case = [name: string, token: 'A' | 'B' | null, method: string, url: string, body?: unknown, headers?: Record<string, string>];

describe('bookmark error bodies', () => {
  const cases: Case[] = [
    ['create link: many problems', 'A', 'POST', '/api/v2/links', { url: 'javascript:x', title: 'x'.repeat(256), visibility: 9, check_disabled: 'maybe', tags: { a: 1 }, lists: [true] }],
    ['create link: nothing', 'A', 'POST', '/api/v2/links', {}],
    ['create link: taken', 'A', 'POST', '/api/v2/links', { url: 'https://taken.example' }],
    ['patch link: taken', 'A', 'PATCH', '/api/v2/links/{id2}', { url: 'https://taken.example' }],
    ['patch link: bad fields', 'A', 'PATCH', '/api/v2/links/{id}', { description: 5, tags: [99999] }],
    ['v1 create link', 'A', 'POST', '/api/v1/links', { url: 'nope', is_private: 'perhaps' }],
    ['list: bad order', 'A', 'GET', '/api/v2/links?order_by=weird&order_dir=up&per_page=x'],
    ['list notes of a link: bad order', 'A', 'GET', '/api/v2/links/{id}/notes?order_by=nope'],
    ['check: bad id', 'A', 'GET', '/api/v2/links/check?id=0'],
    ['list create: nothing', 'A', 'POST', '/api/v2/lists', { name: '', visibility: 'x' }],
    ['tag create: long name', 'A', 'POST', '/api/v2/tags', { name: 'n'.repeat(300) }],
    ['note create: bad link', 'A', 'POST', '/api/v2/notes', { link_id: 'x', note: 5 }],
    ['bulk: too many models', 'A', 'POST', '/api/v2/bulk/links', { models: Array.from({ length: 1001 }, () => ({ url: 'https://x.example' })) }],
    ['bulk edit: bad mode', 'A', 'PATCH', '/api/v2/bulk/links', { models: ['x'], tags_mode: 'merge' }],
    ['bulk delete: bad type', 'A', 'DELETE', '/api/v2/bulk/delete', { models: [1], type: 'users' }],
    ['search: bad', 'A', 'GET', '/api/v2/search/links?query=&only_lists=x&per_page=-5&order_by=up'],
    ['trash: bad model', 'A', 'POST', '/api/v2/trash/restore', { model: 'user', id: 'x' }],
    ['trash restore: bad model and id', 'A', 'PATCH', '/api/v2/trash/restore', { model: 'user', id: 'x' }],
    ['trash restore: nothing', 'A', 'PATCH', '/api/v2/trash/restore', [1, 2]],
    ['trash restore: id below 1', 'A', 'PATCH', '/api/v1/trash/restore', { model: ' link ', id: '0' }],
    ['trash restore: not in the trash', 'A', 'PATCH', '/api/v2/trash/restore', { model: 'note', id: 12345 }],
    ['trash restore: guest with a bad body', null, 'PATCH', '/api/v2/trash/restore', { model: 'x' }],
    ['trash clear: no model', 'A', 'DELETE', '/api/v2/trash/clear', { model: '' }],
    ['trash clear: unknown model', 'A', 'DELETE', '/api/v1/trash/clear', { model: 'users' }],
    ['import: not multipart', 'A', 'POST', '/api/v1/import', { file: 'x' }],
    ['create link: format and database problems together', 'A', 'POST', '/api/v2/links', { url: 'https://taken.example', title: 5, tags: [99999, 'fine'], lists: [88888, 77777] }],
    ['create link: bad refs and a bad url', 'A', 'POST', '/api/v2/links', { url: ' ', tags: `a,${'n'.repeat(300)}`, lists: 'x,y', icon: 'i'.repeat(256), description: ['d'] }],
    ['create link: too many tags', 'A', 'POST', '/api/v2/links', { url: 'https://many.example', tags: Array.from({ length: 1001 }, (_, i) => `t${i}`) }],
    ['create link: not an object', 'A', 'POST', '/api/v2/links', [1, 2]],
    ['patch link: url cleared', 'A', 'PATCH', '/api/v2/links/{id}', { url: '', title: null, visibility: '0' }],
    ['put link: mixed', 'A', 'PUT', '/api/v2/links/{id}', { url: 'https://other.example', icon: 'i'.repeat(300), lists: [77777], visibility: '2', check_disabled: 'no' }],
    ['v1 create link: taken and unknown refs', 'A', 'POST', '/api/v1/links', { url: 'https://taken.example', lists: [66666], is_private: 2 }],
    ['v1 patch link: cleared and bad flag', 'A', 'PATCH', '/api/v1/links/{id}', { url: null, is_private: 'x', visibility: 99 }],
    ['v1 put link: taken', 'A', 'PUT', '/api/v1/links/{id2}', { url: 'https://taken.example', tags: [true] }],
    ['note create: too long, bad visibility', 'A', 'POST', '/api/v2/notes', { link_id: '{id}', note: 'n'.repeat(20001), visibility: 7 }],
    ['note create: no note', 'A', 'POST', '/api/v2/notes', { link_id: '{id}', note: '   ' }],
    ['v1 note create: bad flag', 'A', 'POST', '/api/v1/notes', { link_id: '{id}', note: 5, is_private: 'x' }],
    ['list create: taken and long description', 'A', 'POST', '/api/v2/lists', { name: 'dup', description: 'd'.repeat(20001) }],
    ['tag create: only commas', 'A', 'POST', '/api/v2/tags', { name: ',,', visibility: 0 }],
    ['v1 list create: bad flag', 'A', 'POST', '/api/v1/lists', { name: 5, is_private: 'x' }],
    ['v1 tag create: taken', 'A', 'POST', '/api/v1/tags', { name: 'duptag' }],
    [
      'bulk create links: mixed models',
      'A',
      'POST',
      '/api/v2/bulk/links',
      { models: [{ url: 'x' }, 'y', { url: 'https://taken.example', tags: [99999] }, { url: 'https://new.example' }, { url: 'https://new.example', visibility: 5 }] },
    ],
    ['bulk create tags: duplicates', 'A', 'POST', '/api/v2/bulk/tags', { models: [{ name: 'duptag' }, { name: 'fresh' }, { name: 'fresh' }, {}] }],
    ['bulk create lists: bad', 'A', 'POST', '/api/v2/bulk/lists', { models: 'x' }],
    ['bulk edit links: bad refs', 'A', 'PATCH', '/api/v2/bulk/links', { models: [1, 'x'], tags: [99999], lists: 'a', visibility: 9 }],
    ['bulk edit tags: bad', 'A', 'PATCH', '/api/v2/bulk/tags', { models: [], visibility: 'x' }],
    ['bulk delete: nothing', 'A', 'DELETE', '/api/v2/bulk/delete', {}],
    ['link: not found', 'A', 'GET', '/api/v2/links/999999'],
    ['link: not a number', 'A', 'GET', '/api/v2/links/abc'],
    ['link of another user: forbidden', 'B', 'PATCH', '/api/v2/links/{id}', { title: 'x' }],
    ['unauthenticated', null, 'GET', '/api/v2/links'],
    ['no route', 'A', 'GET', '/api/v2/nothing'],
    ['wrong method', 'A', 'POST', '/api/v2/links/{id}'],
    ['bad JSON', 'A', 'POST', '/api/v2/links', '{"url":'],
    ['not JSON', 'A', 'POST', '/api/v2/links', 'url=x', { 'content-type': 'text/plain' }],
    ['form body', 'A', 'POST', '/api/v2/links', 'url=&tags[]=a&visibility=7', { 'content-type': 'application/x-www-form-urlencoded' }],
  ];
  for (const [name, who, method, url, body, headers] of cases) {
    it(name, async () => {
      const token = who === null ? null : f[who];
      const ids = (text: string) =>
        text
          .replaceAll('"{id}"', String(linkId))
          .replace('{id2}', String(linkId + 1))
          .replace('{id}', String(linkId));
      const given = body !== null && typeof body === 'object' ? JSON.parse(ids(JSON.stringify(body))) : body;
      const r = await f.req(token, method, ids(url), given, headers);
      expect({ status: r.status, body: r.text }).toMatchSnapshot();
    });
  }
});
