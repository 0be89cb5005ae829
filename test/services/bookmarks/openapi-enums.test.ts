/**
 * openapi.json documents the closed sets of values that are enforced: for every enum of a query parameter or a
 * request-body field in the served document, each documented value is accepted (no 422) and a value outside
 * the set is refused with 422 naming that field. The enums are read from the document, so a new enum is
 * checked as soon as it is documented, and a schema that drifts from validate.ts fails here.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

let f: Fixture;
let spec: any;
const ids: Record<string, number> = {};
let linkUrl = '';
let n = 0;

beforeAll(async () => {
  f = await setup();
  spec = (await f.req(null, 'GET', '/openapi.json')).body;
  linkUrl = 'https://enums.example/';
  const link = await f.req(f.A, 'POST', '/api/v2/links', { url: linkUrl, title: 'enums', tags: ['enum-tag'] });
  ids.links = link.body.id;
  ids.lists = (await f.req(f.A, 'POST', '/api/v2/lists', { name: 'enum list' })).body.id;
  ids.tags = link.body.tags[0].id;
  ids.notes = (await f.req(f.A, 'POST', '/api/v2/notes', { link_id: ids.links, note: 'n' })).body.id;
});
afterAll(async () => {
  await f.close();
});

interface EnumInput {
  method: string;
  path: string;
  where: 'query' | 'body';
  field: string;
  values: unknown[];
}

/** Every enum of a request input in the document. */
function documentedEnums(): EnumInput[] {
  const out: EnumInput[] = [];
  for (const [path, operations] of Object.entries<any>(spec.paths)) {
    for (const [method, op] of Object.entries<any>(operations)) {
      for (const p of op.parameters ?? []) if (p.in === 'query' && p.schema?.enum) out.push({ method: method.toUpperCase(), path, where: 'query', field: p.name, values: p.schema.enum });
      for (const content of Object.values<any>(op.requestBody?.content ?? {}))
        for (const [field, schema] of Object.entries<any>(content.schema?.properties ?? {}))
          if (schema.enum) out.push({ method: method.toUpperCase(), path, where: 'body', field, values: schema.enum });
    }
  }
  return out;
}

/** The rest of a valid request beside the field under test. */
function baseInput(e: EnumInput): { query: Record<string, string>; body: Record<string, unknown> } {
  const key = `${e.method} ${e.path}`;
  const unique = `enum-${++n}`;
  const bodies: Record<string, Record<string, unknown>> = {
    'POST /api/v2/links': { url: `https://${unique}.example/`, title: 't' },
    'PATCH /api/v2/links/{id}': { url: linkUrl },
    'PUT /api/v2/links/{id}': { url: linkUrl },
    'POST /api/v2/lists': { name: unique },
    'PATCH /api/v2/lists/{id}': { name: 'enum list' },
    'PUT /api/v2/lists/{id}': { name: 'enum list' },
    'POST /api/v2/tags': { name: unique },
    'PATCH /api/v2/tags/{id}': { name: 'enum-tag' },
    'PUT /api/v2/tags/{id}': { name: 'enum-tag' },
    'POST /api/v2/notes': { link_id: ids.links, note: 'n' },
    'PATCH /api/v2/notes/{id}': { note: 'n' },
    'PUT /api/v2/notes/{id}': { note: 'n' },
    'PATCH /api/v2/bulk/links': { models: [ids.links], tags: ['enum-tag'], tags_mode: 'append', lists: [ids.lists], lists_mode: 'append' },
    'PATCH /api/v2/bulk/lists': { models: [ids.lists] },
    'PATCH /api/v2/bulk/tags': { models: [ids.tags] },
    'DELETE /api/v2/bulk/delete': { models: [999_999] },
    'PATCH /api/v2/trash/restore': { id: 999_999 },
    'PATCH /api/v1/trash/restore': { id: 999_999 },
  };
  const query: Record<string, string> = e.path.includes('/search/') ? { query: 'enums' } : {};
  return { query, body: bodies[key] ?? {} };
}

function send(e: EnumInput, value: unknown) {
  const resource = /\/api\/v\d\/(\w+)\/\{id\}/.exec(e.path)?.[1];
  const path = e.path.replace('{id}', String(resource ? ids[resource] : ''));
  const { query, body } = baseInput(e);
  if (e.where === 'query') {
    const qs = new URLSearchParams({ ...query, [e.field]: String(value) });
    return f.req(f.A, e.method, `${path}?${qs}`, e.method === 'GET' ? undefined : body);
  }
  return f.req(f.A, e.method, `${path}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`, { ...body, [e.field]: value });
}

describe('openapi.json enums are the enforced ones', () => {
  test('the document has the enums this test is about', () => {
    const fields = new Set(documentedEnums().map((e) => e.field));
    for (const field of ['visibility', 'order_by', 'order_dir', 'tags_mode', 'lists_mode', 'type', 'model', 'format']) expect(fields).toContain(field);
  });

  test('every documented value is accepted and a value outside the enum is 422 on that field', async () => {
    const enums = documentedEnums();
    expect(enums.length).toBeGreaterThan(40);
    for (const e of enums) {
      const where = `${e.method} ${e.path} ${e.where} ${e.field}`;
      for (const value of e.values) {
        const ok = await send(e, value);
        expect(ok.status, `${where}=${JSON.stringify(value)}: ${ok.text.slice(0, 300)}`).not.toBe(422);
        expect(ok.status, `${where}=${JSON.stringify(value)}`).toBeLessThan(500);
      }
      const outside = typeof e.values.find((v) => v !== null) === 'number' ? 9 : 'not-in-the-enum';
      const bad = await send(e, outside);
      expect(bad.status, `${where}=${JSON.stringify(outside)}: ${bad.text.slice(0, 300)}`).toBe(422);
      expect(Object.keys(bad.body.errors), where).toContain(e.field);
    }
  });
});
