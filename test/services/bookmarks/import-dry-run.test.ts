/** The server's importer: `dry_run=1` runs the same import and rolls it back; neither publishes events. */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, type Fixture } from './helpers.js';

const firefox = readFileSync(join(import.meta.dirname, 'fixtures', 'firefox.html'));

async function upload(f: Fixture, query: string, data: Buffer | string) {
  const boundary = '----opsdryrun';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.html"\r\nContent-Type: text/html\r\n\r\n`),
    Buffer.isBuffer(data) ? data : Buffer.from(data),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const r = await f.sa.app.inject({
    method: 'POST',
    url: `/api/v1/import${query}`,
    headers: { authorization: `Bearer ${f.A}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
  return { status: r.statusCode, body: JSON.parse(r.body) };
}

async function state(f: Fixture) {
  const links = (await f.req(f.A, 'GET', '/api/v2/links?per_page=-1')).body.data.map((l: any) => l.url).sort();
  const tags = (await f.req(f.A, 'GET', '/api/v2/tags?per_page=-1')).body.data.map((t: any) => t.name).sort();
  return { links, tags };
}

describe('import dry run', () => {
  test('predicts exactly what the real run then does, and changes nothing (links, tags, events)', async () => {
    const f = await setup();
    try {
      await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://nodejs.org/', tags: ['Dev Tools'] });
      const before = await state(f);
      f.events.length = 0;
      const dry = await upload(f, '?dry_run=1', firefox);
      expect(dry.status).toBe(200);
      expect(dry.body.dry_run).toBe(true);
      expect(await state(f)).toEqual(before);
      expect(f.events).toEqual([]);

      const real = await upload(f, '', firefox);
      expect({ ...real.body, dry_run: true }).toEqual(dry.body);
      expect(real.body).toMatchObject({ existing: 1, imported: 6, dry_run: false });
      const after = await state(f);
      expect(after.links.length - before.links.length).toBe(real.body.imported);
      expect(after.tags.length - before.tags.length).toBe(real.body.tags_created);
      // events, decided: none for an import (as LinkAce's import notifies nothing), however many links and tags it made
      expect(real.body.tags_created).toBeGreaterThan(0);
      expect(f.events).toEqual([]);
      // a link created through the API right after still publishes link.created
      await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://after-import.example/' });
      expect(f.events.map((e) => e.type)).toEqual(['link.created']);

      // a second dry run now predicts nothing new
      const again = await upload(f, '?dry_run=true', firefox);
      expect(again.body).toMatchObject({ imported: 0, existing: 7, tags_created: 0, dry_run: true });
    } finally {
      await f.close();
    }
  });

  test('a big file (written in several slices) with repeated URLs and shared tags: the same counts', async () => {
    const f = await setup();
    try {
      await f.req(f.A, 'POST', '/api/v2/links', { url: 'https://big7.example/', tags: ['t7'] });
      const rows = Array.from({ length: 6000 }, (_, i) => `<DT><A HREF="https://big${i % 5000}.example/" TAGS="t${i % 40},T${i % 3},shared">Big ${i}</A>`);
      const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>Folder</H3>\n<DL><p>\n${rows.join('\n')}\n</DL><p>\n</DL>\n`;
      const dry = await upload(f, '?dry_run=1', file);
      const real = await upload(f, '', file);
      expect({ ...real.body, dry_run: true }).toEqual(dry.body);
      expect(real.body).toMatchObject({ total: 6000, imported: 4999, existing: 1, duplicates: 1000, tags_created: 40 + 3 + 2 - 1 });
    } finally {
      await f.close();
    }
  });

  test('repeated URLs in a file are duplicates, not existing links', async () => {
    const f = await setup();
    try {
      const file = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://a.example/">A</A>\n<DT><A HREF="https://a.example/">A again</A>\n</DL>\n';
      expect((await upload(f, '?dry_run=1', file)).body).toMatchObject({ total: 2, imported: 1, duplicates: 1, existing: 0, skipped: 1 });
    } finally {
      await f.close();
    }
  });
});
