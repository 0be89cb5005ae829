import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeHtml, fallbackTitle, fetchMeta, parseMeta, sniffMetaCharset } from '../../../src/services/bookmarks/metadata.js';
import { setup } from './helpers.js';

describe('parseMeta', () => {
  test('title (whitespace collapsed, entities decoded) and description', () => {
    const m = parseMeta('<html><head><title>\n  Example &amp; Co\n  Title </title><meta name="Description" content="This an example description"></head></html>', 'https://example.com/x');
    expect(m).toEqual({ title: 'Example & Co Title', description: 'This an example description', thumbnail: null });
  });
  test('description falls back to og:description then twitter:description', () => {
    expect(parseMeta('<meta property="og:description" content="og"><meta name="twitter:description" content="tw">', 'https://a.b').description).toBe('og');
    expect(parseMeta('<meta name="twitter:description" content="tw">', 'https://a.b').description).toBe('tw');
    expect(parseMeta('<meta name="description" content="  ">', 'https://a.b').description).toBeNull();
  });
  test('title falls back to og:title, then the host', () => {
    expect(parseMeta('<meta property="og:title" content="OG">', 'https://a.b/c').title).toBe('OG');
    expect(parseMeta('<p>nothing</p>', 'https://host.example/c').title).toBe('host.example');
    expect(parseMeta('<title></title>', 'https://host.example/c').title).toBe('host.example');
  });
  test('the first title wins, titles inside svg are ignored, unclosed title still read', () => {
    expect(parseMeta('<svg><title>icon</title></svg><title>Page</title><title>Second</title>', 'https://a.b').title).toBe('Page');
    expect(parseMeta('<title>Unclosed', 'https://a.b').title).toBe('Unclosed');
  });
  test('a regex would get these wrong: attributes in any order, quotes, comments, scripts', () => {
    const html = `<!-- <title>commented</title> --><script>var s = "<title>in script</title>";</script>
      <meta content='single "quoted"' name=description><title>Real</title>`;
    expect(parseMeta(html, 'https://a.b')).toMatchObject({ title: 'Real', description: 'single "quoted"' });
  });
  test('thumbnail from og:image or twitter:image, resolved against the page', () => {
    expect(parseMeta('<meta property="og:image" content="/img/a.png">', 'https://a.b/x/y').thumbnail).toBe('https://a.b/img/a.png');
    expect(parseMeta('<meta name="twitter:image" content="https://cdn.b/i.jpg">', 'https://a.b').thumbnail).toBe('https://cdn.b/i.jpg');
  });
  test('fallbackTitle', () => {
    expect(fallbackTitle('https://sub.example.org:8080/a?b')).toBe('sub.example.org');
    expect(fallbackTitle('duckduckgo.com/about-us')).toBe('duckduckgo.com/about-us');
  });
});

