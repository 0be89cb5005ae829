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
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import type { Caller } from '../../access.js';
import { Check, ORDER_DIRS, type Input, type OrderDir } from '../../validate.js';
import { envelope, readPage } from '../../pagination.js';
import { linkWithRelations, visibleUrlExists, type LinkSearch } from '../../store/links.js';
import { findOwnByName, type CollectionKind } from '../../store/collections.js';
import { createLink, deleteLink, patchLink, viewableLink } from '../../actions/links.js';
import { callerOf, flag, idList, idOf, queryOf } from '../common.js';
import { doc, enumOf, idParams, linkV1Schema, v1PageQuery, v1Paginated } from '../schemas.js';
import { linkUpdateV1Body, newLinkV1Body } from '../../bodies/links.js';
import { SEARCH_ORDER, searchLinksPage } from '../v2/search.js';
import { v1 } from './json.js';

/** The reference's order_by values of v1 links; `is_private` is the visibility column. */
export const V1_LINK_ORDER = ['id', 'url', 'title', 'description', 'is_private', 'status', 'check_disabled', 'created_at', 'updated_at'] as const;
const NEED_CRITERION = 'You must either enter a search query, or select a list or a tag.';

/** The store column behind a v1 order_by value. */
export function v1Column(by: string): string {
  return by === 'is_private' ? 'visibility' : by;
}

/** order_by (one of `allowed`) and order_dir (asc|desc), with the store's column name. */
export function readV1Order(c: Check, allowed: readonly string[], def: { by: string; dir: OrderDir }): { by: string; dir: OrderDir } {
  const by = c.oneOf('order_by', allowed) ?? def.by;
  const dir = c.oneOf('order_dir', ORDER_DIRS) ?? def.dir;
  return { by: v1Column(by), dir };
}

const orderDoc = enumOf(V1_LINK_ORDER, { default: 'created_at' });
const filterQuery = {
  query: { type: 'string' },
  tags: { type: 'array', items: { type: 'integer' }, description: 'tag ids (any of them); also tags=1,2' },
  lists: { type: 'array', items: { type: 'integer' }, description: 'list ids (any of them); also lists=1,2' },
  is_private: { type: 'boolean' },
};
const flagDoc = (what: string) => ({ type: 'string', description: `${what}; any value but empty or "0" is on (PHP's (bool))` });
const searchQuery = {
  search_title: flagDoc('also match the title'),
  search_description: flagDoc('also match the description'),
  private_only: flagDoc('private links only'),
  broken_only: flagDoc('links whose status is not ok only'),
  empty_lists: flagDoc('links without lists only (wins over only_lists)'),
  empty_tags: flagDoc('links without tags only (wins over only_tags)'),
  only_lists: { type: 'string', description: "comma-separated list ids or names of the caller's lists (any of them)" },
  only_tags: { type: 'string', description: "comma-separated tag ids or names of the caller's tags (any of them)" },
  order_by: enumOf([...SEARCH_ORDER, ...V1_LINK_ORDER], {
    default: 'title:asc',
    description: '"field:direction" (title, url, created_at), random, or a column with order_dir',
  }),
  order_dir: enumOf(ORDER_DIRS, { description: 'with a plain column in order_by' }),
};

/**
 * Ids from a comma-separated value: digits are ids, other parts names of the caller's own collections
 * (LinkAce 1.x matches names on form requests). A name that matches nothing matches no link.
 */
function refIds(deps: Deps, caller: Caller, c: Check, q: Input, field: string, kind: CollectionKind): number[] | undefined {
  const v = q[field] ?? q[`${field}[]`];
  if (v === undefined || v === null) return undefined;
  const parts = (Array.isArray(v) ? v : [v])
    .flatMap((x) => String(x).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.every((p) => /^\d{1,15}$/.test(p))) return idList(c, q, field);
  const ids: number[] = [];
  for (const p of parts) {
    if (/^\d{1,15}$/.test(p)) ids.push(Number(p));
    else if (caller.kind === 'user') {
      const row = findOwnByName(deps.db, kind, caller.userId, p);
      if (row && !row.deleted_at) ids.push(row.id);
    }
  }
  return ids.length ? ids : [0];
}

/** Today's is_private filter (true: private only; false: public and internal only). */
function isPrivateFilter(q: Input, c: Check): boolean | null {
  if (q.is_private === undefined || q.is_private === null) return null;
  return c.boolean('is_private') ?? null;
}

