import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';
import { LINK_ORDER } from '../../../src/services/bookmarks/store/links.js';
import { LIST_ORDER, TAG_ORDER } from '../../../src/services/bookmarks/store/collections.js';

let f: Fixture;
const N = 60;
beforeAll(async () => {
  f = await setup();
  for (let i = 1; i <= N; i++) {
    const r = await f.req(f.A, 'POST', '/api/v2/links', {
      url: `https://site${String((i * 37) % N).padStart(2, '0')}.example/p${i}`,
      title: `Title ${String((i * 13) % N).padStart(2, '0')}`,
      description: i % 5 === 0 ? null : `desc ${String((i * 7) % N).padStart(2, '0')}`,
      visibility: (i % 3) + 1,
      check_disabled: i % 2 === 0,
    });
    expect(r.status).toBe(200);
  }
  for (let i = 1; i <= 5; i++) {
    await f.req(f.A, 'POST', '/api/v2/lists', { name: `list ${6 - i}`, description: `d${i}`, visibility: (i % 3) + 1 });
    await f.req(f.A, 'POST', '/api/v2/tags', { name: `tag ${6 - i}`, visibility: (i % 3) + 1 });
  }
});
afterAll(async () => {
  await f.close();
});

describe('pagination', () => {
  test('default page: 25 items, envelope with links and meta, flat Laravel fields too', async () => {
    const r = await f.req(f.A, 'GET', '/api/v2/links');
    expect(r.body.data).toHaveLength(25);
    expect(r.body.meta).toEqual({ current_page: 1, from: 1, last_page: 3, path: 'http://localhost:80/api/v2/links', per_page: 25, to: 25, total: N });
    expect(r.body.links).toEqual({
      first: 'http://localhost:80/api/v2/links?page=1',
      last: 'http://localhost:80/api/v2/links?page=3',
      prev: null,
      next: 'http://localhost:80/api/v2/links?page=2',
    });
    expect(r.body).toMatchObject({ current_page: 1, last_page: 3, total: N, per_page: 25, next_page_url: r.body.links.next, prev_page_url: null });
  });

  test.each(['-1', '0'])('per_page=%s returns everything on one page', async (pp) => {
    const r = await f.req(f.A, 'GET', `/api/v2/links?per_page=${pp}`);
    expect(r.body.data).toHaveLength(N);
    expect(r.body.meta).toMatchObject({ current_page: 1, last_page: 1, total: N, from: 1, to: N });
    expect(r.body.links.next).toBeNull();
  });

  test('the last page is partial; links keep the other query parameters', async () => {
    const r = await f.req(f.A, 'GET', '/api/v2/links?per_page=25&page=3&order_by=title&order_dir=asc');
    expect(r.body.data).toHaveLength(10);
    expect(r.body.meta).toMatchObject({ current_page: 3, from: 51, to: 60, last_page: 3 });
    expect(r.body.links.next).toBeNull();
    const prev = new URL(r.body.links.prev);
    expect(Object.fromEntries(prev.searchParams)).toEqual({ per_page: '25', page: '2', order_by: 'title', order_dir: 'asc' });
    const back = await f.req(f.A, 'GET', prev.pathname + prev.search);
    expect(back.body.meta).toMatchObject({ current_page: 2, from: 26, to: 50 });
  });

  test('following next links walks every item exactly once', async () => {
    const seen: number[] = [];
    let url: string | null = '/api/v2/links?per_page=7&order_by=id&order_dir=asc';
    while (url) {
      const r = await f.req(f.A, 'GET', url);
      seen.push(...r.body.data.map((l: any) => l.id));
      url = r.body.links.next ? new URL(r.body.links.next).pathname + new URL(r.body.links.next).search : null;
    }
    expect(seen).toEqual(Array.from({ length: N }, (_, i) => i + 1));
  });

  test('a page past the end is empty with from/to null and a prev link', async () => {
    const r = await f.req(f.A, 'GET', '/api/v2/links?page=9');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(r.body.meta).toMatchObject({ current_page: 9, from: null, to: null, total: N, last_page: 3 });
    expect(r.body.links.next).toBeNull();
    expect(r.body.links.prev).toContain('page=3');
  });

  test('per_page is capped by the system limit (1000)', async () => {
    const r = await f.req(f.A, 'GET', '/api/v2/links?per_page=5000');
    expect(r.body.meta.per_page).toBe(1000);
  });

  test("page below 1 or not a number is page 1 (Laravel); the Zapier triggers' first poll sends page=0", async () => {
    for (const q of ['page=0', 'page=-3', 'page=abc', 'page=1.5', 'page=', 'page=0&page=0']) {
      const r = await f.req(f.A, 'GET', `/api/v2/links?per_page=2&${q}`);
      expect([q, r.status, r.body.meta.current_page, r.body.current_page]).toEqual([q, 200, 1, 1]);
      expect(r.body.data).toHaveLength(2);
      expect(r.body.next_page_url).toContain('page=2');
    }
  });

  test('bad per_page values are 422', async () => {
    for (const q of ['per_page=-2', 'per_page=ten']) {
      const r = await f.req(f.A, 'GET', `/api/v2/links?${q}`);
      expect([q, r.status]).toEqual([q, 422]);
      expect(Object.keys(r.body.errors)).toEqual([q.split('=')[0]]);
    }
  });
});

