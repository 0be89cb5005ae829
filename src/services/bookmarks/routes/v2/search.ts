/**
 * v2 search: links (paginated, with tags), tags and lists (`{id: name}` maps). Search finds only the caller's
 * own items, as LinkAce's SearchController (`byUser`); visibility rules elsewhere are unchanged.
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { envelope } from '../../pagination.js';
import type { PageRequest } from '../../pagination.js';
import { collectionsOf, linkJson, searchLinks, type LinkSearch } from '../../store/links.js';
import { searchCollections, type CollectionKind } from '../../store/collections.js';
import { declareRoute } from '../../../kit/route.js';
import { field, objectOf, optional } from '../../../kit/declare.js';
import { choice, lastOf, normalizeQuery, queryFlag, rule, visibilityOf } from '../../fields.js';
import { callerOf } from '../common.js';
import { idListField, page, pageOf, perPage, requireCriterion, searchText, withBracketLists } from '../queries.js';
import { doc, enumOf, linkSchema, paginated, visibility } from '../schemas.js';
import type { Caller } from '../../access.js';

export const SEARCH_ORDER = ['title:asc', 'title:desc', 'url:asc', 'url:desc', 'created_at:asc', 'created_at:desc', 'random'] as const;
const NEED_CRITERION = 'You must either enter a search query, or select a list, a tag or enable searching for broken links.';

/** A "field:direction" order (or random) as the search's. */
export function searchOrderOf(order: string): NonNullable<LinkSearch['order']> {
  const [by, dir] = order.split(':') as [string, 'asc' | 'desc' | undefined];
  return { by, dir: dir ?? 'asc' };
}

/** The v2 link search's query, checked in this order, then "a criterion is needed" (422). */
const linkSearchQuery = objectOf(
  {
    page,
    per_page: perPage,
    query: searchText,
    search_title: queryFlag('also match the title'),
    search_description: queryFlag('also match the description'),
    visibility: optional(rule(visibility, visibilityOf)),
    broken_only: queryFlag('links whose status is not ok only'),
    empty_lists: queryFlag('links without lists only'),
    only_lists: idListField('comma-separated list ids (any of them)'),
    empty_tags: queryFlag('links without tags only'),
    only_tags: idListField('comma-separated tag ids (any of them)'),
    order_by: optional(rule(enumOf(SEARCH_ORDER), choice(SEARCH_ORDER))),
  },
  {
    normalize: (raw) => withBracketLists(normalizeQuery(raw), ['only_lists', 'only_tags']),
    refine: (q, _input, problems) => requireCriterion(NEED_CRITERION, !!(q.query || q.only_lists?.length || q.only_tags?.length || q.broken_only || q.empty_lists || q.empty_tags), problems),
  },
);
type LinkSearchQuery = ReturnType<typeof linkSearchQuery.check>;

/** The v2 link search of a checked query. */
export function linkSearchOf(q: LinkSearchQuery): LinkSearch {
  return {
    query: q.query ?? null,
    searchTitle: q.search_title,
    searchDescription: q.search_description,
    visibility: q.visibility,
    brokenOnly: q.broken_only,
    emptyLists: q.empty_lists,
    onlyLists: q.only_lists,
    emptyTags: q.empty_tags,
    onlyTags: q.only_tags,
    ownOnly: true,
    ...(q.order_by ? { order: searchOrderOf(q.order_by) } : {}),
  };
}

export function searchLinksPage(deps: Deps, caller: Caller, s: LinkSearch, pageRequest: PageRequest) {
  const p = searchLinks(deps.db, caller, s, pageRequest);
  const tags = collectionsOf(
    deps.db,
    caller,
    'tags',
    p.data.map((r) => r.id),
  );
  return { ...p, data: p.data.map((r) => ({ ...linkJson(r), tags: tags.get(r.id) ?? [] })) };
}

export function searchRoutes(app: FastifyInstance, deps: Deps): void {
  declareRoute(app, {
    method: 'GET',
    url: '/api/v2/search/links',
    doc: doc('Search', "Search the caller's own links", { ok: paginated(linkSchema) }),
    query: linkSearchQuery,
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      return envelope(req, searchLinksPage(deps, caller, linkSearchOf(input.query), pageOf(input.query)));
    },
  });

  for (const kind of ['tags', 'lists'] as CollectionKind[]) collectionSearchRoute(app, deps, 'v2', kind);
}

/** A name search's text: the last of a repeated parameter; anything but a non-empty string finds nothing. */
const nameSearchQuery = objectOf(
  {
    query: optional(
      field<string>({ type: 'string' }, (v) => {
        const last = lastOf(v);
        return typeof last === 'string' && last !== '' ? last : undefined;
      }),
    ),
  },
  { normalize: normalizeQuery },
);

/** `GET /api/{version}/search/tags|lists?query=`: the caller's own matches as `{id: name}`, `[]` when none. */
export function collectionSearchRoute(app: FastifyInstance, deps: Deps, version: 'v1' | 'v2', kind: CollectionKind): void {
  declareRoute(app, {
    method: 'GET',
    url: `/api/${version}/search/${kind}`,
    doc: doc(version === 'v1' ? 'v1' : 'Search', `Search the caller's own ${kind} by name${version === 'v1' ? ' (v1)' : ''}: an object mapping id to name ([] when nothing matches)`, {
      ok: { type: ['object', 'array'], additionalProperties: { type: 'string' } },
    }),
    query: nameSearchQuery,
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      const query = input.query.query;
      if (query === undefined) return [];
      const rows = searchCollections(deps.db, caller, kind, query);
      if (!rows.length) return [];
      return Object.fromEntries(rows.map((r) => [String(r.id), r.name]));
    },
  });
}
