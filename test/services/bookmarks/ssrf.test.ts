/**
 * SSRF through the bookmark service, from the attacker's side: a user creates links to an "internal"
 * HTTP server on 127.0.0.1 (which counts the requests reaching it) so that the server fetches its page
 * metadata, and asks for link checks to probe ports. Under --fetch-policy public nothing reaches the
 * target and open and closed ports look the same; metadata addresses are refused under any policy.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup } from './helpers.js';

let internal: Server;
let port = 0;
let hits = 0;
beforeAll(async () => {
  internal = createServer((req, res) => {
    hits++;
    if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${port}/admin` }).end();
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<title>INTERNAL ADMIN</title><meta name="description" content="secret-token-123">');
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
  port = (internal.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => internal.close(() => r())));

const spellings = () => [
  `http://127.0.0.1:${port}/admin`,
  `http://localhost:${port}/admin`,
  `http://0x7f000001:${port}/admin`,
  `http://2130706433:${port}/admin`,
  `http://0177.0.0.1:${port}/admin`,
  `http://127.0.0.1:${port}/redirect`,
];

describe('under --fetch-policy public', () => {
  it('creating links to loopback in 5 spellings and a redirect fetches nothing and stores no secret', async () => {
    const f = await setup({ fetchMetadata: true, metadataTimeout: 2000, fetchPolicy: 'public' });
    try {
      const before = hits;
      for (const url of spellings()) {
        const r = await f.req(f.A, 'POST', '/api/v2/links', { url });
        expect(r.status, url).toBe(200);
        expect(r.body.title, url).not.toContain('INTERNAL');
        expect(JSON.stringify(r.body)).not.toContain('secret-token');
        expect(r.body).toMatchObject({ description: null, status: 3, check_disabled: true });
      }
      expect(hits).toBe(before);
    } finally {
      await f.close();
    }
  });

  it('the link check does not reach loopback: an open and a closed port both read broken', async () => {
    const f = await setup({ fetchPolicy: 'public' });
    try {
      const closed = createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise<void>((r) => closed.close(() => r()));
      const open = await f.req(f.A, 'POST', '/api/v2/links', { url: `http://127.0.0.1:${port}/admin`, title: 'x' });
      const shut = await f.req(f.A, 'POST', '/api/v2/links', { url: `http://127.0.0.1:${closedPort}/`, title: 'y' });
      const before = hits;
      const a = await f.req(f.A, 'GET', `/api/v2/links/check?id=${open.body.id}`);
      const b = await f.req(f.A, 'GET', `/api/v2/links/check?id=${shut.body.id}`);
      expect(hits).toBe(before);
      expect(
        JSON.stringify(a.body)
          .replace(String(open.body.id), 'ID')
          .replace(/"last_checked_at":"[^"]+"/g, ''),
      ).toBe(
        JSON.stringify(b.body)
          .replace(String(shut.body.id), 'ID')
          .replace(/"last_checked_at":"[^"]+"/g, '')
          .replace(`:${closedPort}/`, `:${port}/admin`),
      );
      expect(JSON.stringify(a.body)).toContain('"status":3');
    } finally {
      await f.close();
    }
  });
});

describe('under the default policy of a loopback bind (any)', () => {
  it('loopback is fetched (a local page keeps its title)', async () => {
    const f = await setup({ fetchMetadata: true, metadataTimeout: 2000 });
    try {
      const r = await f.req(f.A, 'POST', '/api/v2/links', { url: `http://localhost:${port}/admin` });
      expect(r.body.title).toBe('INTERNAL ADMIN');
    } finally {
      await f.close();
    }
  });

  it('cloud metadata addresses are refused before any connect: a fallback title at once', async () => {
    // with a 60 s metadata timeout, a real connect attempt to 169.254.169.254 would hang the create
    const f = await setup({ fetchMetadata: true, metadataTimeout: 60_000 });
    try {
      for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://metadata.google.internal/computeMetadata/v1/']) {
        const r = await f.req(f.A, 'POST', '/api/v2/links', { url });
        expect(r.status, url).toBe(200);
        expect(r.body).toMatchObject({ description: null, status: 3, check_disabled: true });
      }
    } finally {
      await f.close();
    }
  }, 20_000);
});
