/**
 * v1 links (`/api/v1/links`) and the link search (`/api/v1/search/links`), as LinkAce 1.x serves them.
 * - `/links` lists the links the caller may see (visibility rules), ordered by one of the reference's columns
 *   (`is_private` orders by visibility), filtered by the description's query/tags/lists/is_private.
 * - `/links/check?url=` answers `{linksFound}` for the caller's own links (LinkAce 1.x's LinkCheckController).
 * - `/search/links` finds only the caller's own links (LinkAce's SearchController); its parameters are the
 *   reference's (query, search_title, search_description, private_only, broken_only, empty_lists, empty_tags,
 *   only_lists, only_tags, order_by=`title:asc`) plus today's is_private, tags, lists and order_by+order_dir.
 *   Flags read as PHP's `(bool)`. `only_lists`/`only_tags` take ids, or names of the caller's own lists/tags.
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import type { Caller } from '../../access.js';
import { ORDER_DIRS } from '../../validate.js';
import { envelope } from '../../pagination.js';
import { linkWithRelations, visibleUrlExists, type LinkSearch } from '../../store/links.js';
import { findOwnByName, type CollectionKind } from '../../store/collections.js';
import { createLink, deleteLink, patchLink, viewableLink } from '../../actions/links.js';
import { declareRoute } from '../../../kit/route.js';
import { field, objectOf, optional } from '../../../kit/declare.js';
import { bool, choice, queryFlag, idList, isId, normalizeQuery, phpFlag, queryParts, rule } from '../../fields.js';
import { callerOf, idOf } from '../common.js';
import { doc, enumOf, idParams, linkV1Schema, v1Paginated } from '../schemas.js';
import { idListField, orderBy, orderDir, page, requireCriterion, searchText, v1PageOf, v1PerPageField, withBracketLists } from '../queries.js';
import { linkUpdateV1Body, newLinkV1Body } from '../../bodies/links.js';
import { SEARCH_ORDER, searchLinksPage, searchOrderOf } from '../v2/search.js';
import { v1 } from './json.js';

/** The reference's order_by values of v1 links; `is_private` is the visibility column. */
export const V1_LINK_ORDER = ['id', 'url', 'title', 'description', 'is_private', 'status', 'check_disabled', 'created_at', 'updated_at'] as const;
const NEED_CRITERION = 'You must either enter a search query, or select a list or a tag.';

/** The store column behind a v1 order_by value. */
export function v1Column(by: string): string {
  return by === 'is_private' ? 'visibility' : by;
}

const LIST_NAMES = ['tags', 'only_tags', 'lists', 'only_lists'];
const isPrivate = optional(rule({ type: 'boolean' }, bool));

/**
 * `GET /api/v1/links`: page, the description's filters (query, tags, lists, is_private; only_tags and
 * only_lists are read as tags and lists when those are not given or not lists of ids), order_by and order_dir.
 */
const listLinksQuery = objectOf(
  {
    page,
    per_page: v1PerPageField,
    query: searchText,
    tags: idListField('tag ids (any of them): tags=1,2 or tags[]=1&tags[]=2'),
    only_tags: idListField('comma-separated tag ids (as tags)'),
    lists: idListField('list ids (any of them): lists=1,2 or lists[]=1&lists[]=2'),
    only_lists: idListField('comma-separated list ids (as lists)'),
    is_private: isPrivate,
    order_by: orderBy(V1_LINK_ORDER),
    order_dir: orderDir(),
  },
  {
    normalize(raw) {
      const q = withBracketLists(normalizeQuery(raw), LIST_NAMES);
      for (const name of ['tags', 'lists']) if (q[name] !== undefined && idList(q[name], () => undefined) !== undefined) delete q[`only_${name}`];
      return q;
    },
  },
);

function listFilters(q: ReturnType<typeof listLinksQuery.check>): LinkSearch {
  return {
    query: q.query ?? null,
    searchTitle: true,
    searchDescription: true,
    onlyTags: q.tags ?? q.only_tags,
    onlyLists: q.lists ?? q.only_lists,
    isPrivate: q.is_private ?? null,
    order: { by: v1Column(q.order_by), dir: q.order_dir },
  };
}

/** Comma-separated ids or names of the caller's own lists or tags: never refused (a name that matches nothing matches no link). */
function refsField(what: 'list' | 'tag') {
  return optional(field<string[]>({ type: 'string', description: `comma-separated ${what} ids or names of the caller's ${what}s (any of them)` }, queryParts));
}
const V1_SEARCH_ORDER = [...SEARCH_ORDER, ...V1_LINK_ORDER];
const isSearchOrder = (v: unknown) => typeof v === 'string' && (v.includes(':') || v === 'random');

/**
 * `GET /api/v1/search/links`: the reference's parameters (query, the flags, only_lists/only_tags by id or name,
 * order_by "field:direction") plus today's is_private, tags, lists and order_by+order_dir. `only_tags` hides
 * `tags` (`only_lists` hides `lists`), private_only hides is_private, a "field:direction" order hides order_dir.
 */
