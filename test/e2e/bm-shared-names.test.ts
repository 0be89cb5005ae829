/**
 * `ops bm` with two users on one `ops serve`: another user's internal tags and lists are visible to the
 * caller and may carry the same names as the caller's own. Names must then resolve to the caller's own
 * (as LinkAce does for names), and a command that changes or deletes a list/tag by name never guesses.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addUser } from '../helpers/admin.js';
import { tempDir, type ServeHandle } from '../helpers/cli.js';
import { bmRunner, startBookmarks } from './bm-helpers.js';

let serve: ServeHandle;
let bobToken: string;
const bm = bmRunner(() => serve.env);

async function asBob(method: string, path: string, body?: unknown): Promise<any> {
  const r = await fetch(`${serve.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bobToken}`, accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(r.status, `${method} ${path}`).toBe(200);
  return r.json();
}

let mine: { tag: number; list: number };
let bobs: { tag: number; list: number };

beforeAll(async () => {
  serve = await startBookmarks();
  bobToken = addUser(serve.dataDir, { name: 'Bob', email: 'bob@example.com' }).token;
  const t = await bm(['tags', 'add', 'shared', '--json']);
  const l = await bm(['lists', 'add', 'Reading', '--json']);
  expect(t.exitCode, t.stderr).toBe(0);
  expect(l.exitCode, l.stderr).toBe(0);
  mine = { tag: JSON.parse(t.stdout).id, list: JSON.parse(l.stdout).id };
  // Bob's come later, so they are listed first (newest first).
  bobs = {
    tag: (await asBob('POST', '/api/v2/tags', { name: 'shared', visibility: 2 })).id,
    list: (await asBob('POST', '/api/v2/lists', { name: 'Reading', visibility: 2 })).id,
  };
});
afterAll(async () => {
  await serve?.stop();
});

const ids = (items: { id: number }[]) => items.map((i) => i.id);

describe('names shared with another user', () => {
  test("links add --tag/--list take the caller's own tag and list, not the other user's", async () => {
    const r = await bm(['links', 'add', 'https://shared.example/1', '--title', 'One', '--tag', 'shared', '--list', 'Reading', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const link = JSON.parse(r.stdout);
    expect(ids(link.tags)).toEqual([mine.tag]);
    expect(ids(link.lists)).toEqual([mine.list]);
  });

  test('links edit --add-tag and bulk add do the same', async () => {
    const a = await bm(['links', 'add', 'https://shared.example/2', '--title', 'Two', '--json']);
    const id = JSON.parse(a.stdout).id;
    const e = await bm(['links', 'edit', String(id), '--add-tag', 'shared', '--add-list', 'Reading', '--json']);
    expect(e.exitCode, e.stderr).toBe(0);
    expect(ids(JSON.parse(e.stdout).tags)).toEqual([mine.tag]);
    expect(ids(JSON.parse(e.stdout).lists)).toEqual([mine.list]);

    const b = await bm(['bulk', 'add', '-', '--format', 'ndjson', '--json'], {}, '{"url":"https://shared.example/3","title":"Three","tags":"shared","lists":"Reading"}\n');
    expect(b.exitCode, b.stderr + b.stdout).toBe(0);
    const got = await bm(['links', 'list', '--tag', 'shared', '--json']);
    const three = JSON.parse(got.stdout).find((l: any) => l.url === 'https://shared.example/3');
    expect(three).toBeTruthy();
    const full = JSON.parse((await bm(['links', 'get', String(three.id), '--json'])).stdout);
    expect(ids(full.tags)).toEqual([mine.tag]);
    expect(ids(full.lists)).toEqual([mine.list]);
  });

  test("a client-side import puts links under the caller's own tag", async () => {
    const file = join(tempDir('ops-bm-shared-'), 'b.html');
    writeFileSync(file, '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://shared.example/4" TAGS="shared">Four</A>\n</DL><p>\n');
    const r = await bm(['import', file, '--client-side', '--json']);
    expect(r.exitCode, r.stderr + r.stdout).toBe(0);
    const found = JSON.parse((await bm(['search', 'shared.example/4', '--json'])).stdout);
    expect(found).toHaveLength(1);
    expect(ids(JSON.parse((await bm(['links', 'get', String(found[0].id), '--json'])).stdout).tags)).toEqual([mine.tag]);
  });

  test('a filter by a shared name matches links with any of the tags', async () => {
    const r = await bm(['links', 'list', '--tag', 'shared', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(
      JSON.parse(r.stdout)
        .map((l: any) => l.url)
        .sort(),
    ).toEqual(['https://shared.example/1', 'https://shared.example/2', 'https://shared.example/3', 'https://shared.example/4']);
  });

  test('get, edit and rm by an ambiguous name refuse and name the ids; by id they work', async () => {
    for (const args of [
      ['tags', 'get', 'shared'],
      ['tags', 'rm', 'shared', '--yes'],
      ['lists', 'edit', 'Reading', '--name', 'Renamed'],
      ['lists', 'rm', 'reading', '--yes'],
    ]) {
      const r = await bm(args);
      expect(r.exitCode, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(`(ids `);
      expect(r.stderr).toContain('Give the id');
    }
    // nothing was deleted or renamed
    expect((await asBob('GET', `/api/v2/tags/${bobs.tag}`)).name).toBe('shared');
    expect((await asBob('GET', `/api/v2/lists/${bobs.list}`)).name).toBe('Reading');
    const mineNow = await bm(['lists', 'get', String(mine.list), '--json']);
    expect(JSON.parse(mineNow.stdout)).toMatchObject({ id: mine.list, name: 'Reading' });
  });
});
