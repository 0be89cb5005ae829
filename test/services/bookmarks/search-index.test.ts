import { describe, expect, test } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../../../src/services/bookmarks/store/db.js';
import { insertUser } from '../../../src/services/bookmarks/store/users.js';
import { insertLink, searchLinks, setLinkDeleted, updateLink } from '../../../src/services/bookmarks/store/links.js';
import type { Caller } from '../../../src/services/bookmarks/access.js';

function fresh() {
  const dir = mkdtempSync(join(tmpdir(), 'ops-bm-idx-'));
  const db = openDb(dir);
  const u = insertUser(db, 'u', 'u@example.com');
  const other = insertUser(db, 'o', 'o@example.com');
  return { dir, db, u, other, caller: { kind: 'user', userId: u.id, tokenId: 1 } as Caller };
}
const all = { page: 1, perPage: null };
const link = (userId: number, url: string, visibility = 3, title = 't') => ({ user_id: userId, url, title, description: null, icon: 'link', visibility });

describe('the in-memory search index', () => {
  test('follows inserts, updates, soft deletes and rolled-back writes', () => {
    const { db, u, caller } = fresh();
    insertLink(db, link(u.id, 'https://one.example'));
    expect(searchLinks(db, caller, { query: 'example' }, all).total).toBe(1); // loads
    const two = insertLink(db, link(u.id, 'https://two.example'));
    expect(searchLinks(db, caller, { query: 'example' }, all).data.map((r) => r.url)).toEqual(['https://one.example', 'https://two.example']);
    updateLink(db, two.id, { url: 'https://deux.example', status: 3 });
    expect(searchLinks(db, caller, { query: 'two' }, all).total).toBe(0);
    expect(searchLinks(db, caller, { brokenOnly: true }, all).data.map((r) => r.url)).toEqual(['https://deux.example']);
    setLinkDeleted(db, two.id, true);
    expect(searchLinks(db, caller, { query: 'deux' }, all).total).toBe(0);
    setLinkDeleted(db, two.id, false);
    expect(searchLinks(db, caller, { query: 'deux' }, all).total).toBe(1);
    expect(() =>
      db.transaction(() => {
        insertLink(db, link(u.id, 'https://rolled-back.example'));
        throw new Error('abort');
      })(),
    ).toThrow('abort');
    expect(searchLinks(db, caller, { query: 'rolled-back' }, all).total).toBe(0);
    db.close();
  });

  test('reloads when another connection changes the database', () => {
    const { dir, db, u, caller } = fresh();
    insertLink(db, link(u.id, 'https://a.example'));
    expect(searchLinks(db, caller, { query: 'example' }, all).total).toBe(1);
    const other = openDb(dir);
    insertLink(other, link(u.id, 'https://b.example'));
    other.prepare("UPDATE links SET title = 'Renamed' WHERE url = 'https://a.example'").run();
    other.close();
    expect(searchLinks(db, caller, { query: 'example' }, all).total).toBe(2);
    expect(searchLinks(db, caller, { query: 'renamed', searchTitle: true }, all).data.map((r) => r.url)).toEqual(['https://a.example']);
    db.close();
  });

  test('visibility, own-only, is_private and ordering with ties', () => {
    const { db, u, other, caller } = fresh();
    insertLink(db, link(u.id, 'https://mine-private.example', 3, 'b'));
    insertLink(db, link(other.id, 'https://theirs-private.example', 3, 'a'));
    insertLink(db, link(other.id, 'https://theirs-internal.example', 2, 'b'));
    insertLink(db, link(other.id, 'https://theirs-public.example', 1, 'a'));
    const urls = (s: Parameters<typeof searchLinks>[2], c = caller) => searchLinks(db, c, s, all).data.map((r) => r.url);
    expect(urls({ query: 'example' })).toEqual(['https://mine-private.example', 'https://theirs-internal.example', 'https://theirs-public.example']);
    expect(urls({ query: 'example', ownOnly: true })).toEqual(['https://mine-private.example']);
    expect(urls({ query: 'example', isPrivate: false })).toEqual(['https://theirs-internal.example', 'https://theirs-public.example']);
    expect(urls({ query: 'example', order: { by: 'title', dir: 'asc' } })).toEqual(['https://theirs-public.example', 'https://mine-private.example', 'https://theirs-internal.example']);
    expect(urls({ query: 'example', order: { by: 'title', dir: 'desc' } })).toEqual(['https://theirs-internal.example', 'https://mine-private.example', 'https://theirs-public.example']);
    expect(urls({ query: 'example' }, { kind: 'guest', key: 'g' })).toEqual(['https://theirs-public.example']);
    expect(urls({ query: 'example' }, { kind: 'system', privateAccess: true, tokenId: 9 })).toHaveLength(4);
    expect(searchLinks(db, caller, { query: 'example' }, { page: 2, perPage: 2 })).toMatchObject({ total: 3 });
    expect(searchLinks(db, caller, { query: 'example' }, { page: 2, perPage: 2 }).data.map((r) => r.url)).toEqual(['https://theirs-public.example']);
    db.close();
  });
});
