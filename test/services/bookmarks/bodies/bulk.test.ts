/**
 * bodies/bulk.ts: each bulk body declared once; openapi.json documents the declaration that checks it, the
 * model cap is answered alone, a missing mode is reported in its field's place, visibility 0 changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type Fixture } from '../helpers.js';
import { newLinkBody } from '../../../../src/services/bookmarks/bodies/links.js';

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

describe('bulk bodies', () => {
  it('openapi.json documents each route with its declaration', () => {
    expect(documented('/api/v2/bulk/links', 'post')).toMatchObject({ required: ['models'], properties: { models: { type: 'array', maxItems: 1000 } } });
    expect(documented('/api/v2/bulk/links', 'post').properties.models.items.properties).toEqual(newLinkBody.schema.properties);
    expect(Object.keys(documented('/api/v2/bulk/links', 'patch').properties)).toEqual(['models', 'tags', 'lists', 'tags_mode', 'lists_mode', 'visibility']);
    expect(documented('/api/v2/bulk/tags', 'patch').properties.models.items).toEqual({ type: 'integer', minimum: 1 });
    expect(documented('/api/v2/bulk/delete', 'delete').required).toEqual(['type', 'models']);
  });

  it('a models array over the cap is answered alone, whatever else is wrong', async () => {
    const models = Array.from({ length: 1001 }, (_, i) => i + 1);
    for (const [method, path, body] of [
      ['DELETE', '/api/v2/bulk/delete', { type: 'users', models }],
      ['PATCH', '/api/v2/bulk/links', { models, visibility: 9 }],
      ['PATCH', '/api/v2/bulk/lists', { models, visibility: 9 }],
    ] as const) {
      const r = await f.req(f.A, method, path, body);
      expect(r.body.errors, path).toEqual({ models: ['The models must not have more than 1000 items.'] });
    }
  });

  it("a mode is required with its tags or lists, reported in its field's place", async () => {
    const tag = await f.req(f.A, 'POST', '/api/v2/tags', { name: 'moded' });
    const r = await f.req(f.A, 'PATCH', '/api/v2/bulk/links', { models: [1], tags: [tag.body.id], lists_mode: 'x', visibility: 5 });
    expect(Object.keys(r.body.errors)).toEqual(['tags_mode', 'lists_mode', 'visibility']);
    expect(r.body.errors.tags_mode).toEqual(['The tags mode field is required.']);
  });

  it('visibility 0 leaves it as it is; a mode attaches the tags', async () => {
    const link = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://bulk-bodies.example', title: 't', visibility: 2 });
    const r = await f.req(f.A, 'PATCH', '/api/v2/bulk/links', { models: [link.body.id], tags: 'one,two', tags_mode: 'append', visibility: 0 });
    expect(r.status).toBe(200);
    expect(r.body[0].visibility).toBe(2);
    expect(r.body[0].tags.map((t: { name: string }) => t.name).sort()).toEqual(['one', 'two']);
  });
});