const searchLinksQuery = objectOf(
  {
    page,
    per_page: v1PerPageField,
    query: searchText,
    search_title: queryFlag('also match the title'),
    search_description: queryFlag('also match the description'),
    private_only: queryFlag('private links only'),
    broken_only: queryFlag('links whose status is not ok only'),
    empty_lists: queryFlag('links without lists only (wins over only_lists)'),
    empty_tags: queryFlag('links without tags only (wins over only_tags)'),
    only_lists: refsField('list'),
    only_tags: refsField('tag'),
    tags: idListField('tag ids (any of them), when only_tags is not given'),
    lists: idListField('list ids (any of them), when only_lists is not given'),
    is_private: isPrivate,
    order_by: optional(rule(enumOf(V1_SEARCH_ORDER, { default: 'title:asc', description: '"field:direction" (title, url, created_at), random, or a column with order_dir' }), choice(V1_SEARCH_ORDER))),
    order_dir: optional(rule(enumOf(ORDER_DIRS, { description: 'with a plain column in order_by' }), choice(ORDER_DIRS))),
  },
  {
    normalize(raw) {
      const q = withBracketLists(normalizeQuery(raw), LIST_NAMES);
      if (q.only_tags !== undefined) delete q.tags;
      if (q.only_lists !== undefined) delete q.lists;
      if (phpFlag(q.private_only)) delete q.is_private;
      if (isSearchOrder(q.order_by)) delete q.order_dir;
      return q;
    },
    refine: (q, _input, problems) =>
      requireCriterion(NEED_CRITERION, !!(q.query || (q.only_tags ?? q.tags)?.length || (q.only_lists ?? q.lists)?.length || q.broken_only || q.empty_tags || q.empty_lists), problems),
  },
);

/**
 * Ids from a list's parts: digits are ids, other parts names of the caller's own collections (LinkAce 1.x
 * matches names on form requests). A name that matches nothing matches no link.
 */
function refIds(deps: Deps, caller: Caller, parts: string[] | undefined, kind: CollectionKind): number[] | undefined {
  if (parts === undefined) return undefined;
  if (parts.every(isId)) return parts.map(Number);
  const ids: number[] = [];
  for (const p of parts) {
    if (isId(p)) ids.push(Number(p));
    else if (caller.kind === 'user') {
      const row = findOwnByName(deps.db, kind, caller.userId, p);
      if (row && !row.deleted_at) ids.push(row.id);
    }
  }
  return ids.length ? ids : [0];
}

function searchOf(deps: Deps, caller: Caller, q: ReturnType<typeof searchLinksQuery.check>): LinkSearch {
  return {
    query: q.query ?? null,
    searchTitle: q.search_title,
    searchDescription: q.search_description,
    onlyTags: refIds(deps, caller, q.only_tags, 'tags') ?? q.tags,
    onlyLists: refIds(deps, caller, q.only_lists, 'lists') ?? q.lists,
    emptyTags: q.empty_tags,
    emptyLists: q.empty_lists,
    isPrivate: q.private_only ? true : (q.is_private ?? null),
    brokenOnly: q.broken_only,
    ownOnly: true,
    order: isSearchOrder(q.order_by) ? searchOrderOf(q.order_by!) : { by: v1Column(q.order_by ?? 'title'), dir: q.order_dir ?? 'asc' },
  };
}

/** `GET /api/v1/links/check?url=`: a URL (the last of a repeated parameter is not one). */
const urlQuery = objectOf({ url: optional(field<string>({ type: 'string' }, (v) => (typeof v === 'string' ? v : undefined))) }, { normalize: normalizeQuery });

export function v1LinkRoutes(app: FastifyInstance, deps: Deps): void {
  declareRoute(app, {
    method: 'GET',
    url: '/api/v1/links',
    doc: doc('v1', 'List the links the caller may see (v1), optionally filtered', { ok: v1Paginated(linkV1Schema) }),
    query: listLinksQuery,
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      const p = searchLinksPage(deps, caller, listFilters(input.query), v1PageOf(input.query));
      return envelope(req, { ...p, data: p.data.map((l) => v1(l)) }, 1);
    },
  });

  declareRoute(app, {
    method: 'GET',
    url: '/api/v1/search/links',
    doc: doc('v1', "Search the caller's own links (v1)", { ok: v1Paginated(linkV1Schema) }),
    query: searchLinksQuery,
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      const p = searchLinksPage(deps, caller, searchOf(deps, caller, input.query), v1PageOf(input.query));
      return envelope(req, { ...p, data: p.data.map((l) => v1(l)) }, 1);
    },
  });

  declareRoute(app, {
    method: 'GET',
    url: '/api/v1/links/check',
    doc: doc('v1', "Is this URL among the caller's own links (v1, as LinkAce 1.x)", { ok: { type: 'object', properties: { linksFound: { type: 'boolean' } } } }),
    query: urlQuery,
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      const url = input.query.url;
      return { linksFound: url !== undefined && visibleUrlExists(deps.db, caller, url, true) };
    },
  });

  app.get('/api/v1/links/:id', { schema: doc('v1', 'Get a link (v1)', { params: idParams, ok: linkV1Schema }) }, async (req) => {
    const caller = callerOf(req);
    return v1(linkWithRelations(deps.db, caller, viewableLink(deps, caller, idOf(req, 'Link'))));
  });

  app.post('/api/v1/links', { schema: doc('v1', 'Create a link (v1): 201', { body: newLinkV1Body.schema, ok: linkV1Schema, okStatus: 201 }) }, async (req, reply) => {
    const link = await createLink(deps, callerOf(req), req.body, { v1: true });
    return reply.code(201).send(v1(link));
  });

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/api/v1/links/:id',
      schema: doc('v1', 'Update a link (v1)', { params: idParams, body: linkUpdateV1Body.schema, ok: linkV1Schema }),
      handler: async (req) => v1(patchLink(deps, callerOf(req), idOf(req, 'Link'), req.body, { v1: true })),
    });
  }

  app.delete('/api/v1/links/:id', { schema: doc('v1', 'Move a link to the trash (v1): 204', { params: idParams, okStatus: 204, ok: { type: 'null' } }) }, async (req, reply) => {
    deleteLink(deps, callerOf(req), idOf(req, 'Link'));
    return reply.code(204).send();
  });
}
