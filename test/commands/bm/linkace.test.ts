/**
 * `ops bm` (the built binary) against a stand-in for a real LinkAce 2.x that answers with the recorded
 * shapes (test/clients/bookmarks/linkace-fixtures.ts): flat pagination, per_page=0, search maps, the
 * duplicate check, no import/export, PATCH that needs url and drops unsent tags, 401 and 429.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, tempDir } from '../../helpers/cli.js';
import { bmRunner } from '../../e2e/bm-helpers.js';
import { startFakeLinkAce, TOKEN, type FakeLinkAce } from '../../clients/bookmarks/linkace-server.js';

let la: FakeLinkAce;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  la = await startFakeLinkAce({ links: 230 });
  env = isolatedEnv({ OPS_BM_URL: la.url, OPS_BM_TOKEN: TOKEN });
});
afterAll(() => la.close());

const bm = bmRunner(() => env);

function requests(method: string, path: string) {
  return la.requests.filter((r) => r.method === method && r.path === path);
}

describe('against LinkAce 2.x shapes', () => {
  test('version: LinkAce without /api/version, no import endpoint', async () => {
    const r = await bm(['version', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ api_version: null, flavor: 'linkace', server_import: false, health_check: false });
  });

  test('links list --all follows every page by number, keeping the parameters LinkAce drops from its page URLs', async () => {
    la.requests.length = 0;
    const r = await bm(['links', 'list', '--all', '--sort', 'id', '--order', 'asc', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { id: number }[];
    expect(rows).toHaveLength(230);
    expect(rows[0]!.id).toBe(1);
    expect(rows[229]!.id).toBe(230);
    const pages = requests('GET', '/api/v2/links');
    expect(pages.map((p) => p.query.get('page'))).toEqual(['1', '2', '3']);
    for (const p of pages) expect([p.query.get('order_by'), p.query.get('order_dir'), p.query.get('per_page')]).toEqual(['id', 'asc', '100']);
  });

  test('links list --limit: one page of that size; TSV when piped', async () => {
    la.requests.length = 0;
    const r = await bm(['links', 'list', '--limit', '7']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[0]!.split('\t')).toHaveLength(6);
    expect(lines[0]).toMatch(/\tpublic\t(ok|broken)\t\d{4}-/);
    expect(requests('GET', '/api/v2/links').map((p) => p.query.get('per_page'))).toEqual(['7']);
  });

  test('links add: duplicate check through links/check, then tags by id', async () => {
    const dup = await bm(['links', 'add', 'https://seed1.example/']);
    expect(dup.exitCode).toBe(1);
    expect(dup.stderr).toContain('already saved');
    expect(requests('GET', '/api/v2/links/check').at(-1)!.query.get('url')).toBe('https://seed1.example/');

    const missing = await bm(['links', 'add', 'https://new.example/', '--tag', 'rust']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('no tag named "rust"');
    expect(missing.stderr).toContain('--create-missing');

    const r = await bm(['links', 'add', 'https://new.example/', '--title', 'New', '--tag', 'rust,cli', '--create-missing', '--visibility', 'internal', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const link = JSON.parse(r.stdout);
    expect(link).toMatchObject({ url: 'https://new.example/', title: 'New', visibility: 2 });
    expect(link.tags.map((t: { name: string }) => t.name).sort()).toEqual(['cli', 'rust']);
    const post = requests('POST', '/api/v2/links').at(-1)!.body as { tags: unknown[] };
    expect(post.tags.every((t) => typeof t === 'number')).toBe(true);
  });

  test('links edit sends url and the current tags (LinkAce needs url and drops unsent tags)', async () => {
    const id = la.links.find((l) => l.url === 'https://new.example/')!.id;
    const r = await bm(['links', 'edit', String(id), '--title', 'Renamed', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).tags).toHaveLength(2);
    const patch = requests('PATCH', `/api/v2/links/${id}`).at(-1)!.body as Record<string, unknown>;
    expect(patch).toMatchObject({ url: 'https://new.example/', title: 'Renamed' });
    expect((patch.tags as number[]).length).toBe(2);
    const rm = await bm(['links', 'edit', String(id), '--remove-tag', 'cli', '--json']);
    expect(JSON.parse(rm.stdout).tags.map((t: { name: string }) => t.name)).toEqual(['rust']);
  });

  test('search: links with the query switches, tags by their {id: name} map', async () => {
    la.requests.length = 0;
    const r = await bm(['search', 'seed1', '--title', '--json', '--limit', '5']);
    expect(r.exitCode, r.stderr).toBe(0);
    const q = requests('GET', '/api/v2/search/links')[0]!.query;
    expect([q.get('query'), q.get('search_title'), q.get('search_description')]).toEqual(['seed1', 'true', null]);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(5);

    const tags = await bm(['search', 'ru', '--type', 'tags', '--json']);
    expect(JSON.parse(tags.stdout)).toEqual([{ id: expect.any(Number), name: 'rust' }]);
    const none = await bm(['search', 'zzz', '--type', 'lists', '--json']);
    expect(JSON.parse(none.stdout)).toEqual([]);

    const byTag = await bm(['links', 'list', '--tag', 'rust', '--json']);
    expect((JSON.parse(byTag.stdout) as { url: string }[]).map((l) => l.url)).toEqual(['https://new.example/']);
    expect(requests('GET', '/api/v2/search/links').at(-1)!.query.get('only_tags')).toMatch(/^\d+$/);
  });

  test('check: no health-check API on LinkAce, the recorded broken links are shown', async () => {
    const r = await bm(['check', '--broken', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('own schedule');
    const rows = JSON.parse(r.stdout) as { status: number }[];
    expect(rows.length).toBe(46);
    expect(rows.every((l) => l.status === 3)).toBe(true);
    const saved = await bm(['check', 'https://seed2.example/']);
    expect(saved.exitCode).toBe(0);
    expect(saved.stdout).toBe('saved\thttps://seed2.example/');
    const notSaved = await bm(['check', 'https://nope.example/']);
    expect(notSaved.exitCode).toBe(1);
  });

  test('import: parsed on the client (no import API), bulk-created with a visibility, existing URLs skipped', async () => {
    const dir = tempDir();
    const file = join(dir, 'b.html');
    writeFileSync(
      file,
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>Work</H3>\n<DL><p>\n<DT><A HREF="https://seed3.example/">exists</A>\n<DT><A HREF="https://imp1.example/" TAGS="x">Imp 1</A>\n<DT><A HREF="https://imp2.example/" PRIVATE="0">Ïmp 2</A>\n</DL><p>\n</DL><p>\n',
    );
    la.requests.length = 0;
    const r = await bm(['import', file, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ mode: 'client', found: 3, links: { created: 2, existing: 1, failed: 0 }, lists: { created: 1 }, tags: { created: 1 } });
    const bulk = requests('POST', '/api/v2/bulk/links');
    expect(bulk).toHaveLength(1);
    const models = (bulk[0]!.body as { models: { url: string; visibility: number }[] }).models;
    expect(models.map((m) => [m.url, m.visibility])).toEqual([
      ['https://imp1.example/', 3],
      ['https://imp2.example/', 1],
    ]);
    expect(requests('GET', '/api/v2/links').at(-1)!.query.get('per_page')).toBe('0');
  });

  test('export html: tags from tags/{id}/links, lists as folders', async () => {
    const r = await bm(['export']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('<!DOCTYPE NETSCAPE-Bookmark-file-1>');
    expect(r.stdout).toMatch(/<DT><H3>Work<\/H3>\n\s+<DL><p>\n\s+<DT><A HREF="https:\/\/imp1\.example\/"[^>]*TAGS="x">Imp 1<\/A>/);
    expect(r.stdout.match(/<DT><A /g)!.length).toBe(233);
  });

  test('trash: list, restore and clear with the plain-array and {model} bodies', async () => {
    const rm = await bm(['links', 'rm', '1', '2', '--yes']);
    expect(rm.exitCode, rm.stderr).toBe(0);
    const list = await bm(['trash', 'list', '--type', 'links', '--json']);
    expect((JSON.parse(list.stdout) as { id: number }[]).map((l) => l.id)).toEqual([1, 2]);
    expect((await bm(['trash', 'restore', 'link', '1'])).exitCode).toBe(0);
    const refused = await bm(['trash', 'clear', '--type', 'links']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    const cleared = await bm(['trash', 'clear', '--type', 'links', '--yes']);
    expect(cleared.exitCode, cleared.stderr).toBe(0);
    expect(requests('DELETE', '/api/v2/trash/clear').at(-1)!.body).toEqual({ model: 'links' });
    expect(la.links.find((l) => l.id === 2)).toBeUndefined();
    expect(la.links.find((l) => l.id === 1)!.deleted_at).toBeNull();
  });

  test('a 429 on a read is waited out and retried, said on stderr', async () => {
    la.throttleNext = 1;
    const r = await bm(['links', 'get', '3', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/rate limited.*retrying/);
    expect(JSON.parse(r.stdout).id).toBe(3);
  });

  test("a wrong token exits 4 with LinkAce's message", async () => {
    const r = await bm(['links', 'list'], { OPS_BM_TOKEN: 'wrong' });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('Unauthenticated.');
  });

  test('validation errors are shown field by field', async () => {
    const r = await bm(['links', 'add', 'https://seed4.example/', '--force']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('url: The url has already been taken.');
  });
});
