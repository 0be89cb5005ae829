import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { classify, checkUrl, isCheckable } from '../../../src/services/bookmarks/checker.js';
import { setup, type Fixture } from './helpers.js';

let server: Server;
let base: string;
let refusedUrl: string;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    switch (req.url) {
      case '/ok':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<title>ok</title>');
      case '/moved':
        return res.writeHead(301, { location: '/ok' }).end();
      case '/found':
        return res.writeHead(302, { location: '/ok' }).end();
      case '/missing':
        return res.writeHead(404).end();
      case '/error':
        return res.writeHead(500).end();
      case '/no-head':
        if (req.method === 'HEAD') return res.writeHead(405).end();
        return res.writeHead(200).end('fine');
      case '/slow':
        return; // never answers
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // a port nobody listens on: bind, read the port, close
  const tmp = createServer();
  await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r));
  refusedUrl = `http://127.0.0.1:${(tmp.address() as AddressInfo).port}/`;
  await new Promise<void>((r) => tmp.close(() => r()));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('classify', () => {
  test.each([
    [200, 1],
    [204, 1],
    [299, 1],
    [301, 2],
    [302, 2],
    [308, 2],
    [400, 3],
    [404, 3],
    [429, 3],
    [500, 3],
    [503, 3],
    [null, 3],
    [100, 3],
  ])('%s -> %s', (code, status) => expect(classify(code)).toBe(status));

  test('only http and https are checked', () => {
    expect(isCheckable('https://x.example')).toBe(true);
    expect(isCheckable('ftp://x.example')).toBe(false);
    expect(isCheckable('nonsense')).toBe(false);
  });
});

describe('checkUrl against local endpoints', () => {
  test('200, 301 and 302 (not followed), 404, 500', async () => {
    expect(await checkUrl(`${base}/ok`, { timeoutMs: 5000 })).toBe(200);
    expect(await checkUrl(`${base}/moved`, { timeoutMs: 5000 })).toBe(301);
    expect(await checkUrl(`${base}/found`, { timeoutMs: 5000 })).toBe(302);
    expect(await checkUrl(`${base}/missing`, { timeoutMs: 5000 })).toBe(404);
    expect(await checkUrl(`${base}/error`, { timeoutMs: 5000 })).toBe(500);
  });
  test('HEAD first, GET where HEAD is refused', async () => {
    hits.length = 0;
    expect(await checkUrl(`${base}/no-head`, { timeoutMs: 5000 })).toBe(200);
    expect(hits).toEqual(['HEAD /no-head', 'GET /no-head']);
  });
  test('a refused port and a timeout are network errors (null)', async () => {
    expect(await checkUrl(refusedUrl, { timeoutMs: 5000 })).toBeNull();
    expect(await checkUrl(`${base}/slow`, { timeoutMs: 300 })).toBeNull();
  });
});

describe('link health through the service', () => {
  let f: Fixture;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    f = await setup({ linkCheckTimeout: 300 });
    for (const k of ['ok', 'moved', 'missing', 'error', 'slow']) ids[k] = (await f.req(f.A, 'POST', '/api/v2/links', { url: `${base}/${k}`, title: k })).body.id;
    ids.refused = (await f.req(f.A, 'POST', '/api/v2/links', { url: refusedUrl, title: 'refused' })).body.id;
    ids.disabled = (await f.req(f.A, 'POST', '/api/v2/links', { url: `${base}/missing?d`, title: 'disabled', check_disabled: true })).body.id;
    ids.other = (await f.req(f.B, 'POST', '/api/v2/links', { url: `${base}/error?b`, title: 'other', visibility: 1 })).body.id;
  });
  afterAll(async () => {
    await f.close();
  });

  test("check of the caller's links sets status and last_checked_at, skipping check_disabled and others' links", async () => {
    const r = await f.req(f.A, 'GET', '/api/v2/links/check');
    expect(r.status).toBe(200);
    const byId = Object.fromEntries(r.body.data.map((x: any) => [x.id, x.status]));
    expect(byId).toEqual({ [ids.ok!]: 1, [ids.moved!]: 2, [ids.missing!]: 3, [ids.error!]: 3, [ids.slow!]: 3, [ids.refused!]: 3 });
    const ok = await f.req(f.A, 'GET', `/api/v2/links/${ids.ok}`);
    expect(ok.body.last_checked_at).toMatch(/\.\d{6}Z$/);
    const disabled = await f.req(f.A, 'GET', `/api/v2/links/${ids.disabled}`);
    expect(disabled.body).toMatchObject({ status: 1, last_checked_at: null });
    const other = await f.req(f.B, 'GET', `/api/v2/links/${ids.other}`);
    expect(other.body.last_checked_at).toBeNull();
    const broken = await f.req(f.A, 'GET', '/api/v2/search/links?broken_only=1&per_page=-1');
    expect(broken.body.data.map((l: any) => l.title).sort()).toEqual(['error', 'missing', 'moved', 'refused', 'slow']);
  });

  test('check of one link by id: owner only', async () => {
    const r = await f.req(f.A, 'GET', `/api/v2/links/check?id=${ids.ok}`);
    expect(r.body.data).toEqual([expect.objectContaining({ id: ids.ok, status: 1 })]);
    expect((await f.req(f.A, 'GET', `/api/v2/links/check?id=${ids.other}`)).status).toBe(403);
    expect((await f.req(f.A, 'GET', '/api/v2/links/check?id=9999')).status).toBe(404);
    expect((await f.req(f.S, 'GET', '/api/v2/links/check')).status).toBe(403);
  });

  test('the background checker takes batches, never-checked links first', async () => {
    const g = await setup({ linkCheckTimeout: 300 });
    try {
      for (const k of ['ok', 'missing', 'moved']) await g.req(g.A, 'POST', '/api/v2/links', { url: `${base}/${k}` });
      const { LinkChecker } = await import('../../../src/services/bookmarks/checker.js');
      const { openDb } = await import('../../../src/services/bookmarks/store/db.js');
      const db = openDb(g.sa.dataDir + '/bookmarks');
      const checker = new LinkChecker(db, { intervalMs: 0, batchSize: 2, timeoutMs: 300 });
      expect((await checker.runBatch()).map((x) => x.id)).toEqual([1, 2]);
      expect((await checker.runBatch()).map((x) => x.id)).toEqual([1, 3]); // 3 never checked, then the oldest check
      db.close();
    } finally {
      await g.close();
    }
  });

  test('the background loop runs on its interval once the server listens', async () => {
    const g = await setup({ linkCheck: true, linkCheckInterval: 0.05, linkCheckTimeout: 300 });
    try {
      await g.req(g.A, 'POST', '/api/v2/links', { url: `${base}/missing` });
      await g.sa.listen();
      let status = 1;
      for (let i = 0; i < 100 && status === 1; i++) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await g.req(g.A, 'GET', '/api/v2/links/1')).body.status;
      }
      expect(status).toBe(3);
    } finally {
      await g.close();
    }
  });
});
