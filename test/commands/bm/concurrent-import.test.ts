/**
 * One list per name per user (issue 33, item 7): two client-side imports of the same folders at once
 * against `ops serve`'s bookmark service make each list once; a create that finds the name taken by
 * another client uses that list; the store refuses a second list of a name, and its migration renames the
 * duplicates an older install holds.
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/services/server.js';
import bookmarks from '../../../src/services/bookmarks/index.js';
import { DB_FILE, openDb } from '../../../src/services/bookmarks/store/db.js';
import { BookmarkClient } from '../../../src/clients/bookmarks.js';
import { HttpClient } from '../../../src/core/http.js';
import { NameResolver } from '../../../src/commands/bm/shared.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { tempDir } from '../../helpers/cli.js';

let server: RunningServer;
let token: string;
beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir: tempDir('ops-lists-'), fetchMetadata: false, linkCheck: false, apiRateLimit: '100000' }, [bookmarks]);
  token = server.credentials.bmToken!;
});
afterAll(() => server.close());

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

function netscape(folders: number, perFolder: number): string {
  const parts = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<DL><p>'];
  for (let f = 0; f < folders; f++) {
    parts.push(`<DT><H3>Folder ${f}</H3>`, '<DL><p>');
    for (let i = 0; i < perFolder; i++) parts.push(`<DT><A HREF="https://example.com/${f}/${i}">link ${f}/${i}</A>`);
    parts.push('</DL><p>');
  }
  parts.push('</DL><p>');
  return parts.join('\n');
}

describe('lists are unique per user', { timeout: 60_000 }, () => {
  it('two client-side imports of the same folders at once make each list once, with every link in it', async () => {
    const file = join(tempDir('ops-import-'), 'bookmarks.html');
    writeFileSync(file, netscape(10, 3));
    const env = { OPS_BM_URL: server.url, OPS_BM_TOKEN: token, OPS_CONFIG_DIR: tempDir('ops-cfg-'), OPS_STATE_DIR: tempDir('ops-state-') };
    const runs = await Promise.all([1, 2].map(() => opsIn(['bm', 'import', file, '--client-side', '--json'], { env })));
    const lists = (await api('GET', '/api/v2/lists?per_page=-1')).body.data as { id: number; name: string }[];
    const names = lists.map((l) => l.name).sort();
    expect(names).toEqual(Array.from({ length: 10 }, (_, f) => `Folder ${f}`).sort());
    // no list creation counted as a failure by either run
    for (const r of runs) expect(r.stdout + r.stderr).not.toMatch(/\(list Folder/);
    for (const l of lists) {
      const links = (await api('GET', `/api/v2/lists/${l.id}/links?per_page=-1`)).body.data as { url: string }[];
      const f = l.name.split(' ')[1];
      expect(links.map((x) => x.url).sort()).toEqual([0, 1, 2].map((i) => `https://example.com/${f}/${i}`));
    }
  });

  it('a create that finds the name taken since its look-up uses the existing list', async () => {
    const client = new BookmarkClient(new HttpClient({ baseUrl: server.url, authorization: `Bearer ${token}`, serviceName: 'bookmark service' }));
    const resolver = new NameResolver(client, { create: true });
    await resolver.all('lists'); // looked up before the other client creates it
    const theirs = (await api('POST', '/api/v2/lists', { name: 'made meanwhile' })).body;
    const used = await resolver.create('lists', 'made meanwhile');
    expect(used.id).toBe(theirs.id);
  });

  it('the API refuses a second list of a name with 422', async () => {
    await api('POST', '/api/v2/lists', { name: 'once' });
    const again = await api('POST', '/api/v2/lists', { name: 'once' });
    expect(again.status).toBe(422);
    expect(again.body.errors.name).toEqual(['The name has already been taken.']);
  });
});

describe('the migration of an older store', () => {
  it('renames the duplicate lists of a user ("name (2)", the first number free), keeping their links', () => {
    const dir = tempDir('ops-migrate-');
    openDb(dir).close();
    // made as an older install had it: no unique index, duplicates present
    const old = new Database(join(dir, DB_FILE));
    old.exec('DROP INDEX lists_user_name; CREATE INDEX lists_user_name ON lists(user_id, name);');
    const now = new Date().toISOString();
    old.prepare("INSERT INTO users (id, name, email, created_at, updated_at) VALUES (1, 'a', 'a@x', ?, ?), (2, 'b', 'b@x', ?, ?)").run(now, now, now, now);
    const list = old.prepare('INSERT INTO lists (user_id, name, visibility, created_at, updated_at) VALUES (?, ?, 3, ?, ?)');
    const ids = [list.run(1, 'News', now, now), list.run(1, 'News', now, now), list.run(1, 'News (2)', now, now), list.run(2, 'News', now, now), list.run(1, 'News', now, now)].map((r) =>
      Number(r.lastInsertRowid),
    );
    old.prepare("INSERT INTO links (id, user_id, url, title, visibility, created_at, updated_at) VALUES (1, 1, 'https://x', 'x', 3, ?, ?)").run(now, now);
    old.prepare('INSERT INTO link_lists (link_id, list_id) VALUES (1, ?)').run(ids[1]);
    old.pragma('user_version = 3');
    old.close();

    const db = openDb(dir);
    const names = db.prepare('SELECT id, user_id, name FROM lists ORDER BY id').all();
    expect(names).toEqual([
      { id: ids[0], user_id: 1, name: 'News' },
      { id: ids[1], user_id: 1, name: 'News (3)' },
      { id: ids[2], user_id: 1, name: 'News (2)' },
      { id: ids[3], user_id: 2, name: 'News' },
      { id: ids[4], user_id: 1, name: 'News (4)' },
    ]);
    expect(db.prepare('SELECT list_id FROM link_lists WHERE link_id = 1').pluck().get()).toBe(ids[1]);
    expect(() => db.prepare("INSERT INTO lists (user_id, name, visibility, created_at, updated_at) VALUES (1, 'News', 3, 'x', 'x')").run()).toThrow(/UNIQUE/);
    db.close();
  });
});
