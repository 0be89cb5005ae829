/**
 * Responses of a real LinkAce 2.x, as the reference (shared/reference/bookmarks-linkace.md §3.3, §5, §6,
 * §10, §11) records them: the flat Laravel paginator (page URLs carry only ?page=N, per_page may be a
 * string, per_page=0 answers everything with per_page 999999999), search maps, the duplicate check.
 */

const BASE = 'http://linkace.test';

export function linkaceLink(id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    user_id: 1,
    url: `https://site${id}.example/`,
    title: `Site ${id}`,
    description: id % 2 ? `About site ${id}` : null,
    icon: 'link',
    thumbnail: null,
    visibility: ((id - 1) % 3) + 1,
    status: 1,
    check_disabled: false,
    created_at: `2024-10-0${id}T12:00:00.000000Z`,
    updated_at: `2024-10-0${id}T12:00:00.000000Z`,
    deleted_at: null,
    ...extra,
  };
}

function navLinks(path: string, current: number, last: number): { url: string | null; label: string; active: boolean }[] {
  const out = [{ url: current > 1 ? `${path}?page=${current - 1}` : null, label: '&laquo; Previous', active: false }];
  for (let i = 1; i <= last; i++) out.push({ url: `${path}?page=${i}`, label: String(i), active: i === current });
  out.push({ url: current < last ? `${path}?page=${current + 1}` : null, label: 'Next &raquo;', active: false });
  return out;
}

/** Laravel's LengthAwarePaginator::toArray(). */
export function laravelPage(path: string, items: unknown[], page: number, perPage: number | string, total: number): Record<string, unknown> {
  const size = Number(perPage);
  const last = Math.max(1, Math.ceil(total / size));
  const from = items.length ? (page - 1) * size + 1 : null;
  return {
    current_page: page,
    data: items,
    first_page_url: `${path}?page=1`,
    from,
    last_page: last,
    last_page_url: `${path}?page=${last}`,
    links: navLinks(path, page, last),
    next_page_url: page < last ? `${path}?page=${page + 1}` : null,
    path,
    per_page: perPage,
    prev_page_url: page > 1 ? `${path}?page=${page - 1}` : null,
    to: from === null ? null : from + items.length - 1,
    total,
  };
}

export const LINKACE_PAGE_1 = laravelPage(`${BASE}/api/v2/links`, [linkaceLink(3), linkaceLink(2)], 1, '2', 3);
export const LINKACE_PAGE_2 = laravelPage(`${BASE}/api/v2/links`, [linkaceLink(1)], 2, '2', 3);
export const LINKACE_ALL = laravelPage(`${BASE}/api/v2/links`, [linkaceLink(3), linkaceLink(2), linkaceLink(1)], 1, 999999999, 3);

export const LINKACE_SEARCH_TAGS = { '83': 'programming', '138': 'programming-books' };
export const LINKACE_UNAUTHENTICATED = { message: 'Unauthenticated.' };
export const LINKACE_URL_TAKEN = { message: 'The url has already been taken.', errors: { url: ['The url has already been taken.'] } };
export const LINKACE_NEED_CRITERION = {
  message: 'You must either enter a search query, or select a list, a tag or enable searching for broken links. (and 3 more errors)',
  errors: Object.fromEntries(
    ['query', 'only_lists', 'only_tags', 'broken_only'].map((k) => [k, ['You must either enter a search query, or select a list, a tag or enable searching for broken links.']]),
  ),
};