function sorted<T>(arr: T[], key: (t: T) => unknown, dir: 'asc' | 'desc'): T[] {
  return [...arr].sort((a, b) => {
    const ka = key(a) as string | number;
    const kb = key(b) as string | number;
    const c = ka < kb ? -1 : ka > kb ? 1 : 0;
    return dir === 'asc' ? c : -c;
  });
}

describe('ordering', () => {
  test.each(
    LINK_ORDER.filter((o) => o !== 'random').flatMap(
      (o) =>
        [
          [o, 'asc'],
          [o, 'desc'],
        ] as const,
    ),
  )('links order_by=%s %s', async (by, dir) => {
    const r = await f.req(f.A, 'GET', `/api/v2/links?per_page=-1&order_by=${by}&order_dir=${dir}`);
    expect(r.status).toBe(200);
    const key = (l: any) => [l[by] === null ? '' : typeof l[by] === 'boolean' ? Number(l[by]) : l[by], l.id];
    const got = r.body.data.map((l: any) => l.id);
    const want = [...r.body.data]
      .sort((a: any, b: any) => {
        const [ka, ia] = key(a);
        const [kb, ib] = key(b);
        const c = ka < kb ? -1 : ka > kb ? 1 : ia - ib;
        return dir === 'asc' ? c : -c;
      })
      .map((l: any) => l.id);
    expect(got).toEqual(want);
  });

  test('links default order is created_at desc; order_by=random returns every link', async () => {
    const r = await f.req(f.A, 'GET', '/api/v2/links?per_page=-1');
    expect(r.body.data.map((l: any) => l.id)).toEqual(sorted(r.body.data, (l: any) => l.created_at + String(l.id).padStart(4, '0'), 'desc').map((l: any) => l.id));
    const rnd = await f.req(f.A, 'GET', '/api/v2/links?per_page=-1&order_by=random');
    expect(rnd.body.data.map((l: any) => l.id).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
  });

  test.each([
    ...LIST_ORDER.filter((o) => o !== 'random').flatMap(
      (o) =>
        [
          ['lists', o, 'asc'],
          ['lists', o, 'desc'],
        ] as const,
    ),
    ...TAG_ORDER.filter((o) => o !== 'random').flatMap(
      (o) =>
        [
          ['tags', o, 'asc'],
          ['tags', o, 'desc'],
        ] as const,
    ),
  ])('%s order_by=%s %s', async (kind, by, dir) => {
    const r = await f.req(f.A, 'GET', `/api/v2/${kind}?order_by=${by}&order_dir=${dir}`);
    expect(r.status).toBe(200);
    const vals = r.body.data.map((x: any) => x[by]);
    const want = [...vals].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (dir === 'desc') want.reverse();
    expect(vals).toEqual(want);
  });

  test('bad order_by and order_dir are 422 naming the field', async () => {
    const r = await f.req(f.A, 'GET', '/api/v2/links?order_by=nope&order_dir=up');
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ order_by: ['The selected order by is invalid.'], order_dir: ['The selected order dir is invalid.'] });
    expect(r.body.message).toBe('The selected order by is invalid. (and 1 more error)');
    expect((await f.req(f.A, 'GET', '/api/v2/tags?order_by=description')).status).toBe(422);
    expect((await f.req(f.A, 'GET', '/api/v2/lists?order_by=description')).status).toBe(200);
  });
});
