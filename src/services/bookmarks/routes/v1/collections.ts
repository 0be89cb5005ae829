/** v1 lists and tags (`is_private`); a v1 list comes with its links. */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { Check } from '../../validate.js';
import { envelope, readPage } from '../../pagination.js';
import { collectionJson, listCollections, type CollectionKind } from '../../store/collections.js';
import { linksOfCollection } from '../../store/links.js';
import { createCollection, deleteCollection, patchCollection, viewableCollection } from '../../actions/collections.js';
import { bodyOf, callerOf, idOf, queryOf } from '../common.js';
import { doc, idParams, linkV1Schema } from '../schemas.js';
import { v1 } from './json.js';
import { v1Envelope } from './links.js';

export function v1CollectionRoutes(app: FastifyInstance, deps: Deps, kind: CollectionKind): void {
  const base = `/api/v1/${kind}`;
  const one = kind === 'lists' ? 'list' : 'tag';
  const model = kind === 'lists' ? 'LinkList' : 'Tag';
  const order = ['name', 'created_at'] as const;
  const props: Record<string, object> = {
    id: { type: 'integer' },
    user_id: { type: 'integer' },
    name: { type: 'string' },
    is_private: { type: 'boolean' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    deleted_at: { type: ['string', 'null'] },
  };
  if (kind === 'lists') props.description = { type: ['string', 'null'] };
  const schema = { type: 'object', properties: props };
  const body = {
    type: 'object',
    properties: { name: { type: 'string' }, is_private: { type: 'boolean' }, ...(kind === 'lists' ? { description: { type: ['string', 'null'] } } : {}) },
  };
  const json = (r: Parameters<typeof collectionJson>[1]) => v1(collectionJson(kind, r));

  app.get(
    base,
    {
      schema: doc('v1', `List ${kind} (v1)`, {
        querystring: {
          type: 'object',
          properties: {
            page: { type: 'integer' },
            per_page: { type: 'integer', maximum: 100 },
            order_by: { type: 'string', enum: [...order] },
            order_dir: { type: 'string', enum: ['asc', 'desc'] },
          },
        },
        ok: v1Envelope(schema),
      }),
    },
    async (req) => {
      const caller = callerOf(req);
      const c = new Check(queryOf(req));
      const page = readPage(c, 1);
      const by = c.oneOf('order_by', order) ?? 'created_at';
      const dir = c.oneOf('order_dir', ['asc', 'desc'] as const) ?? 'desc';
      c.done();
      const p = listCollections(deps.db, caller, kind, { by, dir }, page);
      return envelope(req, { ...p, data: p.data.map(json) }, 1);
    },
  );

  app.post(base, { schema: doc('v1', `Create a ${one} (v1): 201`, { body, ok: schema, okStatus: 201 }) }, async (req, reply) =>
    reply.code(201).send(json(createCollection(deps, callerOf(req), kind, bodyOf(req), { v1: true }))),
  );

  app.get(base + '/:id', { schema: doc('v1', kind === 'lists' ? 'Get a list with its links (v1)' : 'Get a tag (v1)', { params: idParams, ok: schema }) }, async (req) => {
    const caller = callerOf(req);
    const row = viewableCollection(deps, caller, kind, idOf(req, model));
    const out = json(row);
    if (kind === 'lists') {
      const links = linksOfCollection(deps.db, caller, kind, row.id, { by: 'created_at', dir: 'desc' }, { page: 1, perPage: null });
      out.links = links.data.map((l) => v1(l));
    }
    return out;
  });

  app.get(
    base + '/:id/links',
    { schema: doc('v1', `Links of a ${one} (v1)`, { params: idParams, ok: v1Envelope(linkV1Schema) }) },
    async (req) => {
      const caller = callerOf(req);
      const id = idOf(req, model);
      viewableCollection(deps, caller, kind, id, true);
      const c = new Check(queryOf(req));
      const page = readPage(c, 1);
      c.done();
      const p = linksOfCollection(deps.db, caller, kind, id, { by: 'created_at', dir: 'desc' }, page);
      return envelope(req, { ...p, data: p.data.map((l) => v1(l)) }, 1);
    },
  );

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: base + '/:id',
      schema: doc('v1', `Update a ${one} (v1)`, { params: idParams, body, ok: schema }),
      handler: async (req) => json(patchCollection(deps, callerOf(req), kind, idOf(req, model), bodyOf(req), { v1: true })),
    });
  }

  app.delete(base + '/:id', { schema: doc('v1', `Move a ${one} to the trash (v1): 204`, { params: idParams, okStatus: 204, ok: { type: 'null' } }) }, async (req, reply) => {
    deleteCollection(deps, callerOf(req), kind, idOf(req, model));
    return reply.code(204).send();
  });
}
