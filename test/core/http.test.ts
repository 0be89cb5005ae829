import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { maxHeaderSize } from 'node:http';
import { HttpClient, describeErrorBody, readableLaravel, retryAfterSeconds, buildUrl, nodeMaxHeaderSize } from '../../src/core/http.js';
import { ApiError, ExitCode, NetworkError, TimeoutError } from '../../src/core/errors.js';

let server: Server;
let base: string;
const hits = new Map<string, number>();
const seen: { method: string; url: string; auth?: string; body: string; type?: string }[] = [];

function handler(req: IncomingMessage, res: ServerResponse) {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    const path = new URL(req.url!, 'http://x').pathname;
    seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body, type: req.headers['content-type'] });
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    if (path === '/ok') return json(200, { hello: 'world' });
    if (path === '/echo') return json(200, { method: req.method, body: body ? JSON.parse(body) : null });
    if (path === '/linkace422') return json(422, { message: 'The given data was invalid.', errors: { url: ['The url must be a valid URL.'], lists: ['Unknown list 9.'] } });
    if (path === '/feldera') return json(404, { message: "Unknown pipeline name 'x'", error_code: 'UnknownPipelineName', details: { pipeline_name: 'x' } });
    if (path === '/unauth') return json(401, { message: 'Unauthenticated.' });
    if (path === '/forbidden-empty') return json(403, []);
    if (path === '/limited') {
      if (hits.get(path)! <= 2) return json(429, { message: 'Too Many Attempts.' }, { 'retry-after': '0' });
      return json(200, { after: hits.get(path) });
    }
    if (path === '/limited-post') return json(429, { message: 'Too Many Attempts.' }, { 'retry-after': '0' });
    if (path === '/big-headers') {
      // a response whose header lines take about `size` bytes
      res.writeHead(200, { 'content-type': 'application/json', 'x-big': 'x'.repeat(Number(new URL(req.url!, 'http://x').searchParams.get('size'))) });
      return res.end('{}');
    }
    if (path === '/slow') return void setTimeout(() => json(200, {}), 2_000);
    if (path === '/text') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      return res.end('boom \u001b[31mred');
    }
    json(404, { message: 'not found' });
  });
}

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = (extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
  new HttpClient({ baseUrl: base, serviceName: 'test service', authorization: 'Bearer tok', loginHint: 'ops auth login bm', ...extra });

describe('HttpClient', () => {
  it('sends the auth header and JSON bodies, and parses JSON answers', async () => {
    const data = await client().json('POST', '/echo', { body: { a: 1 } });
    expect(data).toEqual({ method: 'POST', body: { a: 1 } });
    const last = seen.at(-1)!;
    expect(last.auth).toBe('Bearer tok');
    expect(last.type).toBe('application/json');
  });

  it('builds query strings, skipping undefined and repeating arrays', () => {
    expect(buildUrl('http://h/base/', '/p', { a: 1, b: undefined, c: ['x', 'y'], d: true })).toBe('http://h/base/p?a=1&c=x&c=y&d=true');
  });

  it("turns LinkAce's validation errors into one message naming each field", async () => {
    const err: any = await client()
      .json('POST', '/linkace422', { body: {} })
      .catch((e: unknown) => e as any);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(422);
    expect(err.message).toContain('The given data was invalid.');
    expect(err.message).toContain('url: The url must be a valid URL.');
    expect(err.fieldErrors.lists).toEqual(['Unknown list 9.']);
    expect(err.exitCode).toBe(ExitCode.failure);
  });

  it("turns Feldera's errors into message (error_code)", async () => {
    const err: any = await client()
      .json('GET', '/feldera')
      .catch((e: unknown) => e as any);
    expect(err.message).toBe("Unknown pipeline name 'x' (UnknownPipelineName)");
    expect(err.code).toBe('UnknownPipelineName');
  });

  it('maps 401 to the auth exit code with a login hint', async () => {
    const err: any = await client()
      .json('GET', '/unauth')
      .catch((e: unknown) => e as any);
    expect(err.exitCode).toBe(ExitCode.auth);
    expect(err.message).toContain('ops auth login bm');
    expect(err.message).toContain(': Unauthenticated. Run');
    expect(err.message).not.toContain('..');
  });

  it('a 403 with an empty body (LinkAce sub-collections) says not allowed, with the auth exit code', async () => {
    const err: any = await client()
      .json('GET', '/forbidden-empty')
      .catch((e: unknown) => e as any);
    expect(err.exitCode).toBe(ExitCode.auth);
    expect(err.message).toBe('not allowed: GET /forbidden-empty (HTTP 403)');
  });

  it('retries an idempotent request after 429 with Retry-After, and says so', async () => {
    const waits: number[] = [];
    const data = await client({ onRateLimit: (w) => waits.push(w) }).json<{ after: number }>('GET', '/limited');
    expect(data.after).toBe(3);
    expect(waits).toEqual([0, 0]);
  });

  it('never retries a non-idempotent request after 429', async () => {
    const before = hits.get('/limited-post') ?? 0;
    const err: any = await client()
      .json('POST', '/limited-post', { body: {} })
      .catch((e: unknown) => e as any);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(429);
    expect(err.message).toContain('rate limited');
    expect(hits.get('/limited-post')).toBe(before + 1);
  });

  it('sends a Readable body as it is read (chunked, with the given content type), and never retries it after 429', async () => {
    const { Readable } = await import('node:stream');
    const bytes = Buffer.from([0x50, 0x41, 0x52, 0x31, 0x00, 0xff, 0x0a]);
    const echoed = await client().request<{ body: unknown }>('POST', '/echo', { body: Readable.from([Buffer.from('{"a":'), Buffer.from('[1,2]}')]), contentType: 'application/json' });
    expect(echoed.data.body).toEqual({ a: [1, 2] });
    const last = seen.at(-1)!;
    expect(last.type).toBe('application/json');
    // a Uint8Array is sent as bytes too (not JSON-serialised)
    await client().request('PUT', '/ok', { body: new Uint8Array(bytes) });
    expect(Buffer.from(seen.at(-1)!.body, 'latin1').subarray(0, 4).toString()).toBe('PAR1');
    expect(seen.at(-1)!.type).toBe('application/octet-stream');
    // PUT is idempotent, yet a stream is read once: one try, the 429 answered
    const before = hits.get('/limited-post') ?? 0;
    const err = await client()
      .request('PUT', '/limited-post', { body: Readable.from([bytes]) })
      .catch((e: unknown) => e as ApiError);
    expect((err as ApiError).status).toBe(429);
    expect(hits.get('/limited-post')).toBe(before + 1);
  });

  it('reports a refused connection clearly', async () => {
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as { port: number }).port;
    await new Promise<void>((r) => dead.close(() => r()));
    const err: any = await new HttpClient({ baseUrl: `http://127.0.0.1:${port}`, serviceName: 'bookmark service' }).json('GET', '/').catch((e: unknown) => e as any);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain('connection refused');
  });

  it("limits a response's headers as node's own http does (16 KiB unless node is told otherwise)", async () => {
    expect(await client().json('GET', '/big-headers', { query: { size: 15_000 } })).toEqual({});
    const err: any = await client()
      .json('GET', '/big-headers', { query: { size: 17_000 } })
      .catch((e: unknown) => e as any);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/header/i);
  });

  it('times out with the timeout exit code', async () => {
    const err: any = await client({ timeoutMs: 200 })
      .json('GET', '/slow')
      .catch((e: unknown) => e as any);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.exitCode).toBe(ExitCode.timeout);
  });

  it('sanitises plain-text error bodies', async () => {
    const err: any = await client()
      .json('GET', '/text')
      .catch((e: unknown) => e as any);
    expect(err.message).toBe('boom red');
  });
});

