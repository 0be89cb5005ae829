import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';
import { DEFAULT_RATE_LIMIT, DEFAULT_V2_RATE_LIMIT, parseRateLimit, RateLimiter } from '../../../src/services/bookmarks/rate-limit.js';
import { readSettings } from '../../../src/services/bookmarks/options.js';

describe('requests and errors', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setup();
  });
  afterAll(async () => {
    await f.close();
  });

  test('GET /api/version needs no token', async () => {
    const r = await f.req(null, 'GET', '/api/version');
    expect([r.status, r.body]).toEqual([200, { version: '2.0' }]);
  });

  test('401 without a token, with a malformed header, with an unknown token', async () => {
    for (const h of [undefined, 'Token abc', 'Bearer', 'Bearer 1|wrong']) {
      const r = await f.sa.app.inject({ method: 'GET', url: '/api/v2/links', headers: h ? { authorization: h } : {} });
      expect([h, r.statusCode, JSON.parse(r.body)]).toEqual([h, 401, { message: 'Unauthenticated.' }]);
      expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  test('malformed JSON is 400 with a JSON body', async () => {
    const r = await f.req(f.A, 'POST', '/api/v2/links', '{"url": ');
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^Malformed JSON body/);
  });

  test('an empty body with Content-Type: application/json is fine on GET and DELETE', async () => {
    const l = await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://e.example' });
    const g = await f.sa.app.inject({ method: 'GET', url: '/api/v2/links', headers: { authorization: `Bearer ${f.A}`, 'content-type': 'application/json' }, payload: '' });
    expect(g.statusCode).toBe(200);
    const d = await f.sa.app.inject({ method: 'DELETE', url: `/api/v2/links/${l.body.id}`, headers: { authorization: `Bearer ${f.A}`, 'content-type': 'application/json' } });
    expect([d.statusCode, d.body]).toEqual([200, '[]']);
  });

  test('form-encoded bodies are accepted; other content types are 415 JSON', async () => {
    const r = await f.sa.app.inject({
      method: 'POST',
      url: '/api/v2/links',
      headers: { authorization: `Bearer ${f.A}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'url=https%3A%2F%2Fform.example&tags[]=a&tags[]=b',
    });
    expect(r.statusCode).toBe(200);
    expect(JSON.parse(r.body).tags.map((t: any) => t.name)).toEqual(['a', 'b']);
    const x = await f.sa.app.inject({ method: 'POST', url: '/api/v2/links', headers: { authorization: `Bearer ${f.A}`, 'content-type': 'text/xml' }, payload: '<a/>' });
    expect(x.statusCode).toBe(415);
    expect(JSON.parse(x.body).message).toContain('Unsupported Media Type');
  });

  test('a text/plain body is 415, not a 422 about missing fields', async () => {
    for (const payload of ['{"url":"https://plain.example"}', 'url=https://plain.example']) {
      const r = await f.req(f.A, 'POST', '/api/v2/links', payload, { 'content-type': 'text/plain' });
      expect(r.status).toBe(415);
      expect(r.body.message).toContain('Unsupported Media Type: text/plain');
    }
    expect((await f.req(f.A, 'GET', '/api/v2/links/check?url=https://plain.example')).body).toEqual({ linksFound: false });
  });

  test('unknown routes under /api are 404 JSON', async () => {
    const r = await f.req(f.A, 'GET', '/api/v2/foo');
    expect([r.status, r.body]).toEqual([404, { message: 'The route api/v2/foo could not be found.' }]);
    expect((await f.req(f.A, 'POST', '/api/v3/links', {})).status).toBe(404);
    expect((await f.req(f.A, 'GET', '/api/v2/links/1/2')).status).toBe(404);
  });

  test('a known route with another method is 405 naming the supported ones', async () => {
    const r = await f.req(f.A, 'GET', '/api/v2/notes/1');
    expect(r.status).toBe(405);
    expect(r.body).toEqual({ message: 'The GET method is not supported for route api/v2/notes/1. Supported methods: PUT, PATCH, DELETE.' });
    expect(r.headers.allow).toBe('PUT, PATCH, DELETE');
    expect((await f.req(f.A, 'POST', '/api/v2/links/5')).headers.allow).toBe('GET, HEAD, PUT, PATCH, DELETE');
    expect((await f.req(f.A, 'DELETE', '/api/v2/trash/restore')).status).toBe(405);
  });
});

describe('rate limit', () => {
  test('parseRateLimit: N per minute, N,M per M minutes, junk rejected', () => {
    expect(parseRateLimit('60')).toEqual({ limit: 60, windowMs: 60_000 });
    expect(parseRateLimit('120,1')).toEqual({ limit: 120, windowMs: 60_000 });
    expect(parseRateLimit(' 10 , 5 ')).toEqual({ limit: 10, windowMs: 300_000 });
    expect(parseRateLimit(30)).toEqual({ limit: 30, windowMs: 60_000 });
    for (const bad of ['', 'abc', '0', '10,0', '-5', '1.5', undefined, null]) expect(parseRateLimit(bad as string)).toBeNull();
  });

  test('RateLimiter: a fixed window per key', () => {
    const rl = new RateLimiter({ limit: 2, windowMs: 60_000 });
    const t0 = 1_000_000;
    expect(rl.hit('a', t0)).toMatchObject({ allowed: true, remaining: 1, limit: 2 });
    expect(rl.hit('a', t0 + 10)).toMatchObject({ allowed: true, remaining: 0 });
    expect(rl.hit('a', t0 + 20)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 60, reset: Math.ceil((t0 + 60_000) / 1000) });
    expect(rl.hit('b', t0 + 30)).toMatchObject({ allowed: true });
    expect(rl.hit('a', t0 + 60_000)).toMatchObject({ allowed: true, remaining: 1 });
  });

  test('settings: the option wins over API_RATE_LIMIT, which wins over the default; junk falls back', () => {
    const base = { host: '127.0.0.1', port: 0, dataDir: '/tmp/x' };
    expect(readSettings(base, {}).rateLimit).toEqual(DEFAULT_RATE_LIMIT);
    expect(readSettings(base, { API_RATE_LIMIT: '120,1' }).rateLimit).toEqual({ limit: 120, windowMs: 60_000 });
    expect(readSettings({ ...base, apiRateLimit: '5' }, { API_RATE_LIMIT: '120,1' }).rateLimit.limit).toBe(5);
    const bad = readSettings({ ...base, apiRateLimit: 'lots' }, {});
    expect(bad.rateLimit).toEqual(DEFAULT_RATE_LIMIT);
    expect(bad.rateLimitInvalid).toBe('lots');
  });

  test('defaults: v1 keeps 60 per minute; v2 never throttles a local script; a setting applies to both', async () => {
    const base = { host: '127.0.0.1', port: 0, dataDir: '/tmp/x' };
    expect(readSettings(base, {})).toMatchObject({ rateLimit: DEFAULT_RATE_LIMIT, v2RateLimit: DEFAULT_V2_RATE_LIMIT });
    expect(readSettings({ ...base, apiRateLimit: '5' }, {})).toMatchObject({ rateLimit: { limit: 5 }, v2RateLimit: { limit: 5 } });
    const old = process.env.API_RATE_LIMIT;
    delete process.env.API_RATE_LIMIT;
    const f = await setup({ apiRateLimit: undefined });
    try {
      const v2 = [];
      for (let i = 0; i < 150; i++) v2.push((await f.req(f.A, 'GET', '/api/v2/links?per_page=1')).status);
      expect(v2.filter((s) => s !== 200)).toEqual([]);
      const last = await f.req(f.A, 'GET', '/api/v2/links?per_page=1');
      expect(last.headers['x-ratelimit-limit']).toBe(String(DEFAULT_V2_RATE_LIMIT.limit));
      const v1 = [];
      for (let i = 0; i < 61; i++) v1.push((await f.req(f.A, 'GET', '/api/v1/links')).status);
      expect(v1.slice(0, 60).every((s) => s === 200)).toBe(true);
      expect(v1[60]).toBe(429);
    } finally {
      await f.close();
      if (old !== undefined) process.env.API_RATE_LIMIT = old;
    }
  });

  test('a malformed setting refuses to start', async () => {
    await expect(setup({ apiRateLimit: '10 per minute' })).rejects.toThrow(/invalid API rate limit "10 per minute"/);
  });

  test('per token: headers on every answer, 429 with Retry-After past the limit', async () => {
    const f = await setup({ apiRateLimit: '3' });
    try {
      const seen = [];
      for (let i = 0; i < 3; i++) {
        const r = await f.req(f.A, 'GET', '/api/v2/links');
        expect(r.status).toBe(200);
        seen.push(r.headers['x-ratelimit-remaining']);
        expect(r.headers['x-ratelimit-limit']).toBe('3');
        expect(Number(r.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      }
      expect(seen).toEqual(['2', '1', '0']);
      const over = await f.req(f.A, 'GET', '/api/v2/links');
      expect(over.status).toBe(429);
      expect(over.body).toEqual({ message: 'Too Many Attempts.' });
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(over.headers['x-ratelimit-remaining']).toBe('0');
      // another token has its own budget; the version endpoint is not limited
      expect((await f.req(f.B, 'GET', '/api/v2/links')).status).toBe(200);
      expect((await f.req(f.A, 'GET', '/api/version')).status).toBe(200);
    } finally {
      await f.close();
    }
  });

  test('API_RATE_LIMIT in the environment (LinkAce form N,M)', async () => {
    const old = process.env.API_RATE_LIMIT;
    process.env.API_RATE_LIMIT = '120,1';
    try {
      const f = await setup({ apiRateLimit: undefined });
      try {
        const r = await f.req(f.A, 'GET', '/api/v2/links');
        expect([r.headers['x-ratelimit-limit'], r.headers['x-ratelimit-remaining']]).toEqual(['120', '119']);
      } finally {
        await f.close();
      }
    } finally {
      if (old === undefined) delete process.env.API_RATE_LIMIT;
      else process.env.API_RATE_LIMIT = old;
    }
  });
});

describe('openapi.json', () => {
  test('describes every route with its methods, parameters and answers', async () => {
    const f = await setup();
    try {
      const r = await f.req(null, 'GET', '/openapi.json');
      expect(r.status).toBe(200);
      expect(r.body.openapi).toMatch(/^3\./);
      const expected: Record<string, string[]> = {
        '/api/version': ['get'],
        '/api/v2/links': ['get', 'post'],
        '/api/v2/links/check': ['get'],
        '/api/v2/links/{id}': ['get', 'patch', 'put', 'delete'],
        '/api/v2/links/{id}/notes': ['get'],
        '/api/v2/lists': ['get', 'post'],
        '/api/v2/lists/{id}': ['get', 'patch', 'put', 'delete'],
        '/api/v2/lists/{id}/links': ['get'],
        '/api/v2/tags': ['get', 'post'],
        '/api/v2/tags/{id}': ['get', 'patch', 'put', 'delete'],
        '/api/v2/tags/{id}/links': ['get'],
        '/api/v2/notes': ['post'],
        '/api/v2/notes/{id}': ['patch', 'put', 'delete'],
        '/api/v2/search/links': ['get'],
        '/api/v2/search/tags': ['get'],
        '/api/v2/search/lists': ['get'],
        '/api/v2/bulk/links': ['post', 'patch'],
        '/api/v2/bulk/lists': ['post', 'patch'],
        '/api/v2/bulk/tags': ['post', 'patch'],
        '/api/v2/bulk/delete': ['delete'],
        '/api/v2/trash/links': ['get'],
        '/api/v2/trash/lists': ['get'],
        '/api/v2/trash/tags': ['get'],
        '/api/v2/trash/notes': ['get'],
        '/api/v2/trash/clear': ['delete'],
        '/api/v2/trash/restore': ['patch'],
        '/api/v1/links': ['get', 'post'],
        '/api/v1/links/{id}': ['get', 'patch', 'put', 'delete'],
        '/api/v1/search/links': ['get'],
        '/api/v1/lists': ['get', 'post'],
        '/api/v1/lists/{id}': ['get', 'patch', 'put', 'delete'],
        '/api/v1/lists/{id}/links': ['get'],
        '/api/v1/tags': ['get', 'post'],
        '/api/v1/tags/{id}': ['get', 'patch', 'put', 'delete'],
        '/api/v1/tags/{id}/links': ['get'],
        '/api/v1/links/{id}/notes': ['get'],
        '/api/v1/links/check': ['get'],
        '/api/v1/notes': ['post'],
        '/api/v1/notes/{id}': ['patch', 'put', 'delete'],
        '/api/v1/search/tags': ['get'],
        '/api/v1/search/lists': ['get'],
        '/api/v1/trash/links': ['get'],
        '/api/v1/trash/lists': ['get'],
        '/api/v1/trash/tags': ['get'],
        '/api/v1/trash/notes': ['get'],
        '/api/v1/trash/clear': ['delete'],
        '/api/v1/trash/restore': ['patch'],
        '/api/v1/import': ['post'],
        '/api/v1/export': ['get'],
      };
      const paths = r.body.paths as Record<string, Record<string, any>>;
      expect(Object.keys(paths).sort()).toEqual(Object.keys(expected).sort());
      for (const [p, methods] of Object.entries(expected)) {
        expect([p, Object.keys(paths[p]!).sort()]).toEqual([p, [...methods].sort()]);
        for (const m of methods) {
          const op = paths[p]![m];
          expect(op.summary, `${m} ${p}`).toBeTruthy();
          expect(Object.keys(op.responses).length, `${m} ${p}`).toBeGreaterThan(p === '/api/version' ? 0 : 1);
          if (p.includes('{id}'))
            expect(
              op.parameters.some((x: any) => x.in === 'path' && x.name === 'id'),
              `${m} ${p}`,
            ).toBe(true);
        }
      }
      expect(paths['/api/v2/links']!.get.parameters.map((x: any) => x.name)).toEqual(expect.arrayContaining(['page', 'per_page', 'order_by', 'order_dir']));
      expect(paths['/api/v2/links']!.post.requestBody.content['application/json'].schema.properties).toHaveProperty('url');
      expect(paths['/api/v1/import']!.post.requestBody.content).toHaveProperty('multipart/form-data');
      // v1: the reference's search parameters, its order_by values, and the flat paginator fields
      const params = (p: string) => paths[p]!.get.parameters.map((x: any) => x.name);
      expect(params('/api/v1/search/links')).toEqual(
        expect.arrayContaining([
          'query',
          'search_title',
          'search_description',
          'private_only',
          'broken_only',
          'empty_lists',
          'empty_tags',
          'only_lists',
          'only_tags',
          'order_by',
          'page',
          'per_page',
          'is_private',
          'tags',
          'lists',
        ]),
      );
      const orderOf = (p: string) => paths[p]!.get.parameters.find((x: any) => x.name === 'order_by').schema.enum;
      expect(orderOf('/api/v1/links')).toEqual(['id', 'url', 'title', 'description', 'is_private', 'status', 'check_disabled', 'created_at', 'updated_at']);
      expect(orderOf('/api/v1/search/links')).toEqual(expect.arrayContaining(['title:asc', 'created_at:desc']));
      expect(orderOf('/api/v1/lists')).toEqual(['id', 'name', 'description', 'is_private', 'created_at', 'updated_at']);
      expect(orderOf('/api/v1/tags')).toEqual(['id', 'name', 'is_private', 'created_at', 'updated_at']);
      for (const p of ['/api/v1/links', '/api/v1/search/links', '/api/v1/lists', '/api/v1/tags', '/api/v1/lists/{id}/links', '/api/v1/tags/{id}/links', '/api/v1/links/{id}/notes']) {
        const page = paths[p]!.get.responses['200'].content['application/json'].schema.properties;
        expect([p, page.next_page_url, page.per_page.type]).toEqual([p, { type: ['string', 'null'] }, 'string']);
        expect([p, params(p)]).toEqual([p, expect.arrayContaining(['page', 'per_page'])]);
      }
      expect(paths['/api/v1/lists/{id}']!.get.responses['200'].content['application/json'].schema.properties.links.type).toBe('string');
      expect(paths['/api/v1/notes']!.post.responses).toHaveProperty('201');
      expect(r.body.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    } finally {
      await f.close();
    }
  });
});
