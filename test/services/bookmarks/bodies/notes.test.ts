/**
 * bodies/notes.ts: each note body declared once; openapi.json documents the declaration that checks it, the
 * link is authorized before the body is read, a v1 `is_private` that is not a boolean is answered alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type Fixture } from '../helpers.js';
import { newNoteBody, newNoteV1Body, noteUpdateBody } from '../../../../src/services/bookmarks/bodies/notes.js';

let f: Fixture;
let spec: any;
let linkId: number;
let privateOfB: number;
beforeAll(async () => {
  f = await setup();
  spec = (await f.req(null, 'GET', '/openapi.json')).body;
  linkId = (await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://notes-bodies.example', title: 't' })).body.id;
  privateOfB = (await f.req(f.B, 'POST', '/api/v2/links', { url: 'https://b-private.example', title: 't', visibility: 3 })).body.id;
});
afterAll(async () => {
  await f.close();
});

function documented(path: string, method: string): any {
  const content = spec.paths[path][method].requestBody.content as Record<string, { schema: any }>;
  return Object.values(content)[0]!.schema;
}

describe('note bodies', () => {
  it('openapi.json documents each route with its declaration', () => {
    expect(documented('/api/v2/notes', 'post')).toMatchObject({ required: ['note'], properties: newNoteBody.schema.properties as object });
    expect(documented('/api/v2/notes/{id}', 'patch').properties).toEqual(noteUpdateBody.schema.properties);
    expect(documented('/api/v2/notes/{id}', 'patch').required).toBeUndefined();
    expect(Object.keys(documented('/api/v1/notes', 'post').properties)).toEqual(Object.keys(newNoteV1Body.schema.properties as object));
    expect(Object.keys(documented('/api/v1/notes', 'post').properties)).toEqual(['link_id', 'note', 'is_private']);
  });

  it('the link is authorized before the body is read (v2 and v1)', async () => {
    for (const path of ['/api/v2/notes', '/api/v1/notes']) {
      const r = await f.req(f.A, 'POST', path, { link_id: privateOfB, note: 5, is_private: 'x', visibility: 9 });
      expect(r.status, path).toBe(403);
    }
  });

  it('v1: a bad is_private is answered alone; a v1 visibility is ignored; is_private sets it', async () => {
    const bad = await f.req(f.A, 'POST', '/api/v1/notes', { link_id: linkId, is_private: 'x' });
    expect(bad.body.errors).toEqual({ is_private: ['The is private field must be true or false.'] });
    const ok = await f.req(f.A, 'POST', '/api/v1/notes', { link_id: linkId, note: 'v1', visibility: 99, is_private: true });
    expect(ok.status).toBe(201);
    expect(ok.body.is_private).toBe(true);
  });

  it('on update the note may be left out but not cleared', async () => {
    const n = await f.req(f.A, 'POST', '/api/v2/notes', { link_id: linkId, note: 'first', visibility: 1 });
    const vis = await f.req(f.A, 'PATCH', `/api/v2/notes/${n.body.id}`, { visibility: 2 });
    expect(vis.status).toBe(200);
    expect(vis.body).toMatchObject({ note: 'first', visibility: 2 });
    const cleared = await f.req(f.A, 'PUT', `/api/v1/notes/${n.body.id}`, { note: ' ' });
    expect(cleared.body.errors).toEqual({ note: ['The note field is required.'] });
  });
});