describe('proxies', () => {
  it('sends requests through HTTP_PROXY, and not for hosts in NO_PROXY', async () => {
    const proxied: string[] = [];
    const proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ via: 'proxy' }));
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    try {
      const viaProxy = new HttpClient({ baseUrl: 'http://bookmarks.invalid', serviceName: 's', env: { HTTP_PROXY: proxyUrl } });
      expect(await viaProxy.json('GET', '/api/v2/links', { query: { page: 2 } })).toEqual({ via: 'proxy' });
      expect(proxied).toEqual(['GET http://bookmarks.invalid/api/v2/links?page=2']);
      const bypass = new HttpClient({ baseUrl: base, serviceName: 's', env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
      expect(await bypass.json('GET', '/ok')).toEqual({ hello: 'world' });
      expect(proxied).toHaveLength(1);
    } finally {
      proxy.close();
    }
  });
});

describe('helpers', () => {
  it("gives undici node's default header limit, unless node was started with another", () => {
    expect(nodeMaxHeaderSize([], '')).toBe(maxHeaderSize); // this process runs with node's default
    expect(nodeMaxHeaderSize(['--max-http-header-size=65536'], '')).toBeUndefined();
    expect(nodeMaxHeaderSize([], '--max-http-header-size=65536 --no-warnings')).toBeUndefined();
  });

  it('reads Retry-After as seconds or a date, with a backoff fallback', () => {
    expect(retryAfterSeconds({ 'retry-after': '7' }, 1)).toBe(7);
    expect(retryAfterSeconds({ 'retry-after': new Date(Date.now() + 3_000).toUTCString() }, 1)).toBeLessThanOrEqual(3);
    expect(retryAfterSeconds({}, 2)).toBe(4);
  });
  it('a validation error says each problem once, with its field', () => {
    const c = new HttpClient({ baseUrl: 'http://127.0.0.1:1', serviceName: 'bookmark service' });
    const one = c.errorFrom(422, { message: 'The title must not be greater than 255 characters.', errors: { title: ['The title must not be greater than 255 characters.'] } }, 'post', '/api/v2/links');
    expect(one.message).toBe('title: The title must not be greater than 255 characters.');
    const two = c.errorFrom(
      422,
      { message: 'The url field is required. (and 1 more error)', errors: { url: ['The url field is required.'], visibility: ['The selected visibility is invalid.'] } },
      'post',
      '/api/v2/links',
    );
    expect(two.message).toBe('The url field is required. (and 1 more error)\n  url: The url field is required.\n  visibility: The selected visibility is invalid.');
  });
  it('describes unknown bodies safely', () => {
    expect(describeErrorBody(undefined)).toEqual({ message: '', fields: {} });
    expect(describeErrorBody({ error: 'x' }).message).toBe('x');
  });
});

describe('readable server text', () => {
  it("turns Laravel's model-not-found text (LinkAce's 404) into words", () => {
    expect(readableLaravel('No query results for model [App\\Models\\Link] 99999')).toBe('link 99999 not found');
    expect(readableLaravel('No query results for model [App\\Models\\Api\\ApiLink].')).toBe('link not found');
    expect(readableLaravel('No query results for model [App\\Models\\LinkList] 3')).toBe('list 3 not found');
    expect(readableLaravel('Unauthenticated.')).toBe('Unauthenticated.');
    expect(describeErrorBody({ message: 'No query results for model [App\\Models\\Tag] 7' }).message).toBe('tag 7 not found');
  });
});
