/**
 * bodies/links.ts: each link body is declared once; openapi.json documents the declaration that checks it
 * (required url on create only, is_private instead of visibility on v1), and the action answers its format
 * and database problems together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type Fixture } from '../helpers.js';
import { linkUpdateBody, linkUpdateV1Body, newLinkBody, newLinkV1Body } from '../../../../src/services/bookmarks/bodies/links.js';

let f: Fixture;
let spec: any;
beforeAll(async () => {
  f = await setup();
  spec = (await f.req(null, 'GET', '/openapi.json')).body;
});
afterAll(async () => {
  await f.close();
});

function documented(path: string, method: string): any {
  const content = spec.paths[path][method].requestBody.content as Record<string, { schema: any }>;
  return Object.values(content)[0]!.schema;
}

describe('link bodies', () => {
  it('openapi.json documents each route with its declaration', () => {
    expect(documented('/api/v2/links', 'post')).toMatchObject({ required: ['url'], properties: newLinkBody.schema.properties as object });
    expect(documented('/api/v2/links/{id}', 'patch').required).toBeUndefined();
    expect(documented('/api/v2/links/{id}', 'patch').properties).toEqual(linkUpdateBody.schema.properties);
    expect(Object.keys(documented('/api/v1/links', 'post').properties)).toEqual(Object.keys(newLinkV1Body.schema.properties as object));
    expect(Object.keys(linkUpdateV1Body.schema.properties as object)).toContain('is_private');
    expect(Object.keys(linkUpdateV1Body.schema.properties as object)).not.toContain('visibility');
    const bulkItems = documented('/api/v2/bulk/links', 'post').properties.models.items;
    expect(bulkItems.required).toEqual(['url']);
  });

  it('a url is required on create, may be left out on update, but not cleared', async () => {
    const none = await f.req(f.A, 'POST', '/api/v2/links', { title: 'x' });
    expect(none.body.errors).toEqual({ url: ['The url field is required.'] });
    const link = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://bodies.example', title: 'kept' });
    const titled = await f.req(f.A, 'PATCH', `/api/v2/links/${link.body.id}`, { description: 'd' });
    expect(titled.status).toBe(200);
    expect(titled.body.url).toBe('https://bodies.example');
    const cleared = await f.req(f.A, 'PATCH', `/api/v2/links/${link.body.id}`, { url: '  ' });
    expect(cleared.body.errors).toEqual({ url: ['The url field is required.'] });
  });

  it('null clears a field on update: title falls back to the url, description is emptied', async () => {
    const link = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://clear.example/page', title: 't', description: 'd' });
    const patched = await f.req(f.A, 'PATCH', `/api/v2/links/${link.body.id}`, { title: null, description: '' });
    expect(patched.status).toBe(200);
    expect(patched.body.description).toBeNull();
    expect(patched.body.title).not.toBe('t');
  });

  it('format and database problems come in one answer, format first, nothing written', async () => {
    await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://once.example' });
    const r = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://once.example', icon: 'i'.repeat(256), tags: [424242] });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(['icon', 'tags', 'url']);
    const all = await f.req(f.A, 'GET', '/api/v2/links?per_page=-1');
    expect(all.body.data.filter((l: { url: string }) => l.url === 'https://once.example')).toHaveLength(1);
  });
});