describe('decodeHtml', () => {
  const latin1 = Buffer.from('<title>Caf\xe9</title>', 'latin1');
  test('charset from the Content-Type header', () => {
    expect(decodeHtml(latin1, 'text/html; charset=ISO-8859-1')).toBe('<title>Café</title>');
  });
  test('charset from <meta charset> and http-equiv', () => {
    const a = Buffer.concat([Buffer.from('<meta charset="windows-1252">'), latin1]);
    expect(decodeHtml(a)).toContain('Café');
    const b = Buffer.concat([Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'), latin1]);
    expect(sniffMetaCharset(b)).toBe('iso-8859-1');
    expect(decodeHtml(b)).toContain('Café');
  });
  test('UTF-8 by default, BOMs honoured, invalid UTF-8 read as windows-1252', () => {
    expect(decodeHtml(Buffer.from('<title>Café ✓</title>'))).toBe('<title>Café ✓</title>');
    expect(decodeHtml(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x')]))).toBe('x');
    expect(decodeHtml(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi', 'utf16le')]))).toBe('hi');
    expect(decodeHtml(latin1)).toBe('<title>Café</title>');
    expect(decodeHtml(latin1, 'text/html; charset=bogus-charset')).toBe('<title>Café</title>');
  });
});

let server: Server;
let base: string;
let refused: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const u = (req.url ?? '').split('?')[0];
    if (u === '/page')
      return res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<html><head><title>Local Page</title><meta name="description" content="Served by the test"><meta property="og:image" content="/t.png"></head></html>');
    if (u === '/latin1') return res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' }).end(Buffer.from('<title>Na\xefve</title>', 'latin1'));
    if (u === '/redirect') return res.writeHead(302, { location: '/page' }).end();
    if (u === '/gone') return res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    if (u === '/slow') return;
    if (u === '/pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF');
    if (u === '/huge') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<title>Huge</title><meta name="description" content="big">');
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let n = 0;
      const pump = () => {
        while (n++ < 200) if (!res.write(chunk)) return void res.once('drain', pump);
        res.end();
      };
      res.on('error', () => {});
      return pump();
    }
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tmp = createServer();
  await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r));
  refused = `http://127.0.0.1:${(tmp.address() as AddressInfo).port}/`;
  await new Promise<void>((r) => tmp.close(() => r()));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('fetchMeta against a local server', () => {
  test('reads title, description and thumbnail', async () => {
    expect(await fetchMeta(`${base}/page`)).toEqual({ title: 'Local Page', description: 'Served by the test', thumbnail: `${base}/t.png` });
  });
  test('follows redirects; decodes the header charset', async () => {
    expect((await fetchMeta(`${base}/redirect`))?.title).toBe('Local Page');
    expect((await fetchMeta(`${base}/latin1`))?.title).toBe('Naïve');
  });
  test('null for >= 400, a refused port, a timeout, and non-http schemes', async () => {
    expect(await fetchMeta(`${base}/gone`)).toBeNull();
    expect(await fetchMeta(`${base}/error`)).toBeNull();
    expect(await fetchMeta(refused)).toBeNull();
    expect(await fetchMeta(`${base}/slow`, { timeoutMs: 300 })).toBeNull();
    expect(await fetchMeta('ftp://127.0.0.1/file')).toBeNull();
    expect(await fetchMeta('not a url')).toBeNull();
  });
  test('a size cap: only the first bytes are read', async () => {
    expect(await fetchMeta(`${base}/huge`, { maxBytes: 100_000 })).toMatchObject({ title: 'Huge', description: 'big' });
  });
  test('non-HTML content: the host as title', async () => {
    expect(await fetchMeta(`${base}/pdf`)).toEqual({ title: '127.0.0.1', description: null, thumbnail: null });
  });
});

describe('metadata on link create', () => {
  test('omitted title and description come from the page; given ones are kept', async () => {
    const f = await setup({ fetchMetadata: true, metadataTimeout: 1000 });
    try {
      const r = await f.req(f.A, 'POST', '/api/v2/links', { url: `${base}/page` });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ title: 'Local Page', description: 'Served by the test', thumbnail: `${base}/t.png`, status: 1, check_disabled: false });
      const own = await f.req(f.A, 'POST', '/api/v2/links', { url: `${base}/page?x`, title: 'Mine' });
      expect(own.body).toMatchObject({ title: 'Mine', description: 'Served by the test' });
      const empty = await f.req(f.A, 'POST', '/api/v2/links', { url: `${base}/page?y`, title: '', description: '' });
      expect(empty.body).toMatchObject({ title: 'Local Page', description: 'Served by the test' });
    } finally {
      await f.close();
    }
  });

  test('an unreachable page never fails the create: host title, broken, checks disabled', async () => {
    const f = await setup({ fetchMetadata: true, metadataTimeout: 300 });
    try {
      for (const url of [`${base}/gone`, refused, `${base}/slow`]) {
        const r = await f.req(f.A, 'POST', '/api/v2/links', { url });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ title: '127.0.0.1', description: null, status: 3, check_disabled: true });
      }
    } finally {
      await f.close();
    }
  });
});

describe('windows-1252', () => {
  test('0x80-0x9F map to the windows-1252 characters; latin1 labels decode as windows-1252', async () => {
    const { decodeWindows1252 } = await import('../../../src/services/bookmarks/metadata.js');
    expect(decodeWindows1252(Buffer.from([0x80, 0x93, 0x94, 0x96, 0x99, 0xe9]))).toBe('€“”–™é');
    expect(decodeHtml(Buffer.from([0x80]), 'text/html; charset=iso-8859-1')).toBe('€');
  });
});
