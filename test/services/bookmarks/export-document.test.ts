/** `GET /api/v1/export?format=json`: the whole export document in one answer, scoped to what the caller may see. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

describe('export document', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setup();
    await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a1.example', title: 'A1', visibility: 1, tags: ['zeta', 'alpha'], lists: ['reading'] });
    await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://a2.example', title: 'A2', visibility: 3, tags: ['alpha'] });
    await f.req(f.A, 'POST', '/api/v2/lists', { name: 'empty', description: 'nothing yet', visibility: 2 });
    await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b1.example', title: 'B1', visibility: 3, tags: ['secret'] });
    await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b2.example', title: 'B2', visibility: 2, tags: ['shared'] });
  });
  afterAll(async () => {
    await f.close();
  });

  test('links by id with sorted tag and list names; lists and tags by name with their settings', async () => {
    const r = await f.req(f.A, 'GET', '/api/v1/export?format=json');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ format: 'ops-bookmarks', version: 1 });
    expect(r.body.links.map((l: any) => [l.url, l.tags, l.lists])).toEqual([
      ['https://a1.example', ['alpha', 'zeta'], ['reading']],
      ['https://a2.example', ['alpha'], []],
      ['https://b2.example', [], []], // B's tag "shared" is private (the default visibility)
    ]);
    expect(r.body.links[0]).toMatchObject({ title: 'A1', visibility: 1, description: null, status: 1 });
    expect(r.body.lists).toEqual([
      { name: 'empty', description: 'nothing yet', visibility: 2 },
      { name: 'reading', description: null, visibility: expect.any(Number) },
    ]);
    expect(r.body.tags.map((t: any) => t.name)).toEqual(['alpha', 'zeta']);
  });

  test('another user sees only what visibility allows; html stays the default; other formats are 422', async () => {
    const b = await f.req(f.B, 'GET', '/api/v1/export?format=json');
    expect(b.body.links.map((l: any) => l.url)).toEqual(['https://a1.example', 'https://b1.example', 'https://b2.example']);
    expect(b.body.links.find((l: any) => l.url === 'https://b2.example').tags).toEqual(['shared']);
    expect(b.body.tags.map((t: any) => t.name)).toEqual(['secret', 'shared']); // A's tags are private
    const html = await f.req(f.A, 'GET', '/api/v1/export');
    expect(html.headers['content-type']).toContain('text/html');
    expect((await f.req(f.A, 'GET', '/api/v1/export?format=xml')).status).toBe(422);
  });
});