function readListFilters(q: Input, c: Check): LinkSearch {
  const query = c.string('query', { max: 2048 });
  return {
    query: typeof query === 'string' ? query : null,
    searchTitle: true,
    searchDescription: true,
    onlyTags: idList(c, q, 'tags') ?? idList(c, q, 'only_tags'),
    onlyLists: idList(c, q, 'lists') ?? idList(c, q, 'only_lists'),
    isPrivate: isPrivateFilter(q, c),
    order: readV1Order(c, V1_LINK_ORDER, { by: 'created_at', dir: 'desc' }),
  };
}

function readSearchOrder(c: Check): LinkSearch['order'] {
  const raw = c.input.order_by;
  if (typeof raw === 'string' && (raw.includes(':') || raw === 'random')) {
    const v = c.oneOf('order_by', SEARCH_ORDER);
    if (!v) return null;
    const [by, dir] = v.split(':') as [string, 'asc' | 'desc' | undefined];
    return { by, dir: dir ?? 'asc' };
  }
  return readV1Order(c, V1_LINK_ORDER, { by: 'title', dir: 'asc' });
}

function readSearch(deps: Deps, caller: Caller, q: Input, c: Check): LinkSearch {
  const query = c.string('query', { max: 2048 });
  const privateOnly = flag(q.private_only);
  const s: LinkSearch = {
    query: typeof query === 'string' ? query : null,
    searchTitle: flag(q.search_title),
    searchDescription: flag(q.search_description),
    onlyTags: refIds(deps, caller, c, q, 'only_tags', 'tags') ?? idList(c, q, 'tags'),
    onlyLists: refIds(deps, caller, c, q, 'only_lists', 'lists') ?? idList(c, q, 'lists'),
    emptyTags: flag(q.empty_tags),
    emptyLists: flag(q.empty_lists),
    isPrivate: privateOnly ? true : isPrivateFilter(q, c),
    brokenOnly: flag(q.broken_only),
    ownOnly: true,
    order: readSearchOrder(c),
  };
  if (!s.query && !s.onlyTags?.length && !s.onlyLists?.length && !s.brokenOnly && !s.emptyTags && !s.emptyLists)
    for (const f of ['query', 'only_lists', 'only_tags', 'broken_only']) c.fail(f, NEED_CRITERION);
  return s;
}

/** A v1 page of links, as the search that `read` takes from the query finds them (GET /links and /search/links). */
function linksPage(deps: Deps, read: (caller: Caller, q: Input, c: Check) => LinkSearch) {
  return async (req: FastifyRequest) => {
    const caller = callerOf(req);
    const q = queryOf(req);
    const c = new Check(q);
    const page = readPage(c, 1);
    const s = read(caller, q, c);
    c.done();
    const p = searchLinksPage(deps, caller, s, page);
    return envelope(req, { ...p, data: p.data.map((l) => v1(l)) }, 1);
  };
}

export function v1LinkRoutes(app: FastifyInstance, deps: Deps): void {
  app.get(
    '/api/v1/links',
    {
      schema: doc('v1', 'List the links the caller may see (v1), optionally filtered', {
        querystring: {
          type: 'object',
          properties: {
            ...v1PageQuery,
            order_by: orderDoc,
            order_dir: enumOf(ORDER_DIRS, { default: 'desc' }),
            ...filterQuery,
            only_tags: { type: 'string', description: 'comma-separated tag ids (as tags)' },
            only_lists: { type: 'string', description: 'comma-separated list ids (as lists)' },
          },
        },
        ok: v1Paginated(linkV1Schema),
      }),
    },
    linksPage(deps, (_caller, q, c) => readListFilters(q, c)),
  );

  app.get(
    '/api/v1/search/links',
    {
      schema: doc('v1', "Search the caller's own links (v1)", {
        querystring: {
          type: 'object',
          properties: { ...v1PageQuery, query: { type: 'string' }, ...searchQuery, is_private: filterQuery.is_private, tags: filterQuery.tags, lists: filterQuery.lists },
        },
        ok: v1Paginated(linkV1Schema),
      }),
    },
    linksPage(deps, (caller, q, c) => readSearch(deps, caller, q, c)),
  );

  app.get(
    '/api/v1/links/check',
    {
      schema: doc('v1', "Is this URL among the caller's own links (v1, as LinkAce 1.x)", {
        querystring: { type: 'object', properties: { url: { type: 'string' } } },
        ok: { type: 'object', properties: { linksFound: { type: 'boolean' } } },
      }),
    },
    async (req) => {
      const caller = callerOf(req);
      const url = queryOf(req).url;
      return { linksFound: typeof url === 'string' && visibleUrlExists(deps.db, caller, url, true) };
    },
  );

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
