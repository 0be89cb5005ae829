import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

/**
 * The visibility matrix: users A and B each own a public (1), internal (2) and private (3) link, list,
 * tag and note. Callers: A, B, a guest (guest access on), a system token without and with private access.
 */
let f: Fixture;
const ids: Record<string, number> = {};
type Who = 'A' | 'B' | 'guest' | 'S' | 'SP';
const tokenOf = (w: Who) => (w === 'guest' ? null : f[w]);

const seesLinks: Record<Who, string[]> = {
  A: ['A1', 'A2', 'A3', 'B1', 'B2'],
  B: ['A1', 'A2', 'B1', 'B2', 'B3'],
  guest: ['A1', 'B1'],
  S: ['A1', 'A2', 'B1', 'B2'],
  SP: ['A1', 'A2', 'A3', 'B1', 'B2', 'B3'],
};
const ALL = ['A1', 'A2', 'A3', 'B1', 'B2', 'B3'];
const WHO: Who[] = ['A', 'B', 'guest', 'S', 'SP'];

function names(prefix: string, arr: { id: number }[]): string[] {
  const byId = new Map(
    Object.entries(ids)
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, v]) => [v, k.slice(prefix.length)]),
  );
  return arr.map((x) => byId.get(x.id) ?? `?${x.id}`).sort();
}

beforeAll(async () => {
  f = await setup({ guestAccess: true });
  for (const owner of ['A', 'B'] as const) {
    for (const v of [1, 2, 3]) {
      const key = `${owner}${v}`;
      ids[`list:${key}`] = (await f.req(f[owner], 'POST', '/api/v2/lists', { name: `list ${key}`, visibility: v })).body.id;
      ids[`tag:${key}`] = (await f.req(f[owner], 'POST', '/api/v2/tags', { name: `tag ${key}`, visibility: v })).body.id;
    }
    for (const v of [1, 2, 3]) {
      const key = `${owner}${v}`;
      const r = await f.req(f[owner], 'POST', '/api/v2/links', {
        url: `https://example.com/${key}`,
        title: `link ${key}`,
        visibility: v,
        // every link of an owner is in the owner's public list and carries all of the owner's tags
        lists: [ids[`list:${owner}1`]],
        tags: [ids[`tag:${owner}1`], ids[`tag:${owner}2`], ids[`tag:${owner}3`]],
      });
      expect(r.status).toBe(200);
      ids[`link:${key}`] = r.body.id;
    }
    for (const v of [1, 2, 3]) {
      const key = `${owner}${v}`;
      ids[`note:${key}`] = (await f.req(f[owner], 'POST', '/api/v2/notes', { link_id: ids[`link:${owner}1`], note: `note ${key}`, visibility: v })).body.id;
    }
  }
});
afterAll(async () => {
  await f.close();
});

