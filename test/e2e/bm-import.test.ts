/**
 * `ops bm import` / `export` end to end: a sizeable real-world-like Netscape file (nested folders, 1,000+
 * links, duplicates, non-ASCII titles) imported into `ops serve`, exported and compared; then a round
 * trip from the export into a second server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, type ServeHandle } from '../helpers/cli.js';
import { parseNetscape } from '../../src/clients/bookmarks/netscape.js';
import { bmRunner, plain, startBookmarks, tty } from './bm-helpers.js';
import { generateNetscape } from './fixtures/netscape-gen.js';

let a: ServeHandle;
let b: ServeHandle;
const onA = bmRunner(() => a.env);
const onB = bmRunner(() => b.env);
const dir = tempDir('ops-bm-import-');
const gen = generateNetscape(1100);
const file = join(dir, 'bookmarks.html');

beforeAll(async () => {
  [a, b] = await Promise.all([startBookmarks(), startBookmarks()]);
  writeFileSync(file, gen.html);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

interface Exported {
  url: string;
  title: string;
  description: string | null;
  visibility: number;
  tags: string[];
  lists: string[];
}

function comparable(doc: { links: Exported[] }) {
  return doc.links
    .map((l) => ({ url: l.url, title: l.title, description: l.description, visibility: l.visibility, tags: [...l.tags].sort(), lists: [...l.lists].sort() }))
    .sort((x, y) => x.url.localeCompare(y.url));
}

describe('import and export', () => {
  test('the generated file is what it claims', () => {
    expect(gen.entries).toBeGreaterThan(1000);
    expect(gen.duplicates).toBeGreaterThan(0);
    expect(parseNetscape(gen.html).bookmarks).toHaveLength(gen.entries);
  });

  let dryRun: Record<string, unknown>;

  test('--dry-run counts everything and creates nothing', async () => {
    const r = await onA(['import', file, '--client-side', '--dry-run', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    dryRun = JSON.parse(r.stdout);
    expect(dryRun).toMatchObject({ dry_run: true, found: gen.entries, links: { created: gen.expected.size, existing: 0, duplicates: gen.duplicates, failed: 0 } });
    expect(JSON.parse((await onA(['links', 'list', '--json'])).stdout)).toEqual([]);
    expect(JSON.parse((await onA(['lists', 'list', '--json'])).stdout)).toEqual([]);
  });

  test('import creates every unique link with its lists (folders) and tags, as the dry run said; a second import skips them all', async () => {
    const r = await onA(['import', file, '--client-side', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toEqual({ ...dryRun, dry_run: false });
    expect(s).toMatchObject({ mode: 'client', found: gen.entries, links: { created: gen.expected.size, duplicates: gen.duplicates, failed: 0 } });
    expect(s.lists.created).toBeGreaterThan(20);
    expect(s.tags.created).toBe(13);
    const again = await onA(['import', file, '--client-side', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ links: { created: 0, existing: gen.expected.size, duplicates: gen.duplicates, failed: 0 }, lists: { created: 0 }, tags: { created: 0 } });
  });

  test('the HTML export has every link with its title, description, tags and folders', async () => {
    const out = join(dir, 'export.html');
    const r = await onA(['export', '-o', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`exported ${gen.expected.size} links`);
    const parsed = parseNetscape(readFileSync(out, 'utf8'));
    const byUrl = new Map<string, { title: string; description: string | null; tags: string[]; folders: Set<string> }>();
    for (const bk of parsed.bookmarks) {
      const seen = byUrl.get(bk.url) ?? { title: bk.title, description: bk.description, tags: bk.tags, folders: new Set<string>() };
      for (const f of bk.folders) seen.folders.add(f);
      byUrl.set(bk.url, seen);
    }
    expect(byUrl.size).toBe(gen.expected.size);
    for (const [url, want] of gen.expected) {
      const got = byUrl.get(url);
      expect(got, url).toBeDefined();
      expect(got!.title).toBe(want.title);
      expect(got!.description).toBe(want.description);
      expect([...got!.tags].sort()).toEqual([...want.tags].sort());
      expect([...got!.folders].sort()).toEqual([...want.folders].sort());
    }
  });

  test('round trip: JSON export of A imported into B exports the same links', async () => {
    const aJson = join(dir, 'a.json');
    expect((await onA(['export', '--format', 'json', '-o', aJson])).exitCode).toBe(0);
    const r = await onB(['import', aJson, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ links: { created: gen.expected.size, failed: 0 } });
    const bDoc = JSON.parse((await onB(['export', '--format', 'json'])).stdout);
    const aDoc = JSON.parse(readFileSync(aJson, 'utf8'));
    expect(comparable(bDoc)).toEqual(comparable(aDoc));
    expect(bDoc.lists.map((l: { name: string }) => l.name).sort()).toEqual(aDoc.lists.map((l: { name: string }) => l.name).sort());
  });

  test('CSV export: one row per link plus a header', async () => {
    const r = await onB(['export', '--format', 'csv']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\r\n')[0]).toBe('id,url,title,description,visibility,status,tags,lists,created_at,updated_at');
    expect(r.stdout.match(/^\d+,https:/gm)!.length).toBe(gen.expected.size);
  });

  test("HTML goes to the server's importer on ops serve; --client-side parses it here; non-web entries are left out", async () => {
    const mixed = join(dir, 'mixed.html');
    writeFileSync(
      mixed,
      '<DL><p><DT><A HREF="https://mixed.example/1">One</A><DT><A HREF="place:sort=8">Recent</A><DT><A HREF="javascript:alert(1)">JS</A><DT><A HREF="https://mixed.example/2" TAGS="m">Two</A></DL>',
    );
    const server = await onB(['import', mixed, '--json']);
    expect(server.exitCode, server.stderr).toBe(0);
    expect(JSON.parse(server.stdout)).toMatchObject({ mode: 'server', found: 4, links: { created: 2, invalid: 2, failed: 0 } });
    const again = await onB(['import', mixed, '--client-side', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ mode: 'client', found: 4, links: { created: 0, existing: 2, invalid: 2, failed: 0 } });
  });

  test('on a terminal, import prints a summary table; a file that is not bookmarks is a usage error', async () => {
    const small = join(dir, 'small.html');
    writeFileSync(small, '<DL><p><DT><H3>Ünï</H3><DL><p><DT><A HREF="https://small.example/1">Smäll</A></DL><p></DL>');
    const t = await tty(['bm', 'import', small], b.env);
    expect(t.exitCode, t.output).toBe(0);
    const out = plain(t.output);
    expect(out).toMatch(/found\s+1/);
    expect(out).toMatch(/links created\s+1/);
    const tiny = join(dir, 'tiny.html');
    writeFileSync(tiny, '<DL><p><DT><A HREF="https://tiny.example/1">Tiny</A><DT><A HREF="https://tiny.example/2">Tiny 2</A></DL>');
    const progress = await tty(['bm', 'import', tiny, '--client-side'], b.env);
    expect(progress.exitCode, progress.output).toBe(0);
    expect(plain(progress.output)).toContain('reading what the server has'); // the spinner, on stderr
    expect(plain(progress.output)).toMatch(/links created\s+2/);
    const junk = join(dir, 'junk.txt');
    writeFileSync(junk, 'hello there');
    expect((await onB(['import', junk])).exitCode).toBe(2);
    expect((await onB(['import', join(dir, 'missing.html')])).exitCode).toBe(1);
  });
});
