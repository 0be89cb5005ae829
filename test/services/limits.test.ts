/**
 * Body limits on every service, from the attacker's side: JSON nested far deeper than any API needs
 * (a million `[`, which would blow a recursive parser's stack) and bodies over the size limits are
 * refused with a 4xx in the service's own error shape, and the server keeps answering.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import bookmarks from '../../src/services/bookmarks/index.js';
import notifications from '../../src/services/notifications/index.js';
import pipelines from '../../src/services/pipelines/index.js';
import { buildServiceApp, type ServiceApp } from '../helpers/service-app.js';
import { BODY_LIMITS, jsonDepthExceeds, MAX_JSON_DEPTH, parseJsonBody, scanJson } from '../../src/services/limits.js';

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('jsonDepthExceeds', () => {
  test('counts arrays and objects, skips brackets inside strings and escaped quotes', () => {
    expect(jsonDepthExceeds(deep(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(deep(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthExceeds(deepObject(3), 2)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ a: '[[[[[[', b: 'x\\"[[[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify([{ a: [1] }, { b: [2] }]), 3)).toBe(false);
  });
  test('scanJson counts the items of the top-level arrays without parsing', () => {
    const shape = scanJson('{"a":[], "models" : [ {}, {"x":[1,2,3]}, "s,]" ,[4,5] ], "b":{"c":[1,2]}, "e\\u0073":[1]}', MAX_JSON_DEPTH);
    expect([...shape.topLevelArrays]).toEqual([
      ['a', 0],
      ['models', 4],
      ['es', 1],
    ]);
    expect(scanJson('[[1,2,3]]', 5).topLevelArrays.size).toBe(0);
  });
  test('a million levels are refused without recursion; good JSON parses as JSON.parse does', () => {
    expect(() => parseJsonBody(deep(1_000_000))).toThrow(/deeper than 64 levels/);
    expect(parseJsonBody('{"a":[1,{"b":"]"}]}')).toEqual({ a: [1, { b: ']' }] });
    expect(() => parseJsonBody('{"a":')).toThrow(/Malformed JSON/);
  });
});

describe('bookmarks', () => {
  let sa: ServiceApp;
  let token: string;
  beforeAll(async () => {
    sa = await buildServiceApp(bookmarks, { fetchMetadata: false, linkCheck: false, apiRateLimit: '100000' });
    token = (await sa.handle.localCredentials!()).bmToken!;
  });
  afterAll(() => sa.close());
  const post = (url: string, payload: string) =>
    sa.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' } });

  test('deep JSON on the JSON routes: 400 with a message, nothing created', async () => {
    for (const url of ['/api/v2/links', '/api/v1/links', '/api/v2/lists', '/api/v2/tags', '/api/v2/bulk/links', '/api/v2/links/1/notes']) {
      const r = await post(url, `{"url":"https://deep.example","tags":${deep(200_000)}}`);
      expect(r.statusCode, url).toBe(400);
      expect(r.json(), url).toEqual({ message: `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects.` });
    }
    const links = await sa.app.inject({ url: '/api/v2/links', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    expect(links.json().data).toEqual([]);
  });

  test('a body over the JSON limit is 413 in LinkAce shape; the bulk routes take more', async () => {
    const big = JSON.stringify({ url: 'https://big.example', description: 'x'.repeat(BODY_LIMITS.bookmarksJson) });
    const r = await post('/api/v2/links', big);
    expect(r.statusCode).toBe(413);
    expect(r.json()).toEqual({ message: 'The request body is larger than 8 MiB.' });
    // 9 MiB is fine for a bulk create: it is validated (each description over 20,000 characters)
    const bulk = JSON.stringify({ models: Array.from({ length: 450 }, (_, i) => ({ url: `https://b${i}.example`, description: 'x'.repeat(21_000) })) });
    expect(bulk.length).toBeGreaterThan(BODY_LIMITS.bookmarksJson);
    const rb = await post('/api/v2/bulk/links', bulk);
    expect(rb.statusCode).toBe(422);
    expect(rb.json().errors['models.0.description']).toEqual(['The models.0.description must not be greater than 20000 characters.']);
  });
});

describe('notifications', () => {
  let sa: ServiceApp;
  let key: string;
  beforeAll(async () => {
    sa = await buildServiceApp(notifications, {});
    key = (await sa.handle.localCredentials!()).notifyApiKey!;
  });
  afterAll(() => sa.close());

  test('deep JSON is 400 json_too_deep in the service error shape; the service keeps answering', async () => {
    for (const url of ['/notify/v1/webhooks', '/notify/v1/events/trigger']) {
      const r = await sa.app.inject({ method: 'POST', url, payload: `{"data":${deep(300_000)}}`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
      expect(r.statusCode, url).toBe(400);
      expect(r.json(), url).toEqual({ error: 'json_too_deep', message: `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects.` });
    }
    const list = await sa.app.inject({ url: '/notify/v1/webhooks', headers: { authorization: `Bearer ${key}` } });
    expect(list.statusCode).toBe(200);
  });
});

describe('pipelines', () => {
  let sa: ServiceApp;
  beforeAll(async () => {
    sa = await buildServiceApp(pipelines, {});
  });
  afterAll(() => sa.close());

  test('deep JSON on PUT/POST/PATCH pipeline is 400 InvalidRequestBody; nothing is created', async () => {
    const body = `{"name":"p","program_code":"CREATE TABLE t(x INT);","runtime_config":${deep(300_000)}}`;
    for (const [method, url] of [
      ['PUT', '/v0/pipelines/p'],
      ['POST', '/v0/pipelines'],
      ['PATCH', '/v0/pipelines/p'],
    ] as const) {
      const r = await sa.app.inject({ method, url, payload: body, headers: { 'content-type': 'application/json' } });
      expect(r.statusCode, `${method} ${url}`).toBe(400);
      expect(r.json()).toMatchObject({ error_code: 'InvalidRequestBody', message: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH} levels`) });
    }
    expect((await sa.app.inject({ url: '/v0/pipelines' })).json()).toEqual([]);
  });

  test('a JSON body over 16 MiB on the API routes is 413; ingress keeps its own limit', async () => {
    const r = await sa.app.inject({ method: 'PUT', url: '/v0/pipelines/p', payload: `{"program_code":"${'x'.repeat(BODY_LIMITS.pipelinesJson)}"}`, headers: { 'content-type': 'application/json' } });
    expect(r.statusCode).toBe(413);
    expect(r.json()).toMatchObject({ error_code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
  });
});