describe('visibility matrix', () => {
  test.each(WHO)('GET /links as %s lists exactly the visible links', async (who) => {
    const r = await f.req(tokenOf(who), 'GET', '/api/v2/links?per_page=-1');
    expect(r.status).toBe(200);
    expect(names('link:', r.body.data)).toEqual(seesLinks[who]);
    expect(r.body.meta.total).toBe(seesLinks[who].length);
  });

  test.each(WHO)('GET /links/{id} as %s: 200 for visible links, 403 for the others', async (who) => {
    for (const k of ALL) {
      const r = await f.req(tokenOf(who), 'GET', `/api/v2/links/${ids[`link:${k}`]}`);
      expect([k, r.status]).toEqual([k, seesLinks[who].includes(k) ? 200 : 403]);
    }
  });

  test.each(WHO)('nested lists and tags of a link are filtered for %s', async (who) => {
    const r = await f.req(tokenOf(who), 'GET', `/api/v2/links/${ids['link:B1']}`);
    const expected = seesLinks[who].filter((k) => k.startsWith('B')).map((k) => k);
    expect(names('tag:', r.body.tags)).toEqual(expected);
  });

  // Search is scoped to the caller's own items (LinkAce's SearchController): other users' public and internal
  // items are not found, and system tokens and guests own nothing.
  const owns = (who: Who) => (who === 'A' || who === 'B' ? [`${who}1`, `${who}2`, `${who}3`] : []);
  test.each(WHO)('search as %s finds only its own links, tags and lists (v2 and v1)', async (who) => {
    for (const v of ['v1', 'v2']) {
      const r = await f.req(tokenOf(who), 'GET', `/api/${v}/search/links?query=example.com&per_page=100`);
      expect([v, r.status]).toEqual([v, 200]);
      expect([v, names('link:', r.body.data)]).toEqual([v, owns(who)]);
      for (const kind of ['tags', 'lists']) {
        const t = await f.req(tokenOf(who), 'GET', `/api/${v}/search/${kind}?query=${kind.slice(0, -1)}`);
        const want = owns(who).map((k) => ids[`${kind.slice(0, -1)}:${k}`]!);
        expect([
          v,
          kind,
          Array.isArray(t.body)
            ? []
            : Object.keys(t.body)
                .map(Number)
                .sort((a, b) => a - b),
        ]).toEqual([v, kind, want.sort((a, b) => a - b)]);
        if (!want.length) expect(t.body).toEqual([]);
      }
    }
  });

  test.each(WHO)('GET /lists and /tags as %s list the visible ones', async (who) => {
    for (const kind of ['lists', 'tags']) {
      const r = await f.req(tokenOf(who), 'GET', `/api/v2/${kind}?per_page=0`);
      expect(names(kind === 'lists' ? 'list:' : 'tag:', r.body.data)).toEqual(seesLinks[who]);
      for (const k of ALL) {
        const one = await f.req(tokenOf(who), 'GET', `/api/v2/${kind}/${ids[`${kind === 'lists' ? 'list' : 'tag'}:${k}`]}`);
        expect([kind, k, one.status]).toEqual([kind, k, seesLinks[who].includes(k) ? 200 : 403]);
      }
    }
  });

  test.each(WHO)('links of a list and of a tag are filtered for %s', async (who) => {
    const r = await f.req(tokenOf(who), 'GET', `/api/v2/lists/${ids['list:B1']}/links`);
    expect(names('link:', r.body.data)).toEqual(seesLinks[who].filter((k) => k.startsWith('B')));
    const t = await f.req(tokenOf(who), 'GET', `/api/v2/tags/${ids['tag:B1']}/links`);
    expect(names('link:', t.body.data)).toEqual(seesLinks[who].filter((k) => k.startsWith('B')));
    const hidden = await f.req(tokenOf(who), 'GET', `/api/v2/tags/${ids['tag:B3']}/links`);
    if (seesLinks[who].includes('B3')) expect(hidden.status).toBe(200);
    else expect([hidden.status, hidden.body]).toEqual([403, []]);
  });

  test.each(WHO)('notes of a link are filtered for %s', async (who) => {
    const r = await f.req(tokenOf(who), 'GET', `/api/v2/links/${ids['link:B1']}/notes`);
    expect(names('note:', r.body.data)).toEqual(seesLinks[who].filter((k) => k.startsWith('B')));
    const priv = await f.req(tokenOf(who), 'GET', `/api/v2/links/${ids['link:B3']}/notes`);
    expect(priv.status).toBe(seesLinks[who].includes('B3') ? 200 : 403);
  });

  test.each(WHO)('links/check as %s only reports visible URLs', async (who) => {
    for (const k of ALL) {
      const r = await f.req(tokenOf(who), 'GET', `/api/v2/links/check?url=${encodeURIComponent(`https://example.com/${k}`)}`);
      expect([k, r.body.linksFound]).toEqual([k, seesLinks[who].includes(k)]);
    }
  });

  test("bulk edit as A: own and B's shared links updated, B's private one null (no leak)", async () => {
    const all = ALL.map((k) => ids[`link:${k}`]);
    const r = await f.req(f.A, 'PATCH', '/api/v2/bulk/links', { models: all, tags: [], tags_mode: 'append', lists: [], lists_mode: 'append', visibility: null });
    expect(r.status).toBe(200);
    expect(r.body.map((x: any) => (x ? x.id : null))).toEqual([ids['link:A1'], ids['link:A2'], ids['link:A3'], ids['link:B1'], ids['link:B2'], null]);
    const d = await f.req(f.B, 'DELETE', '/api/v2/bulk/delete', { type: 'links', models: [ids['link:A1'], ids['link:A3'], 99999] });
    expect(d.body).toEqual({ [ids['link:A1']!]: false, [ids['link:A3']!]: false });
  });

  test('guests cannot write (401) and system tokens cannot write (403)', async () => {
    expect((await f.req(null, 'POST', '/api/v2/links', { url: 'https://g.example' })).status).toBe(401);
    expect((await f.req(null, 'DELETE', `/api/v2/links/${ids['link:A1']}`)).status).toBe(401);
    expect((await f.req(null, 'GET', '/api/v2/trash/links')).status).toBe(401);
    expect((await f.req(f.SP, 'POST', '/api/v2/tags', { name: 'x' })).status).toBe(403);
    expect((await f.req(f.SP, 'DELETE', `/api/v2/links/${ids['link:A1']}`)).status).toBe(403);
    expect((await f.req(f.SP, 'PATCH', '/api/v2/bulk/links', { models: [ids['link:A1']] })).status).toBe(403);
  });

  test('an invalid token is 401 even when guests are allowed', async () => {
    const r = await f.req('1|nope', 'GET', '/api/v2/links');
    expect([r.status, r.body]).toEqual([401, { message: 'Unauthenticated.' }]);
  });
});

describe('trash visibility', () => {
  test('each user sees and restores only their own trash; system tokens have none', async () => {
    const g = await setup();
    try {
      const a = await g.req(g.A, 'POST', '/api/v2/links', { url: 'https://a.example', visibility: 1 });
      const b = await g.req(g.B, 'POST', '/api/v2/links', { url: 'https://b.example', visibility: 1 });
      await g.req(g.A, 'DELETE', `/api/v2/links/${a.body.id}`);
      await g.req(g.B, 'DELETE', `/api/v2/links/${b.body.id}`);
      expect((await g.req(g.A, 'GET', '/api/v2/trash/links')).body.map((x: any) => x.id)).toEqual([a.body.id]);
      expect((await g.req(g.B, 'GET', '/api/v2/trash/links')).body.map((x: any) => x.id)).toEqual([b.body.id]);
      expect((await g.req(g.SP, 'GET', '/api/v2/trash/links')).body).toEqual([]);
      expect((await g.req(g.A, 'PATCH', '/api/v2/trash/restore', { model: 'link', id: b.body.id })).status).toBe(404);
      await g.req(g.A, 'DELETE', '/api/v2/trash/clear', { model: 'links' });
      expect((await g.req(g.B, 'GET', '/api/v2/trash/links')).body).toHaveLength(1);
      expect((await g.req(null, 'GET', '/api/v2/links')).status).toBe(401);
    } finally {
      await g.close();
    }
  });
});
