import { describe, expect, test } from 'vitest';
import { normalizeNameMap, normalizePage, ShapeError } from '../../../src/clients/bookmarks/pages.js';
import { parseStatus, parseVisibility, statusName, visibilityName, VisibilityError } from '../../../src/clients/bookmarks/visibility.js';
import { itemsFromJson, itemsFromNetscape, mergeDuplicates, ImportFormatError } from '../../../src/clients/bookmarks/transfer.js';
import { parseNetscape } from '../../../src/clients/bookmarks/netscape.js';
import { LINKACE_PAGE_1, LINKACE_ALL } from './linkace-fixtures.js';

describe('normalizePage', () => {
  test('our v2 envelope', () => {
    const p = normalizePage({ data: [{ id: 1 }], links: { first: 'f', last: 'l', prev: null, next: 'n' }, meta: { current_page: 1, last_page: 3, per_page: 1, total: 3, from: 1, to: 1, path: 'p' } });
    expect(p).toMatchObject({ page: 1, lastPage: 3, perPage: 1, total: 3, hasNext: true, shape: 'envelope' });
  });
  test('LinkAce flat paginator (per_page as a string, links as an array)', () => {
    const p = normalizePage(LINKACE_PAGE_1);
    expect(p).toMatchObject({ page: 1, lastPage: 2, perPage: 2, total: 3, hasNext: true, shape: 'flat' });
    expect(p.items.map((l: any) => l.id)).toEqual([3, 2]);
  });
  test('LinkAce per_page=0 answer: everything, one page', () => {
    const p = normalizePage(LINKACE_ALL);
    expect(p).toMatchObject({ page: 1, lastPage: 1, perPage: 999999999, total: 3, hasNext: false });
  });
  test('a v1 page of ops serve: meta and links objects beside the flat fields (per_page a string) read alike', () => {
    const flat = {
      current_page: 2,
      first_page_url: 'u?page=1',
      from: 26,
      last_page: 3,
      last_page_url: 'u?page=3',
      next_page_url: 'u?page=3',
      path: 'u',
      per_page: '25',
      prev_page_url: 'u?page=1',
      to: 50,
      total: 60,
    };
    const data = Array.from({ length: 25 }, (_, i) => ({ id: 26 + i, is_private: false }));
    const ours = normalizePage({
      data,
      meta: { current_page: 2, from: 26, last_page: 3, path: 'u', per_page: 25, to: 50, total: 60 },
      links: { first: 'u?page=1', last: 'u?page=3', prev: 'u?page=1', next: 'u?page=3' },
      ...flat,
    });
    expect(ours).toMatchObject({ page: 2, lastPage: 3, perPage: 25, total: 60, hasNext: true });
    // LinkAce 1.x: the flat fields only, links as Laravel's array of page links
    const linkace1 = normalizePage({ data, ...flat, links: [{ url: null, label: '&laquo; Previous', active: false }] });
    expect(linkace1).toMatchObject({ page: 2, lastPage: 3, perPage: 25, total: 60, hasNext: true, shape: 'flat' });
  });
  test('plain arrays (trash)', () => {
    expect(normalizePage([{ id: 1 }])).toMatchObject({ items: [{ id: 1 }], hasNext: false, shape: 'array' });
  });
  test('an empty page never has a next one', () => {
    expect(normalizePage({ data: [], current_page: 5, last_page: 9 }).hasNext).toBe(false);
  });
  test('not a list', () => {
    expect(() => normalizePage({ message: 'x' })).toThrow(ShapeError);
    expect(() => normalizePage('<html>')).toThrow(ShapeError);
  });
  test('name maps of search/tags', () => {
    expect(normalizeNameMap({ '83': 'programming', '138': 'programming-books' })).toEqual([
      { id: 83, name: 'programming' },
      { id: 138, name: 'programming-books' },
    ]);
    expect(normalizeNameMap([])).toEqual([]);
    expect(normalizeNameMap([{ id: 1, name: 'a' }])).toEqual([{ id: 1, name: 'a' }]);
    expect(normalizeNameMap({ data: [{ id: 2, name: 'b' }] })).toEqual([{ id: 2, name: 'b' }]);
  });
});

describe('visibility and status', () => {
  test('words and numbers', () => {
    expect(parseVisibility('public')).toBe(1);
    expect(parseVisibility('Internal')).toBe(2);
    expect(parseVisibility('3')).toBe(3);
    expect(parseVisibility(2)).toBe(2);
    expect(() => parseVisibility('secret')).toThrow(VisibilityError);
    expect(() => parseVisibility('4')).toThrow(VisibilityError);
    expect(visibilityName(1)).toBe('public');
    expect(visibilityName(9)).toBe('9');
    expect(statusName(3)).toBe('broken');
    expect(parseStatus('moved')).toBe(2);
    expect(() => parseStatus('gone')).toThrow();
  });
});

describe('transfer', () => {
  const file = parseNetscape(
    '<DL><DT><H3>A</H3><DL><DT><H3>B</H3><DL><DT><A HREF="https://x" TAGS="t">X</A></DL></DL><DT><A HREF="https://x" TAGS="u">X again</A><DT><A HREF="https://y" PRIVATE="1">Y</A></DL>',
  );
  test('folders as lists (full path), as tags, or ignored', () => {
    const asLists = itemsFromNetscape(file, 'lists');
    expect(asLists.items[0]).toMatchObject({ url: 'https://x', lists: ['A / B'], tags: ['t'] });
    expect(asLists.lists.map((l) => l.name)).toEqual(['A / B', 'A']);
    expect(itemsFromNetscape(file, 'tags').items[0]!.tags).toEqual(['t', 'A', 'B']);
    expect(itemsFromNetscape(file, 'none').items[0]).toMatchObject({ lists: [], tags: ['t'] });
    expect(asLists.items[2]!.visibility).toBe(3);
    expect(asLists.items[0]!.visibility).toBeUndefined();
  });
  test('duplicates merged, their tags and lists united', () => {
    const { items, duplicates } = mergeDuplicates(itemsFromNetscape(file, 'lists').items);
    expect(duplicates).toBe(1);
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ title: 'X', tags: ['t', 'u'], lists: ['A / B'] });
  });
  test('our JSON export and plain arrays', () => {
    const doc = itemsFromJson({ links: [{ url: 'https://a', title: 'A', tags: ['x', { name: 'y' }], lists: 'l1,l2', visibility: 'internal' }], lists: [{ name: 'l1', visibility: 1 }], tags: ['x'] });
    expect(doc.items[0]).toMatchObject({ url: 'https://a', tags: ['x', 'y'], lists: ['l1', 'l2'], visibility: 2 });
    expect(doc.lists).toEqual([{ name: 'l1', description: undefined, visibility: 1 }]);
    expect(itemsFromJson([{ url: 'https://b' }]).items[0]!.title).toBe('https://b');
    expect(() => itemsFromJson({ nope: 1 })).toThrow(ImportFormatError);
    expect(() => itemsFromJson([{ title: 'no url' }])).toThrow(/no url/);
    expect(() => itemsFromJson([{ url: 'https://c', visibility: 'secret' }])).toThrow(/links\[0\]/);
  });
});
