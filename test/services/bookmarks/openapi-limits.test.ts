/**
 * openapi.json documents the length limits that are enforced: for every request-body field with a
 * maxLength, a value of that length is accepted and one character more is refused (422 on that field).
 * Read from the served document, so the two cannot drift apart.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

let f: Fixture;
let spec: any;
let linkId: number;
let n = 0;
beforeAll(async () => {
  f = await setup();
  spec = (await f.req(null, 'GET', '/openapi.json')).body;
  linkId = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://notes.example', title: 'notes' })).body.id;
});
afterAll(async () => {
  await f.close();
});

/** The documented maxLength of a request-body field (for arrays, of their items). */
function maxLengthOf(path: string, field: string): number {
  const content = spec.paths[path].post.requestBody.content as Record<string, { schema: any }>;
  const prop = Object.values(content)[0]!.schema.properties[field];
  const max = prop.maxLength ?? prop.items?.maxLength;
  expect(typeof max, `${path} ${field} documents a maxLength`).toBe('number');
  return max;
}

const uniqueUrl = () => `https://limits${++n}.example/`;
/** A url of exactly `length` characters. */
const urlOf = (length: number) => {
  const base = uniqueUrl();
  return base + 'a'.repeat(length - base.length);
};

const cases: [string, string, (value: string) => Record<string, unknown>, (length: number) => string][] = [
  ['/api/v2/links', 'url', (v) => ({ url: v, title: 't' }), urlOf],
  ['/api/v2/links', 'title', (v) => ({ url: uniqueUrl(), title: v }), (k) => 't'.repeat(k)],
  ['/api/v2/links', 'description', (v) => ({ url: uniqueUrl(), title: 't', description: v }), (k) => 'd'.repeat(k)],
  ['/api/v2/links', 'icon', (v) => ({ url: uniqueUrl(), title: 't', description: 'd', icon: v }), (k) => 'i'.repeat(k)],
  ['/api/v2/links', 'tags', (v) => ({ url: uniqueUrl(), title: 't', tags: [v] }), (k) => `${++n}`.padEnd(k, 'g')],
  ['/api/v2/links', 'lists', (v) => ({ url: uniqueUrl(), title: 't', lists: [v] }), (k) => `${++n}`.padEnd(k, 'l')],
  ['/api/v2/lists', 'name', (v) => ({ name: v }), (k) => `${++n}`.padEnd(k, 'l')],
  ['/api/v2/lists', 'description', (v) => ({ name: `list ${++n}`, description: v }), (k) => 'd'.repeat(k)],
  ['/api/v2/tags', 'name', (v) => ({ name: v }), (k) => `${++n}`.padEnd(k, 't')],
  ['/api/v2/notes', 'note', (v) => ({ link_id: linkId, note: v }), (k) => 'n'.repeat(k)],
];

describe('openapi.json length limits are the enforced ones', () => {
  test.each(cases)('POST %s %s', async (path, field, body, value) => {
    const max = maxLengthOf(path, field);
    const ok = await f.req(f.A, 'POST', path, body(value(max)));
    expect(ok.status, JSON.stringify(ok.body?.errors)).toBeLessThan(300);
    const over = await f.req(f.A, 'POST', path, body(value(max + 1)));
    expect(over.status).toBe(422);
    expect(Object.keys(over.body.errors)).toEqual([field]);
  });
});
