/**
 * v2 search: links (paginated, with tags), tags and lists (`{id: name}` maps). Search finds only the caller's
 * own items, as LinkAce's SearchController (`byUser`); visibility rules elsewhere are unchanged.
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { Check, type Input } from '../../validate.js';
import { envelope, readPage } from '../../pagination.js';
import { collectionsOf, linkJson, searchLinks, type LinkSearch } from '../../store/links.js';
import { searchCollections, type CollectionKind } from '../../store/collections.js';
import { callerOf, flag, idList, queryOf } from '../common.js';
import { doc, enumOf, linkSchema, pageQuery, paginated, visibility } from '../schemas.js';
import type { Caller } from '../../access.js';

export const SEARCH_ORDER = ['title:asc', 'title:desc', 'url:asc', 'url:desc', 'created_at:asc', 'created_at:desc', 'random'] as const;
const NEED_CRITERION = 'You must either enter a search query, or select a list, a tag or enable searching for broken links.';

/** Reads the v2 link search parameters (422 when none of the criteria is given). */
export function readLinkSearch(q: Input, c: Check): LinkSearch {
  const query = c.string('query', { max: 2048 });
  const s: LinkSearch = {
    query: typeof query === 'string' ? query : null,
    searchTitle: flag(q.search_title),
    searchDescription: flag(q.search_description),
    visibility: c.visibility('visibility'),
    brokenOnly: flag(q.broken_only),
    emptyLists: flag(q.empty_lists),
    onlyLists: idList(c, q, 'only_lists'),
    emptyTags: flag(q.empty_tags),
    onlyTags: idList(c, q, 'only_tags'),
    ownOnly: true,
  };
  const order = c.oneOf('order_by', SEARCH_ORDER);
  if (order) {
    const [by, dir] = order.split(':') as [string, 'asc' | 'desc' | undefined];
    s.order = { by, dir: dir ?? 'asc' };
  }
  if (!s.query && !s.onlyLists?.length && !s.onlyTags?.length && !s.brokenOnly && !s.emptyLists && !s.emptyTags)
    for (const f of ['query', 'only_lists', 'only_tags', 'broken_only']) c.fail(f, NEED_CRITERION);
  return s;
}

export function searchLinksPage(deps: Deps, caller: Caller, s: LinkSearch, page: ReturnType<typeof readPage>) {
  const p = searchLinks(deps.db, caller, s, page);
  const tags = collectionsOf(
    deps.db,
    caller,
    'tags',
    p.data.map((r) => r.id),
  );
  return { ...p, data: p.data.map((r) => ({ ...linkJson(r), tags: tags.get(r.id) ?? [] })) };
}

export function searchRoutes(app: FastifyInstance, deps: Deps): void {
  app.get(
    '/api/v2/search/links',
    {
      schema: doc('Search', "Search the caller's own links", {
        querystring: {
          type: 'object',
          properties: {
            query: { type: 'string' },
            search_title: { type: 'boolean' },
            search_description: { type: 'boolean' },
            visibility,
            broken_only: { type: 'boolean' },
            empty_lists: { type: 'boolean' },
            only_lists: { type: 'string', description: 'comma-separated list ids (any of them)' },
            empty_tags: { type: 'boolean' },
            only_tags: { type: 'string', description: 'comma-separated tag ids (any of them)' },
            order_by: enumOf(SEARCH_ORDER),
            page: pageQuery.page,
            per_page: pageQuery.per_page,
          },
        },
        ok: paginated(linkSchema),
      }),
    },
    async (req) => {
      const caller = callerOf(req);
      const q = queryOf(req);
      const c = new Check(q);
      const page = readPage(c);
      const s = readLinkSearch(q, c);
      c.done();
      return envelope(req, searchLinksPage(deps, caller, s, page));
    },
  );

  for (const kind of ['tags', 'lists'] as CollectionKind[]) collectionSearchRoute(app, deps, 'v2', kind);
}

/** `GET /api/{version}/search/tags|lists?query=`: the caller's own matches as `{id: name}`, `[]` when none. */
export function collectionSearchRoute(app: FastifyInstance, deps: Deps, version: 'v1' | 'v2', kind: CollectionKind): void {
  app.get(
    `/api/${version}/search/${kind}`,
    {
      schema: doc(version === 'v1' ? 'v1' : 'Search', `Search the caller's own ${kind} by name${version === 'v1' ? ' (v1)' : ''}: an object mapping id to name ([] when nothing matches)`, {
        querystring: { type: 'object', properties: { query: { type: 'string' } } },
        ok: { type: ['object', 'array'], additionalProperties: { type: 'string' } },
      }),
    },
    async (req) => {
      const caller = callerOf(req);
      const q = queryOf(req);
      const query = Array.isArray(q.query) ? q.query[q.query.length - 1] : q.query;
      if (typeof query !== 'string' || query === '') return [];
      const rows = searchCollections(deps.db, caller, kind, query);
      if (!rows.length) return [];
      return Object.fromEntries(rows.map((r) => [String(r.id), r.name]));
    },
  );
}
