/**
 * bodies/collections.ts: each list and tag body declared once; openapi.json documents the declaration that
 * checks it, and a taken name is reported with the name's problems, before the other fields'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type Fixture } from '../helpers.js';
import { collectionBodyFor } from '../../../../src/services/bookmarks/bodies/collections.js';

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

describe('list and tag bodies', () => {
  it('openapi.json documents each route with its declaration', () => {
    expect(Object.keys(documented('/api/v2/lists', 'post').properties)).toEqual(['name', 'description', 'visibility']);
    expect(documented('/api/v2/lists', 'post').required).toEqual(['name']);
    expect(Object.keys(documented('/api/v2/tags/{id}', 'patch').properties)).toEqual(['name', 'visibility']);
    expect(documented('/api/v2/tags/{id}', 'patch').required).toBeUndefined();
    expect(Object.keys(documented('/api/v1/lists', 'post').properties)).toEqual(['name', 'description', 'is_private']);
    expect(documented('/api/v2/bulk/tags', 'post').properties.models.items.properties).toEqual(collectionBodyFor('tags', { create: true }).schema.properties);
  });

  it("a taken name comes first, with the other fields' problems in the same answer", async () => {
    await f.req(f.A, 'POST', '/api/v2/tags', { name: 'taken' });
    const r = await f.req(f.A, 'POST', '/api/v2/tags', { visibility: 8, name: ' ta,ken ' });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ name: ['The name has already been taken.'], visibility: ['The visibility must be either 1 (public), 2 (internal) or 3 (private).'] });
  });

  it('commas only is no name; renaming to the same name is allowed; v1 is_private sets the visibility', async () => {
    const commas = await f.req(f.A, 'POST', '/api/v1/lists', { name: ' , ,' });
    expect(commas.body.errors).toEqual({ name: ['The name field is required.'] });
    const list = await f.req(f.A, 'POST', '/api/v1/lists', { name: 'mine', is_private: true });
    expect(list.status).toBe(201);
    expect(list.body.is_private).toBe(true);
    const same = await f.req(f.A, 'PUT', `/api/v2/lists/${list.body.id}`, { name: 'mine', description: 'd' });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ name: 'mine', description: 'd', visibility: 3 });
  });

  it('bulk: a name given twice in one request is taken the second time, nothing is stored', async () => {
    const r = await f.req(f.A, 'POST', '/api/v2/bulk/lists', { models: [{ name: 'twice' }, { name: 'twice', description: ['x'] }] });
    expect(r.body.errors).toEqual({ 'models.1.description': ['The models.1.description must be a string.'] });
    const tags = await f.req(f.A, 'POST', '/api/v2/bulk/tags', { models: [{ name: 'twin' }, { name: 'twin', visibility: 9 }] });
    expect(tags.body.errors).toEqual({
      'models.1.name': ['The models.1.name has already been taken.'],
      'models.1.visibility': ['The models.1.visibility must be either 1 (public), 2 (internal) or 3 (private).'],
    });
    const listed = await f.req(f.A, 'GET', '/api/v2/tags?per_page=-1');
    expect(listed.body.data.map((t: { name: string }) => t.name)).not.toContain('twin');
  });
});
