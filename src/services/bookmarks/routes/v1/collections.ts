/**
 * v1 lists and tags (`is_private`), as LinkAce 1.x serves them: pages carry the v1 paginator, order_by takes the
 * reference's columns (`is_private` orders by visibility), and `GET /lists/{id}` answers `links` as the URL of
 * `/api/v1/lists/{id}/links` (where the links themselves are).
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { envelope, requestBase } from '../../pagination.js';
import { collectionJson, listCollections, type CollectionKind } from '../../store/collections.js';
import { linksOfCollection } from '../../store/links.js';
import { createCollection, deleteCollection, patchCollection, viewableCollection } from '../../actions/collections.js';
import { callerOf, idOf } from '../common.js';
import { collectionBodyFor } from '../../bodies/collections.js';
import { doc, idParams, linkV1Schema, v1Paginated } from '../schemas.js';
import { v1 } from './json.js';
import { declareRoute } from '../../../kit/route.js';
import { orderOf, v1PagedQuery, v1PageOf, v1PageOnlyQuery } from '../queries.js';
import { v1Column } from './links.js';

export function v1CollectionRoutes(app: FastifyInstance, deps: Deps, kind: CollectionKind): void {
  const base = `/api/v1/${kind}`;
  const one = kind === 'lists' ? 'list' : 'tag';
  const model = kind === 'lists' ? 'LinkList' : 'Tag';
  const order = kind === 'lists' ? (['id', 'name', 'description', 'is_private', 'created_at', 'updated_at'] as const) : (['id', 'name', 'is_private', 'created_at', 'updated_at'] as const);
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
  const json = (r: Parameters<typeof collectionJson>[1]) => v1(collectionJson(kind, r));

  declareRoute(app, {
    method: 'GET',
    url: base,
    doc: doc('v1', `List ${kind} (v1)`, { ok: v1Paginated(schema) }),
    query: v1PagedQuery(order),
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      const sort = orderOf(input.query);
      const p = listCollections(deps.db, caller, kind, { by: v1Column(sort.by), dir: sort.dir }, v1PageOf(input.query));
      return envelope(req, { ...p, data: p.data.map(json) }, 1);
    },
  });

  app.post(base, { schema: doc('v1', `Create a ${one} (v1): 201`, { body: collectionBodyFor(kind, { create: true, v1: true }).schema, ok: schema, okStatus: 201 }) }, async (req, reply) =>
    reply.code(201).send(json(createCollection(deps, callerOf(req), kind, req.body, { v1: true }))),
  );

  const oneSchema = kind === 'lists' ? { type: 'object', properties: { ...props, links: { type: 'string', description: 'URL of /api/v1/lists/{id}/links' } } } : schema;
  app.get(base + '/:id', { schema: doc('v1', kind === 'lists' ? 'Get a list (v1): links is the URL of its links' : 'Get a tag (v1)', { params: idParams, ok: oneSchema }) }, async (req) => {
    const row = viewableCollection(deps, callerOf(req), kind, idOf(req, model));
    const out = json(row);
    if (kind === 'lists') out.links = `${requestBase(req).base}${base}/${row.id}/links`;
    return out;
  });

  declareRoute(app, {
    method: 'GET',
    url: base + '/:id/links',
    doc: doc('v1', `Links of a ${one} (v1)`, { params: idParams, ok: v1Paginated(linkV1Schema) }),
    query: v1PageOnlyQuery,
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      const id = idOf(req, model);
      viewableCollection(deps, caller, kind, id, true);
      const p = linksOfCollection(deps.db, caller, kind, id, { by: 'created_at', dir: 'desc' }, v1PageOf(input.query));
      return envelope(req, { ...p, data: p.data.map((l) => v1(l)) }, 1);
    },
  });

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: base + '/:id',
      schema: doc('v1', `Update a ${one} (v1)`, { params: idParams, body: collectionBodyFor(kind, { create: false, v1: true }).schema, ok: schema }),
      handler: async (req) => json(patchCollection(deps, callerOf(req), kind, idOf(req, model), req.body, { v1: true })),
    });
  }

  app.delete(base + '/:id', { schema: doc('v1', `Move a ${one} to the trash (v1): 204`, { params: idParams, okStatus: 204, ok: { type: 'null' } }) }, async (req, reply) => {
    deleteCollection(deps, callerOf(req), kind, idOf(req, model));
    return reply.code(204).send();
  });
}
