/** v1 links (`/api/v1/links`) and the advanced link search (`/api/v1/search/links`). */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { Check, type Input } from '../../validate.js';
import { envelope, readPage } from '../../pagination.js';
import { linkWithRelations, type LinkSearch } from '../../store/links.js';
import { createLink, deleteLink, patchLink, viewableLink } from '../../actions/links.js';
import { bodyOf, callerOf, flag, idList, idOf, queryOf } from '../common.js';
import { doc, idParams, linkV1Body, linkV1Schema } from '../schemas.js';
import { searchLinksPage } from '../v2/search.js';
import { v1 } from './json.js';

const V1_ORDER = ['created_at', 'title', 'url'] as const;
const NEED_CRITERION = 'You must either enter a search query, or select a list or a tag.';

const v1PageQuery = {
  page: { type: 'integer', minimum: 1, default: 1 },
  per_page: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
  order_by: { type: 'string', enum: [...V1_ORDER], default: 'created_at' },
  order_dir: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
};
const filterQuery = {
  query: { type: 'string' },
  tags: { type: 'array', items: { type: 'integer' }, description: 'tag ids (any of them); also tags=1,2' },
  lists: { type: 'array', items: { type: 'integer' }, description: 'list ids (any of them); also lists=1,2' },
  is_private: { type: 'boolean' },
};

function v1Envelope(item: object) {
  return {
    type: 'object',
    properties: {
      data: { type: 'array', items: item },
      meta: { type: 'object', properties: { current_page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' }, last_page: { type: 'integer' } } },
      links: { type: 'object', properties: { first: { type: 'string' }, last: { type: 'string' }, prev: { type: ['string', 'null'] }, next: { type: ['string', 'null'] } } },
    },
  };
}
export { v1Envelope, v1PageQuery };

function readV1Search(q: Input, c: Check, advanced: boolean): LinkSearch {
  const query = c.string('query', { max: 2048 });
  const by = c.oneOf('order_by', V1_ORDER) ?? 'created_at';
  const dir = c.oneOf('order_dir', ['asc', 'desc'] as const) ?? 'desc';
  const isPrivate = q.is_private === undefined || q.is_private === null ? null : c.boolean('is_private');
  const s: LinkSearch = {
    query: typeof query === 'string' ? query : null,
    // the plain list searches everywhere; the advanced search only where asked
    searchTitle: advanced ? flag(q.search_title) : true,
    searchDescription: advanced ? flag(q.search_description) : true,
    onlyTags: idList(c, q, 'tags') ?? idList(c, q, 'only_tags'),
    onlyLists: idList(c, q, 'lists') ?? idList(c, q, 'only_lists'),
    isPrivate: isPrivate ?? null,
    brokenOnly: flag(q.broken_only),
    order: { by, dir },
  };
  if (advanced && !s.query && !s.onlyTags?.length && !s.onlyLists?.length && !s.brokenOnly) for (const f of ['query', 'tags', 'lists']) c.fail(f, NEED_CRITERION);
  return s;
}

export function v1LinkRoutes(app: FastifyInstance, deps: Deps): void {
  for (const [url, advanced] of [
    ['/api/v1/links', false],
    ['/api/v1/search/links', true],
  ] as const) {
    app.get(
      url,
      {
        schema: doc('v1', advanced ? 'Advanced link search (v1)' : 'List links (v1), optionally filtered', {
          querystring: {
            type: 'object',
            properties: { ...v1PageQuery, ...filterQuery, ...(advanced ? { search_title: { type: 'boolean' }, search_description: { type: 'boolean' }, broken_only: { type: 'boolean' } } : {}) },
          },
          ok: v1Envelope(linkV1Schema),
        }),
      },
      async (req) => {
        const caller = callerOf(req);
        const q = queryOf(req);
        const c = new Check(q);
        const page = readPage(c, 1);
        const s = readV1Search(q, c, advanced);
        c.done();
        const p = searchLinksPage(deps, caller, s, page);
        return envelope(req, { ...p, data: p.data.map((l) => v1(l)) }, 1);
      },
    );
  }

  app.get('/api/v1/links/:id', { schema: doc('v1', 'Get a link (v1)', { params: idParams, ok: linkV1Schema }) }, async (req) => {
    const caller = callerOf(req);
    return v1(linkWithRelations(deps.db, caller, viewableLink(deps, caller, idOf(req, 'Link'))));
  });

  app.post('/api/v1/links', { schema: doc('v1', 'Create a link (v1): 201', { body: linkV1Body, ok: linkV1Schema, okStatus: 201 }) }, async (req, reply) => {
    const link = await createLink(deps, callerOf(req), bodyOf(req), { v1: true });
    return reply.code(201).send(v1(link));
  });

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/api/v1/links/:id',
      schema: doc('v1', 'Update a link (v1)', { params: idParams, body: linkV1Body, ok: linkV1Schema }),
      handler: async (req) => v1(patchLink(deps, callerOf(req), idOf(req, 'Link'), bodyOf(req), { v1: true })),
    });
  }

  app.delete('/api/v1/links/:id', { schema: doc('v1', 'Move a link to the trash (v1): 204', { params: idParams, okStatus: 204, ok: { type: 'null' } }) }, async (req, reply) => {
    deleteLink(deps, callerOf(req), idOf(req, 'Link'));
    return reply.code(204).send();
  });
}
